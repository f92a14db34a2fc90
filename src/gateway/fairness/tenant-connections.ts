// Open connections per tenant (ADR 0045). A TLS connection belongs to no
// tenant until a request on it is authenticated: a bearer token arrives with
// the first request, and even a client certificate only names a tenant the
// gateway must still find and check. So a connection is counted for a tenant
// at its first authenticated request, and for as long as it stays open;
// beyond the tenant's bound that request gets 429 and the connection is
// closed after it. A connection used by two tenants (two tokens on one
// keep-alive connection) counts for each.
// What comes before the first request (the handshake, an idle socket that
// never sends one) is bounded before any tenant is known: the handshake gate
// (ADR 0017) and the HTTP server's headers timeout.
import type { Socket } from 'node:net';
import { createTenantSlots, type Slot } from './tenant-slots.ts';

export interface TenantConnections {
  /**
   * Counts `socket` for `tenantId` (once per connection): true when it is now counted or was already,
   * false when the tenant already holds `limit` connections (nothing counted).
   */
  admit(socket: Socket, tenantId: string, limit: number): boolean;
  open(tenantId: string): number;
}

export function createTenantConnections(): TenantConnections {
  const slots = createTenantSlots();
  const counted = new WeakMap<Socket, Map<string, Slot>>();
  return {
    admit(socket, tenantId, limit) {
      const mine = counted.get(socket);
      if (mine?.has(tenantId)) return true;
      // A connection already closed has no 'close' left to give the count back: it is not counted.
      if (socket.destroyed) return true;
      const slot = slots.take(tenantId, limit);
      if (!slot) return false;
      if (mine) mine.set(tenantId, slot);
      else {
        const held = new Map([[tenantId, slot]]);
        counted.set(socket, held);
        socket.once('close', () => {
          for (const s of held.values()) s.release();
        });
      }
      return true;
    },
    open: (tenantId) => slots.open(tenantId),
  };
}
