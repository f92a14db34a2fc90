// What the propagation e2e files share: `warren up` in a fresh temporary
// directory with two members and the repository's tenants (acme, globex), a
// client straight to each member's apiserver (to check what landed there),
// kubectl 1.33 as a tenant, and the teardown. Call it in a describe(): it
// registers that describe's before/after hooks.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startUp, type RunningUp, type UpOptions } from '../../src/up/start-up.ts';
import { createUpstream } from '../../src/kube/upstream-client.ts';
import type { Upstream } from '../../src/kube/upstream.ts';
import { freePortBase } from '../fixtures/up/warren-up-process.ts';
import { kubectl, type KubectlResult } from './kubectl.ts';
import { eventually } from './poll.ts';

const TENANTS = join(import.meta.dirname, '..', '..', 'tenants');

export interface PropagationEnv {
  /** The temporary data directory (kubeconfigs under tenants/, scratch files). */
  readonly root: string;
  /** Member apiserver clients by member name, filled once the system is up. */
  readonly members: Record<string, Upstream>;
  /** The running system; only inside tests and later hooks. */
  up(): RunningUp;
  /** A tenant's id (its upstream prefix), e.g. idOf('acme'). */
  idOf(tenant: string): string;
  /** kubectl 1.33 as the tenant, whatever its exit code. */
  run(tenant: string, ...args: string[]): Promise<KubectlResult>;
  /** kubectl 1.33 as the tenant: asserts it succeeded and returns its stdout. */
  as(tenant: string): (...args: string[]) => Promise<string>;
  /** Writes `text` to `file` under root and `kubectl apply`s it as the tenant. */
  apply(tenant: string, text: string, file: string): Promise<void>;
  /** Deletes the Tenant on the host, as a platform admin, and waits until it is gone. */
  deleteTenant(tenant: string, timeoutMs: number): Promise<void>;
}

/** kubectl 1.33 as a tenant of a Warren whose data directory is `root` (its kubeconfigs under tenants/). */
export function tenantKubectl(root: string): Pick<PropagationEnv, 'run' | 'as' | 'apply'> {
  const run = (tenant: string, ...args: string[]): Promise<KubectlResult> => kubectl('1.33', args, { kubeconfigPath: join(root, 'tenants', `${tenant}.kubeconfig`) });
  const as = (tenant: string) => async (...args: string[]): Promise<string> => {
    const r = await run(tenant, ...args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const apply = async (tenant: string, text: string, file: string): Promise<void> => {
    const path = join(root, file);
    writeFileSync(path, text);
    await as(tenant)('apply', '-f', path);
  };
  return { run, as, apply };
}

export function usePropagationEnv(name: string, tuning?: UpOptions['tuning']): PropagationEnv {
  const root = mkdtempSync(join(tmpdir(), `warren-${name}-e2e-`));
  const members: Record<string, Upstream> = {};
  let running: RunningUp | undefined;

  before(async () => {
    running = await startUp({
      dataDir: root, portBase: await freePortBase(2), members: 2, tenantsDir: TENANTS,
      log: () => undefined, progress: () => undefined, ...(tuning ? { tuning } : {}),
    });
    for (const [member, path] of Object.entries(running.memberKubeconfigPaths)) members[member] = createUpstream({ path });
  });
  after(async () => {
    for (const m of Object.values(members)) m.close();
    await running?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  const { run, as, apply } = tenantKubectl(root);
  return {
    root,
    members,
    up() {
      if (!running) throw new Error('warren up has not started yet: use env.up() inside tests or later hooks');
      return running;
    },
    idOf(tenant) {
      const id = this.up().tenants.find((t) => t.name === tenant)?.id ?? '';
      assert.match(id, /^[a-z][a-z0-9]{5}$/, `tenant ${tenant} has an id`);
      return id;
    },
    run,
    as,
    apply,
    async deleteTenant(tenant, timeoutMs) {
      const host = createUpstream({ path: this.up().adminKubeconfigPath });
      const path = `/apis/tenancy.warren.dev/v1alpha1/tenants/${tenant}`;
      try {
        const res = await host.request('DELETE', path);
        assert.ok(res.status === 200 || res.status === 202, `delete tenant ${tenant}: ${res.status}`);
        await eventually(async () => (await host.request('GET', path)).status === 404, `the Tenant ${tenant} gone`, { timeoutMs });
      } finally {
        host.close();
      }
    },
  };
}
