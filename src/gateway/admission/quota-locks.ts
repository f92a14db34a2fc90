// One quota'd write at a time per tenant, in this gateway: the check and the
// upstream write it allows happen under the tenant's lock, so two concurrent
// creates cannot both be judged against the same "used" and together overshoot
// (docs/adr/0010-tenant-resource-quota.md). Other tenants never wait.
export interface TenantLocks {
  run<T>(tenantId: string, work: () => Promise<T>): Promise<T>;
  /** Waits for the tenant's lock and resolves with its release (call it exactly once). */
  acquire(tenantId: string): Promise<() => void>;
}

export function createTenantLocks(): TenantLocks {
  const tails = new Map<string, Promise<unknown>>();
  const locks: TenantLocks = {
    acquire(tenantId) {
      return new Promise((granted) => {
        void locks.run(tenantId, () => new Promise<void>((release) => granted(() => release())));
      });
    },
    run(tenantId, work) {
      const previous = tails.get(tenantId) ?? Promise.resolve();
      const result = previous.then(work, work);
      const tail = result.catch(() => undefined);
      tails.set(tenantId, tail);
      // Forget an idle tenant, so the map holds only tenants with writes in flight.
      void tail.then(() => { if (tails.get(tenantId) === tail) tails.delete(tenantId); });
      return result;
    },
  };
  return locks;
}
