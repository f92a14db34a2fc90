// `warren up`: the whole system on one machine. An embedded host apiserver
// (P+1), N embedded member clusters with the workload simulator (P+1+i), the
// gateway (P) and the controllers; then the Tenant manifests, and kubeconfigs
// for the platform admin, each member and each tenant's admin.
// The host simulates workloads too, as the members do (issue 14 item 8, ADR
// 0023's one model): a tenant workload no policy propagates runs on the host,
// as on a real host with kube-controller-manager; a propagated Deployment is
// held there (paused, 0 replicas), so it runs on the members only.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startApiServer, type RunningApiServer } from '../apiserver/server.ts';
import { createUpstream } from '../kube/upstream-client.ts';
import { startWarren, type RunningWarren, type WarrenOptions } from '../warren.ts';
import { applyTenant, readTenantManifests } from './apply-tenants.ts';
import { waitForTenants, type ReadyTenant } from './wait-for-tenants.ts';
import { registerMembers } from './register-members.ts';

export interface UpOptions {
  dataDir: string;
  portBase: number;
  members: number;
  tenantsDir?: string | undefined;
  log: (line: string) => void;
  /** Human progress lines ("host apiserver ready", "tenant acme Ready"). */
  progress: (line: string) => void;
  /** The gateway's audit log (audit.k8s.io/v1 events, one per line), as `serve`'s audit.logPath. */
  auditLogPath?: string;
  /** Controller tuning passed to startWarren (tests shorten probes and tolerations). */
  /** The Kubernetes release the host and members show clients ("1.20"; default the build's own). */
  emulatedVersion?: string | undefined;
  tuning?: Pick<WarrenOptions, 'clusterProbeIntervalMs' | 'clusterFailureThresholdMs' | 'clusterSuccessThresholdMs' | 'propagation'>;
}

/** The host runs workloads unless the tuning says it does not (a pure control plane, as Karmada's; tests of that model). */
function hostRunsWorkloads(options: UpOptions): boolean {
  return options.tuning?.propagation?.hostRunsWorkloads !== false;
}

export interface RunningUp {
  gatewayUrl: string;
  adminKubeconfigPath: string;
  memberKubeconfigPaths: Record<string, string>;
  tenants: ReadyTenant[];
  /** The embedded member apiservers, by name (tests stop one to see failover). */
  memberServers: Record<string, RunningApiServer>;
  stop(): Promise<void>;
}

export async function startUp(options: UpOptions): Promise<RunningUp> {
  const { dataDir, portBase } = options;
  await mkdir(join(dataDir, 'members'), { recursive: true });
  await mkdir(join(dataDir, 'tenants'), { recursive: true });
  const started: Array<{ stop(): Promise<void> }> = [];
  try {
    const simulateOnHost = hostRunsWorkloads(options);
    const host = await startApiServer({ port: portBase + 1, dataDir: join(dataDir, 'host'), clusterName: 'warren-host', simulateWorkloads: simulateOnHost, log: options.log, emulatedVersion: options.emulatedVersion });
    started.push(host);
    const adminKubeconfigPath = join(dataDir, 'admin.kubeconfig');
    await writeFile(adminKubeconfigPath, host.kubeconfig, { mode: 0o600 });
    options.progress(`host apiserver ready at ${host.url}`);

    const members: RunningApiServer[] = [];
    const memberKubeconfigPaths: Record<string, string> = {};
    for (let i = 1; i <= options.members; i++) {
      const name = `member${i}`;
      const member = await startApiServer({ port: portBase + 1 + i, dataDir: join(dataDir, 'members', name), clusterName: name, simulateWorkloads: true, log: options.log, emulatedVersion: options.emulatedVersion });
      started.push(member);
      members.push(member);
      memberKubeconfigPaths[name] = join(dataDir, 'members', `${name}.kubeconfig`);
      await writeFile(memberKubeconfigPaths[name], member.kubeconfig, { mode: 0o600 });
      options.progress(`member cluster ${name} ready at ${member.url}`);
    }

    let tenantsReady = false;
    const upstream = createUpstream({ yaml: host.kubeconfig });
    // A host without workload controllers: the engine says so on workloads nobody propagates (ADR 0023).
    const warren: RunningWarren = await startWarren({
      upstream, host: '127.0.0.1', port: portBase, log: options.log, readiness: () => tenantsReady, ...options.tuning,
      propagation: { ...options.tuning?.propagation, hostRunsWorkloads: simulateOnHost },
      ...(options.auditLogPath ? { gateway: { auditLogPath: options.auditLogPath } } : {}),
    });
    started.push(warren);
    options.progress(`gateway listening at ${warren.gateway.url}`);
    const registered = await registerMembers(upstream, members);
    if (registered.length > 0) options.progress(`member clusters registered: ${registered.join(', ')}`);

    const manifests = options.tenantsDir ? readTenantManifests(options.tenantsDir) : [];
    for (const tenant of manifests) await applyTenant(upstream, tenant);
    const tenants = await waitForTenants(upstream, manifests.map((t) => t.metadata.name ?? ''), options.progress);
    for (const tenant of tenants) {
      await writeFile(join(dataDir, 'tenants', `${tenant.name}.kubeconfig`), tenant.adminKubeconfig, { mode: 0o600 });
    }
    tenantsReady = true;
    return {
      gatewayUrl: warren.gateway.url,
      adminKubeconfigPath,
      memberKubeconfigPaths,
      tenants,
      memberServers: Object.fromEntries(members.map((m, i) => [`member${i + 1}`, m])),
      stop: () => stopAll(started),
    };
  } catch (err) {
    await stopAll(started);
    throw err;
  }
}

async function stopAll(started: Array<{ stop(): Promise<void> }>): Promise<void> {
  for (const item of [...started].reverse()) await item.stop().catch(() => undefined);
}
