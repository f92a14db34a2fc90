// Leader election against the embedded apiserver over TLS: two electors (two
// replicas), exactly one leads at any moment; stopping the leader hands over
// within a lease duration (at once when it releases, after expiry when it
// "crashes"), and the Lease looks like client-go's.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer, type RunningApiServer } from '../../../src/apiserver/server.ts';
import { createUpstream } from '../../../src/kube/upstream-client.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';
import { startLeaderElection, type LeaderElector } from '../../../src/kube/leader-election.ts';
import { eventually } from '../../helpers/poll.ts';

const LEASE = '/apis/coordination.k8s.io/v1/namespaces/warren-system/leases/warren-controllers';
const timings = { leaseDurationSeconds: 2, renewDeadline: 1.5, retryPeriod: 0.2 };

describe('leader election on an embedded apiserver', { timeout: 60_000 }, () => {
  let api: RunningApiServer;
  let upstream: Upstream;
  before(async () => {
    api = await startApiServer({ port: 0 });
    upstream = createUpstream({ yaml: api.kubeconfig });
    const r = await upstream.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'warren-system' } });
    assert.ok(r.status === 201 || r.status === 409, `namespace: ${r.status}`);
  });
  after(async () => {
    upstream.close();
    await api.stop();
  });

  async function pair(): Promise<{ electors: Record<string, LeaderElector>; leader: () => string | undefined; both: () => boolean }> {
    const electors: Record<string, LeaderElector> = {};
    for (const id of ['replica-a', 'replica-b']) {
      electors[id] = startLeaderElection({ upstream, identity: id, ...timings, onStartedLeading: () => undefined, onStoppedLeading: () => undefined });
    }
    const leaders = () => Object.entries(electors).filter(([, e]) => e.isLeader()).map(([id]) => id);
    return { electors, leader: () => leaders()[0], both: () => leaders().length > 1 };
  }

  it('exactly one of two replicas leads; a stopped leader hands over at once by releasing', async () => {
    const { electors, leader, both } = await pair();
    const first = await eventually(async () => leader(), 'a leader', { timeoutMs: 10_000, intervalMs: 20 });
    // Watch for two lease durations: never two leaders, never a change of leader.
    for (const until = Date.now() + 4000; Date.now() < until;) {
      assert.ok(!both(), 'two leaders at once');
      assert.equal(leader(), first);
      await new Promise((r) => setTimeout(r, 25));
    }
    const lease = (await upstream.request<any>('GET', LEASE)).body;
    assert.equal(lease.spec.holderIdentity, first);
    assert.equal(lease.spec.leaseDurationSeconds, 2);
    assert.match(lease.spec.renewTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    const stoppedAt = Date.now();
    await electors[first]!.stop();
    const second = await eventually(async () => leader(), 'the other replica to lead', { timeoutMs: 2000, intervalMs: 20 });
    assert.notEqual(second, first);
    assert.ok(Date.now() - stoppedAt < 2000, 'handed over within a lease duration');
    const after = (await upstream.request<any>('GET', LEASE)).body;
    assert.equal(after.spec.holderIdentity, second);
    assert.equal(after.spec.leaseTransitions, lease.spec.leaseTransitions + 1);
    await electors[second]!.stop();
    assert.equal((await upstream.request<any>('GET', LEASE)).body.spec.holderIdentity, '');
  });

  it('a leader that dies without releasing is replaced after the lease expires', async () => {
    const { electors, leader, both } = await pair();
    const first = await eventually(async () => leader(), 'a leader', { timeoutMs: 10_000, intervalMs: 20 });
    await new Promise((r) => setTimeout(r, 500));
    const crashedAt = Date.now();
    await electors[first]!.stop({ release: false });
    const second = await eventually(async () => { assert.ok(!both()); return leader(); }, 'the other replica to lead', { timeoutMs: 5000, intervalMs: 20 });
    const took = Date.now() - crashedAt;
    assert.notEqual(second, first);
    // The candidate measures expiry on its own clock from the last change it saw: at most lease + a retry or two.
    assert.ok(took < 2000 + 3 * 250 + 500, `took over after ${took} ms`);
    await electors[second]!.stop();
  });
});
