// Two Warren replicas against one upstream behave as one: both serve tenants,
// only the Lease holder runs the controllers, and when it stops the other takes
// over and onboards what arrives next.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer, type RunningApiServer } from '../../../src/apiserver/server.ts';
import { createUpstream } from '../../../src/kube/upstream-client.ts';
import { startWarren, type RunningWarren } from '../../../src/warren.ts';
import { applyTenant } from '../../../src/up/apply-tenants.ts';
import { waitForTenant } from '../../../src/up/wait-for-tenants.ts';
import type { KubeObject } from '../../../src/core/types.ts';

const tenant = (name: string): KubeObject => ({
  apiVersion: 'tenancy.warren.dev/v1alpha1', kind: 'Tenant', metadata: { name },
  spec: { users: [{ name: 'admin', admin: true }] },
});

describe('two Warren replicas with leader election', { timeout: 90_000 }, () => {
  let host: RunningApiServer;
  const replicas: Array<{ name: string; warren: RunningWarren; leading: () => boolean }> = [];

  before(async () => {
    host = await startApiServer({ port: 0 });
    for (const name of ['replica-a', 'replica-b']) {
      const lines: string[] = [];
      const warren = await startWarren({
        upstream: createUpstream({ yaml: host.kubeconfig }), host: '127.0.0.1', port: 0,
        log: (line) => lines.push(line),
        leaderElection: { identity: name, leaseDurationSeconds: 2, renewDeadline: 1.5, retryPeriod: 0.25 },
      });
      replicas.push({ name, warren, leading: () => lines.some((l) => l.includes(`${name} acquired`)) });
    }
  });
  after(async () => {
    for (const r of replicas) await r.warren.stop().catch(() => undefined);
    await host?.stop();
  });

  async function holder(): Promise<string> {
    const upstream = createUpstream({ yaml: host.kubeconfig });
    try {
      const res = await upstream.request<{ spec?: { holderIdentity?: string } }>('GET', '/apis/coordination.k8s.io/v1/namespaces/warren-system/leases/warren-controllers');
      return res.body.spec?.holderIdentity ?? '';
    } finally {
      upstream.close();
    }
  }

  it('onboards with exactly one leader, and the other takes over when it stops', async () => {
    const upstream = createUpstream({ yaml: host.kubeconfig });
    try {
      await applyTenant(upstream, tenant('first'));
      await waitForTenant(upstream, 'first', 30_000);
      const leader = await holder();
      assert.ok(['replica-a', 'replica-b'].includes(leader), `lease holder: ${leader}`);
      assert.equal(replicas.filter((r) => r.leading()).length, 1, 'exactly one replica acquired the lease');

      const current = replicas.find((r) => r.name === leader)!;
      await current.warren.stop();
      await applyTenant(upstream, tenant('second'));
      const ready = await waitForTenant(upstream, 'second', 30_000);
      assert.match(ready.id, /^[a-z][a-z0-9]{5}$/);
      assert.equal(await holder(), replicas.find((r) => r.name !== leader)!.name);
    } finally {
      upstream.close();
    }
  });
});
