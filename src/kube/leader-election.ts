// Leader election over a coordination.k8s.io/v1 Lease, with client-go's
// semantics (tools/leaderelection): a candidate takes the Lease when its holder
// is empty or has not renewed within leaseDurationSeconds, as measured on OUR
// clock from when we last saw the record change (so clock skew between
// replicas does not matter); the leader renews every retryPeriod and gives up
// when it cannot renew within renewDeadline; every write carries the
// resourceVersion it read, so two candidates never both win. On stop the
// leader releases the Lease (empty holder, 1 s duration) so a peer takes over
// at its next retry instead of after a whole lease duration.
//
// Unlike client-go, which returns from Run after losing the Lease (callers
// usually exit), a lost elector goes back to being a candidate: Warren's
// controllers are stoppable, and onStoppedLeading is awaited before that.
import type { Upstream } from './upstream.ts';
import { levelled } from '../observability/log-line.ts';

export interface LeaseRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: string;
  renewTime: string;
  leaseTransitions: number;
}

export interface LeaderElectionOptions {
  upstream: Upstream;
  /** Unique per replica (pod name, or hostname + random suffix). */
  identity: string;
  namespace?: string; // default warren-system
  name?: string; // default warren-controllers
  /** How long a non-renewed Lease keeps candidates away. Default 15, an integer (the Lease field is one). */
  leaseDurationSeconds?: number;
  /** Seconds the leader keeps retrying a failed renewal before it steps down. Default 10; must be < leaseDurationSeconds. */
  renewDeadline?: number;
  /** Seconds between attempts (acquire jittered up to ×1.2, as client-go). Default 2; ×1.2 must be < renewDeadline. */
  retryPeriod?: number;
  onStartedLeading: () => void | Promise<void>;
  /** Awaited before the Lease is released or re-contested: stop the controllers here. */
  onStoppedLeading: () => void | Promise<void>;
  /** Called when a different holder is observed (client-go's OnNewLeader). */
  onNewLeader?: (identity: string) => void;
  log?: (line: string) => void;
  now?: () => number;
  random?: () => number;
}

export interface LeaderElector {
  /** Stops campaigning; a leader first awaits onStoppedLeading, then releases the Lease (unless release is false: a crash, in tests). */
  stop(options?: { release?: boolean }): Promise<void>;
  isLeader(): boolean;
}

export const LEADER_ELECTION_NAMESPACE = 'warren-system';
export const LEADER_ELECTION_LEASE = 'warren-controllers';
const JITTER_FACTOR = 1.2;

/** client-go's MicroTime wire format: RFC 3339 with exactly six fractional digits. */
export function formatMicroTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** Throws when the timings cannot work, with client-go's checks. */
export function validateTimings(leaseDurationSeconds: number, renewDeadline: number, retryPeriod: number): void {
  if (!Number.isInteger(leaseDurationSeconds) || leaseDurationSeconds < 1) throw new Error('leaseDurationSeconds must be a positive integer');
  if (leaseDurationSeconds <= renewDeadline) throw new Error('leaseDurationSeconds must be greater than renewDeadline');
  if (renewDeadline <= JITTER_FACTOR * retryPeriod) throw new Error(`renewDeadline must be greater than retryPeriod*${JITTER_FACTOR}`);
  if (retryPeriod <= 0) throw new Error('retryPeriod must be greater than zero');
}

export function recordOf(lease: unknown): LeaseRecord {
  const spec = ((lease as { spec?: Record<string, unknown> } | undefined)?.spec ?? {});
  return {
    holderIdentity: typeof spec.holderIdentity === 'string' ? spec.holderIdentity : '',
    leaseDurationSeconds: typeof spec.leaseDurationSeconds === 'number' ? spec.leaseDurationSeconds : 0,
    acquireTime: typeof spec.acquireTime === 'string' ? spec.acquireTime : '',
    renewTime: typeof spec.renewTime === 'string' ? spec.renewTime : '',
    leaseTransitions: typeof spec.leaseTransitions === 'number' ? spec.leaseTransitions : 0,
  };
}

/**
 * The record a candidate would write over `old`, or undefined when `old`'s
 * holder is someone else whose lease is still valid (observedAt + its
 * duration is in the future). Pure: client-go's tryAcquireOrRenew decision.
 */
export function buildLeaseRecord(old: LeaseRecord, observedAtMs: number, identity: string, leaseDurationSeconds: number, nowMs: number): LeaseRecord | undefined {
  const held = old.holderIdentity !== '';
  const valid = observedAtMs + old.leaseDurationSeconds * 1000 > nowMs;
  if (held && valid && old.holderIdentity !== identity) return undefined;
  const renewing = old.holderIdentity === identity;
  const now = formatMicroTime(nowMs);
  return {
    holderIdentity: identity,
    leaseDurationSeconds,
    acquireTime: renewing && old.acquireTime ? old.acquireTime : now,
    renewTime: now,
    leaseTransitions: renewing ? old.leaseTransitions : old.leaseTransitions + 1,
  };
}

export function startLeaderElection(options: LeaderElectionOptions): LeaderElector {
  const { upstream, identity } = options;
  const namespace = options.namespace ?? LEADER_ELECTION_NAMESPACE;
  const name = options.name ?? LEADER_ELECTION_LEASE;
  const leaseDurationSeconds = options.leaseDurationSeconds ?? 15;
  const renewDeadlineMs = (options.renewDeadline ?? 10) * 1000;
  const retryMs = (options.retryPeriod ?? 2) * 1000;
  validateTimings(leaseDurationSeconds, renewDeadlineMs / 1000, retryMs / 1000);
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const log = options.log ?? (() => undefined);
  const collection = `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`;
  const path = `${collection}/${name}`;

  // What we last saw of the Lease, and when (on our clock): validity is judged from this.
  let observed: { raw: string; record: LeaseRecord; at: number; lease: Record<string, unknown> } | undefined;
  let leading = false;
  let stopped = false;
  let sleeper: { timer: NodeJS.Timeout; wake: () => void } | undefined;

  const sleep = (ms: number): Promise<void> => new Promise((resolve) => {
    if (stopped) return resolve();
    const wake = (): void => { clearTimeout(timer); sleeper = undefined; resolve(); };
    const timer = setTimeout(wake, ms);
    sleeper = { timer, wake };
  });

  const observe = (lease: Record<string, unknown>): void => {
    const record = recordOf(lease);
    const raw = JSON.stringify(record);
    if (observed?.raw === raw) { observed.lease = lease; return; }
    if (record.holderIdentity && record.holderIdentity !== observed?.record.holderIdentity) options.onNewLeader?.(record.holderIdentity);
    observed = { raw, record, at: now(), lease };
  };

  /** One client-go tryAcquireOrRenew: true when we hold the Lease afterwards. Never throws. */
  async function tryAcquireOrRenew(): Promise<boolean> {
    try {
      const got = await upstream.request<Record<string, unknown>>('GET', path);
      if (got.status === 404) {
        const record = buildLeaseRecord(recordOf(undefined), 0, identity, leaseDurationSeconds, now());
        const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace }, spec: { ...record, leaseTransitions: 0 } };
        const created = await upstream.request<Record<string, unknown>>('POST', collection, lease);
        if (created.status !== 201) { log(levelled('warn', `leader election: create lease ${namespace}/${name}: ${created.status}`)); return false; }
        observe(created.body);
        return true;
      }
      if (got.status !== 200) { log(levelled('warn', `leader election: get lease ${namespace}/${name}: ${got.status}`)); return false; }
      observe(got.body);
      const record = buildLeaseRecord(observed!.record, observed!.at, identity, leaseDurationSeconds, now());
      if (!record) return false;
      // The read's resourceVersion rides along: a concurrent writer makes this a 409, and we lose the round.
      const updated = await upstream.request<Record<string, unknown>>('PUT', path, { ...got.body, spec: { ...(got.body.spec as object), ...record } });
      if (updated.status !== 200) { if (updated.status !== 409) log(levelled('warn', `leader election: update lease: ${updated.status}`)); return false; }
      observe(updated.body);
      return true;
    } catch (err) {
      log(levelled('warn', `leader election: ${String(err)}`));
      return false;
    }
  }

  /** Bounds an attempt by the time left: a hung upstream must not keep a stale leader leading. */
  async function attemptWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), Math.max(ms, 1)); });
    try {
      return await Promise.race([tryAcquireOrRenew(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function renewUntilLost(): Promise<void> {
    while (!stopped) {
      await sleep(retryMs);
      if (stopped) return;
      const deadline = now() + renewDeadlineMs;
      let renewed = false;
      while (!stopped && now() < deadline) {
        if (await attemptWithin(deadline - now())) { renewed = true; break; }
        if (stopped) return;
        await sleep(Math.min(retryMs, Math.max(0, deadline - now())));
      }
      if (!renewed && !stopped) { log(levelled('error', `leader election: ${identity} failed to renew lease ${namespace}/${name} within ${renewDeadlineMs} ms`)); return; }
    }
  }

  async function stepDown(): Promise<void> {
    if (!leading) return;
    leading = false;
    try { await options.onStoppedLeading(); } catch (err) { log(levelled('error', `leader election: onStoppedLeading failed: ${String(err)}`)); }
  }

  async function run(): Promise<void> {
    while (!stopped) {
      if (!(await attemptWithin(retryMs * JITTER_FACTOR))) {
        await sleep(retryMs * (1 + random() * (JITTER_FACTOR - 1)));
        continue;
      }
      if (stopped) return;
      leading = true;
      log(`leader election: ${identity} acquired lease ${namespace}/${name}`);
      try { await options.onStartedLeading(); } catch (err) { log(levelled('error', `leader election: onStartedLeading failed: ${String(err)}`)); }
      await renewUntilLost();
      if (!stopped) await stepDown();
    }
  }

  /** client-go's release: empty holder and a 1 s duration, written over what we last saw. */
  async function release(): Promise<void> {
    if (!observed || observed.record.holderIdentity !== identity) return;
    const at = formatMicroTime(now());
    const spec = { ...(observed.lease.spec as object), holderIdentity: '', leaseDurationSeconds: 1, acquireTime: at, renewTime: at, leaseTransitions: observed.record.leaseTransitions };
    const r = await upstream.request('PUT', path, { ...observed.lease, spec }).catch((err: unknown) => ({ status: 0, body: String(err) }));
    if (r.status !== 200) log(levelled('warn', `leader election: release lease ${namespace}/${name}: ${r.status}`));
  }

  const loop = run();
  return {
    isLeader: () => leading,
    async stop({ release: doRelease = true } = {}) {
      if (stopped) return loop;
      stopped = true;
      sleeper?.wake();
      await loop;
      const held = leading;
      await stepDown();
      if (held && doRelease) await release();
    },
  };
}
