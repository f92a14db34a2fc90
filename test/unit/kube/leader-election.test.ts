// Leader election: the pure decision (buildLeaseRecord) as a table, and the
// elector's loop against a one-Lease in-memory upstream with optimistic
// concurrency, so conflicts, releases and failed renewals are exact.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { Upstream, UpstreamResponse } from '../../../src/kube/upstream.ts';
import { buildLeaseRecord, formatMicroTime, startLeaderElection, validateTimings, type LeaseRecord } from '../../../src/kube/leader-election.ts';
import { eventually } from '../../helpers/poll.ts';

const T0 = Date.parse('2025-01-01T00:00:00Z');
const rec = (over: Partial<LeaseRecord>): LeaseRecord => ({ holderIdentity: '', leaseDurationSeconds: 15, acquireTime: '', renewTime: '', leaseTransitions: 0, ...over });

describe('buildLeaseRecord', () => {
  const table: { name: string; old: LeaseRecord; observedAt: number; now: number; want: Partial<LeaseRecord> | undefined }[] = [
    { name: 'empty holder: acquire, one more transition', old: rec({ leaseTransitions: 3 }), observedAt: T0, now: T0, want: { holderIdentity: 'me', leaseTransitions: 4, acquireTime: formatMicroTime(T0) } },
    { name: 'other holder, still valid: wait', old: rec({ holderIdentity: 'other' }), observedAt: T0, now: T0 + 14_999, want: undefined },
    { name: 'other holder, expired on our clock: take over', old: rec({ holderIdentity: 'other', leaseTransitions: 1 }), observedAt: T0, now: T0 + 15_000, want: { holderIdentity: 'me', leaseTransitions: 2 } },
    { name: 'released lease (1 s) expires fast, but empty holder is free at once', old: rec({ holderIdentity: '', leaseDurationSeconds: 1 }), observedAt: T0, now: T0, want: { holderIdentity: 'me', leaseTransitions: 1 } },
    { name: 'our own: renew keeps acquireTime and transitions', old: rec({ holderIdentity: 'me', acquireTime: 'A', leaseTransitions: 7 }), observedAt: T0, now: T0 + 1000, want: { acquireTime: 'A', leaseTransitions: 7, renewTime: formatMicroTime(T0 + 1000) } },
    { name: 'validity uses the record\'s own duration', old: rec({ holderIdentity: 'other', leaseDurationSeconds: 60 }), observedAt: T0, now: T0 + 30_000, want: undefined },
  ];
  for (const c of table) {
    it(c.name, () => {
      const got = buildLeaseRecord(c.old, c.observedAt, 'me', 15, c.now);
      if (c.want === undefined) assert.equal(got, undefined);
      else {
        assert.ok(got);
        for (const [k, v] of Object.entries(c.want)) assert.equal(got[k as keyof LeaseRecord], v, k);
        assert.equal(got.leaseDurationSeconds, 15);
      }
    });
  }

  it('MicroTime has six fractional digits', () => {
    assert.equal(formatMicroTime(Date.parse('2025-01-02T03:04:05.678Z')), '2025-01-02T03:04:05.678000Z');
  });

  it('validateTimings rejects what client-go rejects', () => {
    assert.doesNotThrow(() => validateTimings(15, 10, 2));
    assert.throws(() => validateTimings(10, 10, 2), /leaseDurationSeconds must be greater than renewDeadline/);
    assert.throws(() => validateTimings(15, 2, 2), /renewDeadline must be greater than retryPeriod\*1.2/);
    assert.throws(() => validateTimings(1.5, 1, 0.2), /positive integer/);
  });
});

/** One Lease, with resourceVersion checks, and a switch that makes the upstream fail. */
class LeaseUpstream implements Upstream {
  readonly server = 'https://fake.invalid';
  lease: Record<string, any> | undefined;
  rv = 1;
  down = false;
  writes = 0;
  requestOptions() { return {}; }
  close(): void {}
  stream(): Promise<IncomingMessage> { throw new Error('no streams'); }
  async request<T>(method: string, _path: string, body?: unknown): Promise<UpstreamResponse<T>> {
    await new Promise((r) => setImmediate(r));
    const answer = (status: number, b: unknown) => ({ status, headers: {}, body: structuredClone(b) as T });
    if (this.down) throw new Error('connection refused');
    if (method === 'GET') return this.lease ? answer(200, this.lease) : answer(404, { kind: 'Status', reason: 'NotFound' });
    const obj = structuredClone(body) as Record<string, any>;
    if (method === 'POST') {
      if (this.lease) return answer(409, { kind: 'Status', reason: 'AlreadyExists' });
    } else if (method === 'PUT') {
      if (!this.lease) return answer(404, {});
      if (obj.metadata?.resourceVersion !== this.lease.metadata.resourceVersion) return answer(409, { kind: 'Status', reason: 'Conflict' });
    }
    this.writes++;
    obj.metadata = { ...obj.metadata, resourceVersion: String(++this.rv) };
    this.lease = obj;
    return answer(method === 'POST' ? 201 : 200, obj);
  }
}

const fast = { leaseDurationSeconds: 1, renewDeadline: 0.5, retryPeriod: 0.05 };

describe('startLeaderElection (in-memory upstream)', () => {
  it('creates the Lease, leads, renews, and releases on stop', async () => {
    const up = new LeaseUpstream();
    const events: string[] = [];
    const e = startLeaderElection({ upstream: up, identity: 'a', ...fast, onStartedLeading: () => { events.push('start'); }, onStoppedLeading: () => { events.push('stop'); } });
    await eventually(async () => e.isLeader(), 'a to lead', { timeoutMs: 2000, intervalMs: 10 });
    assert.equal(up.lease?.spec.holderIdentity, 'a');
    assert.equal(up.lease?.metadata.namespace, 'warren-system');
    assert.equal(up.lease?.metadata.name, 'warren-controllers');
    const renewed = up.lease?.spec.renewTime;
    await eventually(async () => up.lease?.spec.renewTime !== renewed, 'a renewal', { timeoutMs: 2000, intervalMs: 10 });
    await e.stop();
    assert.equal(e.isLeader(), false);
    assert.deepEqual(events, ['start', 'stop']);
    assert.equal(up.lease?.spec.holderIdentity, '');
    assert.equal(up.lease?.spec.leaseDurationSeconds, 1);
  });

  it('a second candidate waits while the holder renews, and takes a released Lease at once', async () => {
    const up = new LeaseUpstream();
    const a = startLeaderElection({ upstream: up, identity: 'a', ...fast, onStartedLeading: () => undefined, onStoppedLeading: () => undefined });
    await eventually(async () => a.isLeader(), 'a to lead', { timeoutMs: 2000, intervalMs: 10 });
    const b = startLeaderElection({ upstream: up, identity: 'b', ...fast, onStartedLeading: () => undefined, onStoppedLeading: () => undefined });
    // Two lease durations: a keeps renewing, so b must never lead.
    const until = Date.now() + 2000;
    while (Date.now() < until) {
      assert.ok(!(a.isLeader() && b.isLeader()), 'never two leaders');
      assert.equal(b.isLeader(), false);
      await new Promise((r) => setTimeout(r, 20));
    }
    const stoppedAt = Date.now();
    await a.stop();
    await eventually(async () => b.isLeader(), 'b to take over', { timeoutMs: 1000, intervalMs: 10 });
    assert.ok(Date.now() - stoppedAt < 1000, 'released: faster than a lease duration');
    assert.equal(up.lease?.spec.leaseTransitions, 1);
    await b.stop();
  });

  it('a leader that cannot renew within renewDeadline steps down, and leads again when the upstream returns', async () => {
    const up = new LeaseUpstream();
    let stops = 0;
    let starts = 0;
    const a = startLeaderElection({ upstream: up, identity: 'a', ...fast, onStartedLeading: () => { starts++; }, onStoppedLeading: () => { stops++; } });
    await eventually(async () => a.isLeader(), 'a to lead', { timeoutMs: 2000, intervalMs: 10 });
    up.down = true;
    const downAt = Date.now();
    await eventually(async () => !a.isLeader(), 'a to step down', { timeoutMs: 2000, intervalMs: 10 });
    // It must step down before the Lease could expire for a peer (renewDeadline < leaseDuration).
    assert.ok(Date.now() - downAt < 1000, `stepped down after ${Date.now() - downAt} ms`);
    assert.equal(stops, 1);
    up.down = false;
    await eventually(async () => a.isLeader(), 'a to lead again', { timeoutMs: 2000, intervalMs: 10 });
    assert.equal(starts, 2);
    await a.stop();
  });

  it('a crashed holder (no release) is replaced only after its lease duration', async () => {
    const up = new LeaseUpstream();
    const a = startLeaderElection({ upstream: up, identity: 'a', ...fast, onStartedLeading: () => undefined, onStoppedLeading: () => undefined });
    await eventually(async () => a.isLeader(), 'a to lead', { timeoutMs: 2000, intervalMs: 10 });
    const b = startLeaderElection({ upstream: up, identity: 'b', ...fast, onStartedLeading: () => undefined, onStoppedLeading: () => undefined });
    await new Promise((r) => setTimeout(r, 100)); // b has seen a's record
    const crashedAt = Date.now();
    await a.stop({ release: false });
    assert.equal(up.lease?.spec.holderIdentity, 'a');
    await eventually(async () => b.isLeader(), 'b to take over', { timeoutMs: 3000, intervalMs: 10 });
    const took = Date.now() - crashedAt;
    assert.ok(took >= 800 && took < 2000, `took over after ${took} ms`);
    await b.stop();
  });
});
