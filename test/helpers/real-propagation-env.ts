// What the real-tier propagation and member-fault files share: two real
// Kubernetes 1.20 member apiservers (real-members.ts) registered as member1 and
// member2 (member2 labelled location=region-b, as tenants/ expects), Warren
// with the repository's tenants, kubectl 1.33 as a tenant, an admin client
// straight to each member, and the teardown. Call it in a describe(): it
// registers that describe's before/after hooks.
//
// The host here is Warren's embedded apiserver (`warren up` in process, no
// embedded members): what these files prove is how the engine meets real
// members. The real host's own behaviour (controllers, restarts) is in
// host-*.test.ts and faults-upstream.test.ts on test/helpers/real-warren.ts.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startUp, type RunningUp, type UpOptions } from '../../src/up/start-up.ts';
import { createUpstream } from '../../src/kube/upstream-client.ts';
import type { Upstream } from '../../src/kube/upstream.ts';
import { ensureMemberCluster } from '../../src/up/register-members.ts';
import { freePortBase } from '../fixtures/up/warren-up-process.ts';
import type { KubectlResult } from './kubectl.ts';
import { tenantKubectl } from './propagation-env.ts';
import { realKubeSet, type RealKubeSet } from './real-kube.ts';
import { startRealMember, type RealMember } from './real-members.ts';

const TENANTS = join(import.meta.dirname, '..', '..', 'tenants');
const MEMBER_LABELS: Record<string, Record<string, string>> = { member1: { location: 'region-a' }, member2: { location: 'region-b' } };

export interface RealPropagationEnv {
  readonly root: string;
  /** Admin clients straight to the member apiservers (what landed there). */
  readonly members: Record<string, Upstream>;
  /** The member control planes (stop, revoke Warren's credential). */
  readonly real: Record<string, RealMember>;
  up(): RunningUp;
  idOf(tenant: string): string;
  run(tenant: string, ...args: string[]): Promise<KubectlResult>;
  as(tenant: string): (...args: string[]) => Promise<string>;
  apply(tenant: string, text: string, file: string): Promise<void>;
}

export function useRealPropagationEnv(name: string, tuning?: UpOptions['tuning']): RealPropagationEnv {
  const root = mkdtempSync(join(tmpdir(), `warren-real-${name}-`));
  const members: Record<string, Upstream> = {};
  const real: Record<string, RealMember> = {};
  let kubes: RealKubeSet | undefined;
  let running: RunningUp | undefined;

  before(async () => {
    kubes = realKubeSet();
    // One after another: each start waits for its apiserver, and the machine has two cores.
    for (const m of ['member1', 'member2']) real[m] = await startRealMember(kubes, m);
    running = await startUp({
      dataDir: root, portBase: await freePortBase(0), members: 0, tenantsDir: TENANTS,
      log: () => undefined, progress: () => undefined, ...(tuning ? { tuning } : {}),
    });
    const host = createUpstream({ path: running.adminKubeconfigPath });
    try {
      for (const [m, r] of Object.entries(real)) {
        await ensureMemberCluster(host, { name: m, kubeconfig: r.warrenKubeconfig, labels: MEMBER_LABELS[m] ?? {} });
        members[m] = createUpstream({ path: r.kube.kubeconfigPath });
      }
    } finally {
      host.close();
    }
  });
  after(async () => {
    for (const m of Object.values(members)) m.close();
    try {
      await running?.stop();
    } finally {
      try {
        await kubes?.stopAll();
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }
  });

  const { run, as, apply } = tenantKubectl(root);
  return {
    root, members, real, run, as,
    up() {
      if (!running) throw new Error('Warren has not started yet: use env.up() inside tests or later hooks');
      return running;
    },
    idOf(tenant) {
      const id = this.up().tenants.find((t) => t.name === tenant)?.id ?? '';
      assert.match(id, /^[a-z][a-z0-9]{5}$/, `tenant ${tenant} has an id`);
      return id;
    },
    apply,
  };
}
