// The bytes a tenant's watches have queued for clients that do not read, all
// together (ADR 0045). Each watch's own backlog is capped by its writer (1 MiB
// fed by the cache, 4 MiB proxied), but a tenant holding its 1,000 watches and
// reading none could pin a thousand of those. The handler registers each
// long-running response of a tenant here; the watch writers ask, after a
// write, whether that response is over its tenant's budget, and cut it as
// they cut a slow client. Only a response already behind (more than
// BACKLOG_FLOOR_BYTES queued) is ever cut for its tenant's total: a watch
// that keeps up is never blamed for its neighbours.
import type { ServerResponse } from 'node:http';

/** Bytes all of one tenant's watches may have queued for their clients (beyond, the ones behind are cut). */
export const TENANT_BACKLOG_BYTES = 64 * 1024 * 1024;
/** A watch with at most this queued is never cut for its tenant's total. */
export const BACKLOG_FLOOR_BYTES = 64 * 1024;

interface Queued {
  readonly writableLength: number;
}

const checks = new WeakMap<object, () => boolean>();

/** Is `res` behind while its tenant's watches together hold more than their budget? (false for a response not registered) */
export function overTenantBacklog(res: ServerResponse | Queued): boolean {
  return checks.get(res)?.() ?? false;
}

export interface TenantBacklogs {
  /** Registers a long-running response of `tenantId`; the returned function forgets it. */
  track(tenantId: string, res: ServerResponse | Queued): () => void;
}

export function createTenantBacklogs(budgetBytes = TENANT_BACKLOG_BYTES): TenantBacklogs {
  const byTenant = new Map<string, Set<Queued>>();
  return {
    track(tenantId, res) {
      let mine = byTenant.get(tenantId);
      if (!mine) {
        mine = new Set();
        byTenant.set(tenantId, mine);
      }
      const set = mine;
      set.add(res);
      checks.set(res, () => {
        if (res.writableLength <= BACKLOG_FLOOR_BYTES) return false;
        let total = 0;
        for (const other of set) total += other.writableLength;
        return total > budgetBytes;
      });
      return () => {
        checks.delete(res);
        set.delete(res);
        if (set.size === 0 && byTenant.get(tenantId) === set) byTenant.delete(tenantId);
      };
    },
  };
}
