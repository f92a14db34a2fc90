// A count per tenant of things it holds for a long time, each against its own
// limit: upgraded sessions (exec, attach, port-forward), long-running requests
// (watch, log follow, proxy) and open connections. A slot is held until
// released; beyond the limit the tenant gets none (the caller answers 429).
// Before session 10 an upgrade gave its request seat back like any
// long-running request, and before session 14 a watch did too, so a tenant
// could hold any number of them, each a socket (or two) and buffers in the
// one process every tenant shares.

export interface Slot {
  /** Gives the slot back; harmless twice. */
  release(): void;
}

export interface TenantSlots {
  /** A slot if the tenant holds fewer than `limit`, else undefined. */
  take(tenantId: string, limit: number): Slot | undefined;
  open(tenantId: string): number;
}

export function createTenantSlots(): TenantSlots {
  const held = new Map<string, number>();
  return {
    take(tenantId, limit) {
      const open = held.get(tenantId) ?? 0;
      if (open >= limit) return undefined;
      held.set(tenantId, open + 1);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          const left = (held.get(tenantId) ?? 1) - 1;
          if (left > 0) held.set(tenantId, left);
          else held.delete(tenantId);
        },
      };
    },
    open: (tenantId) => held.get(tenantId) ?? 0,
  };
}
