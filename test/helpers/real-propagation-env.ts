// What the real-tier propagation and member-fault scenarios share: a real
// Kubernetes 1.20 host whose controller-manager runs what Karmada's control plane
// runs (namespace, garbage collector: a deleted template's binding goes with it),
// not the workload controllers (a template is not run on the host, and the engine
// is its status's one writer; ADR 0023), and two real member apiservers
// (real-members.ts) registered as member1 and member2 (member2 labelled
// location=region-b, as tenants/ expects), all three started at once; Warren's
// gateway and controllers on the host in this process (as `warren serve` runs
// them, with shortened member probes so failover takes seconds), the
// repository's tenants applied and Ready, kubectl 1.33 as a tenant, an admin
// client straight to each member, and the teardown. Call it at the top of a
// file or in a describe(): it registers that scope's before/after hooks.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUpstream } from '../../src/kube/upstream-client.ts';
import type { Upstream } from '../../src/kube/upstream.ts';
import { ensureMemberCluster } from '../../src/up/register-members.ts';
import { applyTenant, readTenantManifests } from '../../src/up/apply-tenants.ts';
import { waitForTenant, type ReadyTenant } from '../../src/up/wait-for-tenants.ts';
import { startWarren, type RunningWarren, type WarrenOptions } from '../../src/warren.ts';
import { freePort } from './warren-process.ts';
import type { KubectlResult } from './kubectl.ts';
import { tenantKubectl } from './propagation-env.ts';
import { realKubeSet, timed, type RealKube, type RealKubeSet } from './real-kube.ts';
import { startRealMember, type RealMember } from './real-members.ts';
import { warmTenantOpenApi } from './real-warren.ts';

const TENANTS = join(import.meta.dirname, '..', '..', 'tenants');
// What Karmada's own kube-controller-manager runs (its install manifests), less what needs certificates we do not give it.
const KARMADA_HOST_CONTROLLERS = ['namespace', 'garbagecollector', 'serviceaccount-token', 'clusterrole-aggregation'];
const MEMBER_LABELS: Record<string, Record<string, string>> = { member1: { location: 'region-a' }, member2: { location: 'region-b' } };

export type RealPropagationTuning = Pick<WarrenOptions, 'clusterProbeIntervalMs' | 'clusterFailureThresholdMs' | 'clusterSuccessThresholdMs' | 'propagation'>;

export interface RealPropagationEnv {
  readonly root: string;
  /** Admin clients straight to the member apiservers (what landed there). */
  readonly members: Record<string, Upstream>;
  /** The member control planes (stop, revoke Warren's credential). */
  readonly real: Record<string, RealMember>;
  /** The real host control plane (admin kubeconfig). */
  host(): RealKube;
  idOf(tenant: string): string;
  run(tenant: string, ...args: string[]): Promise<KubectlResult>;
  as(tenant: string): (...args: string[]) => Promise<string>;
  apply(tenant: string, text: string, file: string): Promise<void>;
}

export function useRealPropagationEnv(name: string, tuning?: RealPropagationTuning): RealPropagationEnv {
  const root = mkdtempSync(join(tmpdir(), `warren-real-${name}-`));
  const members: Record<string, Upstream> = {};
  const real: Record<string, RealMember> = {};
  const tenants: ReadyTenant[] = [];
  let kubes: RealKubeSet | undefined;
  let hostKube: RealKube | undefined;
  let upstream: Upstream | undefined;
  let warren: RunningWarren | undefined;

  before(async () => {
    kubes = realKubeSet();
    kubes.adopt(root); // removed with the control planes, also when this process is killed
    const set = kubes;
    const [host, m1, m2] = await Promise.all([
      set.start('host', { controllers: KARMADA_HOST_CONTROLLERS }),
      startRealMember(set, 'member1'),
      startRealMember(set, 'member2'),
    ]);
    hostKube = host;
    real.member1 = m1;
    real.member2 = m2;
    upstream = createUpstream({ path: host.kubeconfigPath });
    const hostUpstream = upstream;
    warren = await timed('warren (gateway and controllers) started', startWarren({
      upstream: hostUpstream, host: '127.0.0.1', port: await freePort(), log: () => undefined, ...tuning,
    }));
    for (const [m, r] of Object.entries(real)) {
      await ensureMemberCluster(hostUpstream, { name: m, kubeconfig: r.warrenKubeconfig, labels: MEMBER_LABELS[m] ?? {} });
      members[m] = createUpstream({ path: r.kube.kubeconfigPath });
    }
    const manifests = readTenantManifests(TENANTS);
    for (const t of manifests) await applyTenant(hostUpstream, t);
    mkdirSync(join(root, 'tenants'));
    const ready = await timed('tenants Ready', Promise.all(manifests.map((t) => waitForTenant(hostUpstream, t.metadata.name ?? '', 120_000))));
    for (const t of ready) {
      writeFileSync(join(root, 'tenants', `${t.name}.kubeconfig`), t.adminKubeconfig, { mode: 0o600 });
      tenants.push(t);
    }
    await timed('tenants\' /openapi/v2 warmed', Promise.all(ready.map((t) => warmTenantOpenApi(t.adminKubeconfig))));
  });
  after(async () => {
    for (const m of Object.values(members)) m.close();
    try {
      await warren?.stop();
    } finally {
      upstream?.close();
      try {
        await kubes?.stopAll();
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }
  });

  const { run, as, apply } = tenantKubectl(root);
  return {
    root, members, real, run, as, apply,
    host() {
      if (!hostKube) throw new Error('the host has not started yet: use env.host() inside tests or later hooks');
      return hostKube;
    },
    idOf(tenant) {
      const id = tenants.find((t) => t.name === tenant)?.id ?? '';
      assert.match(id, /^[a-z][a-z0-9]{5}$/, `tenant ${tenant} has an id`);
      return id;
    },
  };
}
