// How many objects of one resource a tenant has, kept per gateway as a counter
// that creates reserve against and then commit or release, so the tenant's
// count quota (Tenant.spec.quota.namespaces / objectsPerResource) costs one
// LIST per resource every few seconds instead of one per create, and stays
// exact under concurrency: a reservation is a synchronous check-and-increment
// of count + pending against the limit, so 64 parallel creates at the limit
// cannot all see the same "used" (docs/adr/0031-object-count-quota-counters.md).
//
// The count is read from upstream (a LIST) when it is missing, older than the
// TTL, or marked stale (a delete, an outcome nobody knows). Two kinds of read:
// - exact: taken while no reservation of that counter is in flight, and new
//   reservations wait for it (a LIST taken while creates are in flight may or
//   may not contain them). Only an exact count refuses a create.
// - refresh, while creates are in flight and the tenant is below its limit:
//   nobody waits for it. It yields an upper bound (the listed objects plus every
//   create committed while the LIST ran, some of which it may already contain),
//   and admitting against an upper bound never stores past the limit. Before
//   (issue 18), every expiry in a burst drained the burst and stalled it for a
//   LIST: creates through the gateway ran at 0.12-0.23x direct, updates at 0.4x.
// A create that an upper bound would refuse waits for the exact path instead.
export interface LoadedCount {
  count: number;
  /** false when the listing stopped early, once `count` went past `cap`: the count is a lower bound. */
  complete: boolean;
}

export interface Reservation {
  /** The object was stored. */
  commit(): void;
  /** The upstream refused it: nothing was stored. */
  release(): void;
  /** Nobody knows (a 5xx, a broken connection): the count is read again before the next reservation. */
  unknown(): void;
}

export type Reserved = { reservation: Reservation } | { refused: { used: number } };

export interface ReserveRequest {
  tenantId: string;
  /** The counted resource, e.g. "apps/deployments" (group/resource, upstream spelling). */
  resource: string;
  limit: number;
  /** Counts the tenant's objects upstream; may stop once past `cap`. */
  load(cap: number): Promise<LoadedCount>;
}

export interface ObjectCounts {
  reserve(request: ReserveRequest): Promise<Reserved>;
  /** Marks one counter (or every counter of the tenant) to be read again. */
  stale(tenantId: string, resource?: string): void;
}

interface Counter {
  /** Stored objects: exact when `exact`, else an upper bound (never below what is stored, as far as this gateway wrote). */
  count: number | undefined;
  complete: boolean;
  /** The count came from a read with nothing in flight, and nothing unknown happened since. */
  exact: boolean;
  loadedAt: number;
  /** Bumped by stale(); a load that started before a bump does not make the counter fresh. */
  generation: number;
  loadedGeneration: number;
  pending: number;
  /** Reservations settled as stored (or maybe stored) so far: what a refresh adds to its LIST. */
  settledStored: number;
  /** Reads started, and the newest applied: an older read that ends late does not overwrite a newer one. */
  reads: number;
  appliedRead: number;
  /** The exact read; reservations wait for it. */
  loading: Promise<void> | undefined;
  /** A refresh; nobody waits for it. */
  refreshing: boolean;
  drained: Array<() => void>;
}

export const DEFAULT_COUNT_TTL_MS = 2_000;

/** Told each count as it becomes known (read, or one more committed), and undefined when it must be read again (the quota view, gateway/quota-view). */
export type CountListener = (tenantId: string, resource: string, count: number | undefined) => void;

export function createObjectCounts(options: { ttlMs?: number; now?: () => number; onCount?: CountListener } = {}): ObjectCounts {
  const ttl = options.ttlMs ?? DEFAULT_COUNT_TTL_MS;
  const told = options.onCount ?? ((): void => undefined);
  const now = options.now ?? Date.now;
  /** tenant id → resource → counter. */
  const counters = new Map<string, Map<string, Counter>>();
  let sweptAt = now();

  // Idle counters past their TTL go, so tenants that stopped writing cost nothing here.
  const sweep = (): void => {
    if (now() - sweptAt < ttl) return;
    sweptAt = now();
    for (const [tenantId, byResource] of counters) {
      for (const [resource, c] of byResource) if (c.pending === 0 && !c.loading && !c.refreshing && now() - c.loadedAt >= ttl) byResource.delete(resource);
      if (byResource.size === 0) counters.delete(tenantId);
    }
  };
  const counterOf = (tenantId: string, resource: string): Counter => {
    let byResource = counters.get(tenantId);
    if (!byResource) counters.set(tenantId, (byResource = new Map()));
    let c = byResource.get(resource);
    if (!c) {
      c = { count: undefined, complete: false, exact: false, loadedAt: 0, generation: 0, loadedGeneration: -1, pending: 0, settledStored: 0, reads: 0, appliedRead: 0, loading: undefined, refreshing: false, drained: [] };
      byResource.set(resource, c);
    }
    return c;
  };
  const current = (c: Counter): boolean => c.loadedGeneration === c.generation && now() - c.loadedAt < ttl;
  /** Decides a refusal: exact, current, and complete or already past the limit. */
  const fresh = (c: Counter, limit: number): c is Counter & { count: number } =>
    c.count !== undefined && c.exact && current(c) && (c.complete || c.count >= limit);
  /** Admits below the limit: a complete count, exact or an upper bound, even when no longer current. */
  const bounded = (c: Counter): c is Counter & { count: number } => c.count !== undefined && c.complete;
  const settle = (c: Counter): void => {
    c.pending--;
    if (c.pending > 0) return;
    for (const wake of c.drained.splice(0)) wake();
  };

  return {
    async reserve({ tenantId, resource, limit, load }) {
      sweep();
      const c = counterOf(tenantId, resource);
      for (;;) {
        if (!c.loading && bounded(c) && c.count + c.pending < limit && (c.pending > 0 || fresh(c, limit))) {
          // Synchronous from the check to the increment: no other create can slip in between.
          // Not current and creates in flight: read again beside them rather than drain them.
          if (!current(c)) startRefresh(c, { tenantId, resource, load }, limit);
          c.pending++;
          return { reservation: reservationOf(c, tenantId, resource) };
        }
        if (!c.loading && fresh(c, limit)) return { refused: { used: c.count + c.pending } };
        if (c.pending > 0) {
          await new Promise<void>((wake) => c.drained.push(wake));
          continue;
        }
        c.loading ??= startLoad(c, { tenantId, resource, load }, limit);
        await c.loading;
      }
    },
    stale(tenantId, resource) {
      const byResource = counters.get(tenantId);
      if (!byResource) return;
      if (resource === undefined) for (const c of byResource.values()) c.generation++;
      else { const c = byResource.get(resource); if (c) c.generation++; }
      told(tenantId, resource ?? '*', undefined);
    },
  };

  /** The exact read: nothing in flight (reservations wait for `loading`). */
  function startLoad(c: Counter, request: Pick<ReserveRequest, 'tenantId' | 'resource' | 'load'>, limit: number): Promise<void> {
    const { load } = request;
    const generation = c.generation;
    const read = ++c.reads;
    return load(limit).then((loaded) => {
      // A partial count must be past the cap, or it decides nothing (and the next reservation would read again forever).
      if (!loaded.complete && loaded.count < limit) throw new Error(`a partial count (${loaded.count}) below the limit (${limit})`);
      if (apply(c, { read, generation, count: loaded.count, complete: loaded.complete, exact: true }) && loaded.complete) told(request.tenantId, request.resource, loaded.count);
    }).finally(() => {
      c.loading = undefined;
    });
  }

  /**
   * A read beside creates in flight. Any of them may be in its LIST or not: the count becomes the
   * listed objects plus those settled as stored while it ran (an upper bound), and the ones still
   * in flight add themselves when they commit. A failed refresh changes nothing (the next
   * reservation tries again; a refusal still takes the exact path).
   */
  function startRefresh(c: Counter, request: Pick<ReserveRequest, 'tenantId' | 'resource' | 'load'>, limit: number): void {
    if (c.refreshing) return;
    c.refreshing = true;
    const generation = c.generation;
    const read = ++c.reads;
    const storedBefore = c.settledStored;
    void request.load(limit).then((loaded) => {
      // A partial count past the cap is a lower bound: below the limit nobody admits against it, so no bound is lost.
      const count = loaded.count + (c.settledStored - storedBefore);
      if (!apply(c, { read, generation, count, complete: loaded.complete, exact: false })) return;
      // An upper bound in the quota view, as kube's own quota admission counts a create before it is stored.
      told(request.tenantId, request.resource, loaded.complete ? count : undefined);
    }, () => undefined).finally(() => {
      c.refreshing = false;
    });
  }

  /** Applies a read unless a newer one was applied already; false when it was not. */
  function apply(c: Counter, read: { read: number; generation: number; count: number; complete: boolean; exact: boolean }): boolean {
    if (read.read < c.appliedRead) return false;
    c.appliedRead = read.read;
    c.count = read.count;
    c.complete = read.complete;
    c.exact = read.exact;
    c.loadedAt = now();
    c.loadedGeneration = read.generation;
    return true;
  }

  function reservationOf(c: Counter, tenantId: string, resource: string): Reservation {
    let done = false;
    const once = (step: () => void) => (): void => {
      if (done) return;
      done = true;
      step();
      settle(c);
    };
    return {
      commit: once(() => {
        c.settledStored++;
        if (c.count !== undefined) c.count++;
        told(tenantId, resource, c.complete ? c.count : undefined);
      }),
      release: once(() => undefined),
      // Maybe stored: counted as stored (the count stays an upper bound, no longer exact) and read again.
      unknown: once(() => {
        c.settledStored++;
        if (c.count !== undefined) c.count++;
        c.exact = false;
        c.generation++;
        told(tenantId, resource, undefined);
      }),
    };
  }
}
