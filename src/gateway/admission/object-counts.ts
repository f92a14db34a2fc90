// How many objects of one resource a tenant has, kept per gateway as a counter
// that creates reserve against and then commit or release, so the tenant's
// count quota (Tenant.spec.quota.namespaces / objectsPerResource) costs one
// LIST per resource every few seconds instead of one per create, and stays
// exact under concurrency: a reservation is a synchronous check-and-increment
// of count + pending against the limit, so 64 parallel creates at the limit
// cannot all see the same "used" (docs/adr/0031-object-count-quota-counters.md).
//
// The count is read from upstream (a LIST) when it is missing, older than the
// TTL, or marked stale (a delete, an outcome nobody knows). A reload waits until
// no reservation of that counter is in flight, and new reservations wait for the
// reload: a LIST taken while creates are in flight may or may not contain them,
// and either guess could over-admit or double count.
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
  count: number | undefined;
  complete: boolean;
  loadedAt: number;
  /** Bumped by stale(); a load that started before a bump does not make the counter fresh. */
  generation: number;
  loadedGeneration: number;
  pending: number;
  loading: Promise<void> | undefined;
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
      for (const [resource, c] of byResource) if (c.pending === 0 && !c.loading && now() - c.loadedAt >= ttl) byResource.delete(resource);
      if (byResource.size === 0) counters.delete(tenantId);
    }
  };
  const counterOf = (tenantId: string, resource: string): Counter => {
    let byResource = counters.get(tenantId);
    if (!byResource) counters.set(tenantId, (byResource = new Map()));
    let c = byResource.get(resource);
    if (!c) {
      c = { count: undefined, complete: false, loadedAt: 0, generation: 0, loadedGeneration: -1, pending: 0, loading: undefined, drained: [] };
      byResource.set(resource, c);
    }
    return c;
  };
  const fresh = (c: Counter, limit: number): c is Counter & { count: number } =>
    c.count !== undefined && c.loadedGeneration === c.generation && now() - c.loadedAt < ttl && (c.complete || c.count >= limit);
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
        if (fresh(c, limit)) {
          // Synchronous from the check to the increment: no other create can slip in between.
          const used = c.count + c.pending;
          if (used >= limit) return { refused: { used } };
          c.pending++;
          return { reservation: reservationOf(c, tenantId, resource) };
        }
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

  function startLoad(c: Counter, request: Pick<ReserveRequest, 'tenantId' | 'resource' | 'load'>, limit: number): Promise<void> {
    const { load } = request;
    const generation = c.generation;
    return load(limit).then((loaded) => {
      // A partial count must be past the cap, or it decides nothing (and the next reservation would read again forever).
      if (!loaded.complete && loaded.count < limit) throw new Error(`a partial count (${loaded.count}) below the limit (${limit})`);
      c.count = loaded.count;
      c.complete = loaded.complete;
      c.loadedAt = now();
      c.loadedGeneration = generation;
      if (loaded.complete) told(request.tenantId, request.resource, loaded.count);
    }).finally(() => {
      c.loading = undefined;
    });
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
      commit: once(() => { if (c.count !== undefined) c.count++; told(tenantId, resource, c.complete ? c.count : undefined); }),
      release: once(() => undefined),
      unknown: once(() => { c.generation++; told(tenantId, resource, undefined); }),
    };
  }
}
