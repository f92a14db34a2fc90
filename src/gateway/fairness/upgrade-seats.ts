// Seats for upgraded connections (exec, attach, port-forward): a count per
// tenant, held for the session's whole life. Before, an upgrade gave its
// request seat back like any long-running request, so a tenant could hold any
// number of sessions, each a pair of sockets and a tunnel in the gateway.

export interface UpgradeSeat {
  /** Gives the seat back; harmless twice. */
  release(): void;
}

export interface UpgradeSeats {
  /** A seat if the tenant holds fewer than `limit`, else undefined. */
  take(tenantId: string, limit: number): UpgradeSeat | undefined;
  open(tenantId: string): number;
}

export function createUpgradeSeats(): UpgradeSeats {
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
