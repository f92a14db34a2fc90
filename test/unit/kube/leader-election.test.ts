// Leader election: the pure decision (buildLeaseRecord) as a table, and the
// elector's loop against a one-Lease in-memory upstream with optimistic
// concurrency, so conflicts, releases and failed renewals are exact.
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { Upstream, UpstreamResponse } from '../../../src/kube/upstream.ts';
import { buildLeaseRecord, formatMicroTime, startLeaderElection, validateTimings, type LeaseRecord } from '../../../src/kube/leader-election.ts';

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

/**
 * Virtual time: the elector's sleeps and deadlines run on node:test's fake setTimeout and Date, stepped one
 * millisecond at a time; the in-memory upstream answers on real setImmediate turns, several per step. So the
 * figures below are exact in the elector's time, whatever the machine's load.
 */
async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) await new Promise((r) => setImmediate(r));
}
async function advance(ms: number): Promise<void> {
  for (let i = 0; i < ms; i++) {
    mock.timers.tick(1);
    await settle();
  }
}
/** Steps virtual time until `cond` holds; how many virtual ms it took. */
async function until(cond: () => boolean, what: string, maxMs: number): Promise<number> {
  const start = Date.now();
  await settle();
  while (!cond()) {
    if (Date.now() - start >= maxMs) throw new Error(`${what}: not within ${maxMs} ms of the elector's time`);
    await advance(1);
  }
  return Date.now() - start;
}

describe('startLeaderElection (in-memory upstream)', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: T0 }));
  afterEach(() => mock.timers.reset());
  const now = (): number => Date.now();

  it('creates the Lease, leads, renews, and releases on stop', async () => {
    const up = new LeaseUpstream();
    const events: string[] = [];
    const e = startLeaderElection({ upstream: up, identity: 'a', ...fast, now, onStartedLeading: () => { events.push('start'); }, onStoppedLeading: () => { events.push('stop'); } });
    await until(() => e.isLeader(), 'a to lead', 100);
    assert.equal(up.lease?.spec.holderIdentity, 'a');
    assert.equal(up.lease?.metadata.namespace, 'warren-system');
    assert.equal(up.lease?.metadata.name, 'warren-controllers');
    const renewed = up.lease?.spec.renewTime;
    const took = await until(() => up.lease?.spec.renewTime !== renewed, 'a renewal', 1000);
    assert.ok(took >= 50 && took <= 60, `renewed after ${took} ms: one retry period`);
    await e.stop();
    assert.equal(e.isLeader(), false);
    assert.deepEqual(events, ['start', 'stop']);
    assert.equal(up.lease?.spec.holderIdentity, '');
    assert.equal(up.lease?.spec.leaseDurationSeconds, 1);
  });

  it('a second candidate waits while the holder renews, and takes a released Lease at once', async () => {
    const up = new LeaseUpstream();
    const a = startLeaderElection({ upstream: up, identity: 'a', ...fast, now, onStartedLeading: () => undefined, onStoppedLeading: () => undefined });
    await until(() => a.isLeader(), 'a to lead', 100);
    const b = startLeaderElection({ upstream: up, identity: 'b', ...fast, now, onStartedLeading: () => undefined, onStoppedLeading: () => undefined });
    // Two lease durations: a keeps renewing, so b must never lead.
    for (let t = 0; t < 2000; t += 10) {
      await advance(10);
      assert.ok(!(a.isLeader() && b.isLeader()), 'never two leaders');
      assert.equal(b.isLeader(), false);
      assert.equal(a.isLeader(), true);
    }
    await a.stop();
    const took = await until(() => b.isLeader(), 'b to take over', 1000);
    assert.ok(took <= 100, `released: b took over after ${took} ms, its next retry (a lease duration is 1000)`);
    assert.equal(up.lease?.spec.leaseTransitions, 1);
    await b.stop();
  });

  it('a leader that cannot renew within renewDeadline steps down, and leads again when the upstream returns', async () => {
    const up = new LeaseUpstream();
    let stops = 0;
    let starts = 0;
    const a = startLeaderElection({ upstream: up, identity: 'a', ...fast, now, onStartedLeading: () => { starts++; }, onStoppedLeading: () => { stops++; } });
    await until(() => a.isLeader(), 'a to lead', 100);
    up.down = true;
    const took = await until(() => !a.isLeader(), 'a to step down', 2000);
    // It keeps trying for renewDeadline (500 ms), and steps down before the Lease could expire for a peer (1000 ms).
    assert.ok(took >= 500 && took < 1000, `stepped down after ${took} ms`);
    assert.equal(stops, 1);
    up.down = false;
    await until(() => a.isLeader(), 'a to lead again', 2000);
    assert.equal(starts, 2);
    await a.stop();
  });

  it('a crashed holder (no release) is replaced only after its lease duration', async () => {
    const up = new LeaseUpstream();
    const a = startLeaderElection({ upstream: up, identity: 'a', ...fast, now, onStartedLeading: () => undefined, onStoppedLeading: () => undefined });
    await until(() => a.isLeader(), 'a to lead', 100);
    const b = startLeaderElection({ upstream: up, identity: 'b', ...fast, now, onStartedLeading: () => undefined, onStoppedLeading: () => undefined });
    await advance(100); // b has seen a's record
    await a.stop({ release: false });
    assert.equal(up.lease?.spec.holderIdentity, 'a');
    const took = await until(() => b.isLeader(), 'b to take over', 3000);
    // b judges validity from when it last saw the record change (a renewed every 50 ms): a lease duration after that.
    assert.ok(took >= 900 && took <= 1100, `took over after ${took} ms`);
    await b.stop();
  });
});
