// The propagation bench's world, every server in its own process so the two
// cores are shared by the OS and not by one event loop: a host apiserver,
// `warren serve` on it (gateway + onboarding + cluster controller + the
// propagation engine, the process under test), and N member apiservers
// (`warren apiserver`, no workload simulator: "applied" is the object's
// arrival, not its rollout). Members are registered as Clusters the way
// `warren up` does, and the stack is ready once every Cluster is Ready.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createUpstream } from '../src/kube/upstream-client.ts';
import { registerMembers, CLUSTERS_PATH } from '../src/up/register-members.ts';
import type { Cluster } from '../src/core/propagation/karmada-types.ts';
import { TENANTS_PATH, type Tenant } from '../src/tenants/tenant-crd.ts';
import { clientFromKubeconfig, type BenchClient } from './http-client.ts';
import { expectStatus } from './load.ts';
import { startEmbedded, type Target } from './targets/targets.ts';
import { startGatewayStack, type GatewayStack, type ReadyTenant } from './targets/gateway-stack.ts';

export interface PropagationStack {
  stack: GatewayStack;
  members: Array<{ name: string; target: Target & { dataDir: string }; kubeconfig: string }>;
  /** Admin client straight to the host apiserver. */
  host: BenchClient;
  stop(): Promise<void>;
}

export async function startPropagationStack(options: { repoRoot: string; members: number; engineNodeFlags: string[]; hostNodeFlags?: string[]; firstMemberNodeFlags?: string[]; log(m: string): void }): Promise<PropagationStack> {
  const stack = await startGatewayStack({ repoRoot: options.repoRoot, floor: false, gatewayNodeFlags: options.engineNodeFlags, upstreamNodeFlags: options.hostNodeFlags ?? [] });
  const members: PropagationStack['members'] = [];
  const host = stack.direct(32);
  try {
    // Two at a time: ten tsx start-ups at once would take longer on two cores than in pairs.
    for (let i = 0; i < options.members; i += 2) {
      const batch = await Promise.all([i, i + 1].filter((k) => k < options.members).map((k) => startEmbedded({ repoRoot: options.repoRoot, nodeFlags: k === 0 ? options.firstMemberNodeFlags ?? [] : [] })));
      for (const target of batch) {
        members.push({ name: `member${members.length + 1}`, target, kubeconfig: readFileSync(join(target.dataDir, 'kubeconfig'), 'utf8') });
      }
    }
    options.log(`propagation: host, warren serve and ${members.length} members started`);
    const upstream = createUpstream({ yaml: readFileSync(stack.upstreamKubeconfigFile, 'utf8') });
    try {
      await registerMembers(upstream, members);
    } finally {
      upstream.close();
    }
    await waitForReadyClusters(host, members.length, 60_000);
    options.log('propagation: all member Clusters Ready');
  } catch (err) {
    await stopAll();
    throw err;
  }
  async function stopAll(): Promise<void> {
    host.close();
    await Promise.all(members.map((m) => m.target.stop()));
    await stack.stop();
  }
  return { stack, members, host, stop: stopAll };
}

async function waitForReadyClusters(host: BenchClient, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await host.request('GET', CLUSTERS_PATH);
    expectStatus(reply, 200);
    const ready = (JSON.parse(reply.body) as { items: Cluster[] }).items
      .filter((c) => c.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True')).length;
    if (ready >= count) return;
    if (Date.now() > deadline) throw new Error(`only ${ready} of ${count} Clusters Ready after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Lets the tenant use these member clusters (Tenant.spec.clusters.names; a Tenant without the rule may use none). */
export async function allowMembers(host: BenchClient, tenantName: string, memberNames: string[]): Promise<void> {
  const current = await host.request('GET', `${TENANTS_PATH}/${tenantName}`);
  expectStatus(current, 200);
  const tenant = JSON.parse(current.body) as Tenant;
  expectStatus(await host.request('PUT', `${TENANTS_PATH}/${tenantName}`, JSON.stringify({ ...tenant, spec: { ...tenant.spec, clusters: { names: memberNames } } })), 200);
}

/** The tenant's namespace and a PropagationPolicy duplicating every Deployment in it to all members, written through the gateway as the tenant. */
export async function ensureTenantPlacement(tenant: ReadyTenant, namespace: string, memberNames: string[]): Promise<void> {
  const client = clientFromKubeconfig(tenant.kubeconfig, 2);
  try {
    const ns = await client.request('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }));
    expectStatus(ns, 201, 409);
    const policy = {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'all-members', namespace },
      spec: {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
        placement: { clusterAffinity: { clusterNames: memberNames }, replicaScheduling: { replicaSchedulingType: 'Duplicated' } },
      },
    };
    expectStatus(await client.request('POST', `/apis/policy.karmada.io/v1alpha1/namespaces/${namespace}/propagationpolicies`, JSON.stringify(policy)), 201, 409);
  } finally {
    client.close();
  }
}
