// Audit events as JSON lines: one file for the platform (auditLogPath) and,
// optionally, one per tenant (auditTenantDir/<tenant id>.log) so a tenant can
// be handed its own stream. Files are appended to, never truncated. Per-tenant
// streams are opened on first use and the least recently used are closed
// beyond a cap, so ten thousand tenants do not mean ten thousand descriptors.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { isTenantId } from '../../core/tenancy/tenant-id.ts';
import type { AuditEvent } from './audit-event.ts';

export interface AuditLogOptions {
  auditLogPath?: string;
  auditTenantDir?: string;
  /** Per-tenant files kept open at once (default 64). */
  maxOpenTenantFiles?: number;
}

export interface AuditLog {
  write(event: AuditEvent, tenantId: string | undefined): void;
  close(): Promise<void>;
}


function open(path: string): WriteStream {
  mkdirSync(dirname(path), { recursive: true });
  const stream = createWriteStream(path, { flags: 'a', mode: 0o600 });
  // A full disk must not take the gateway down: the write is lost, the error is swallowed here.
  stream.on('error', () => undefined);
  return stream;
}

function endStream(stream: WriteStream): Promise<void> {
  return new Promise((resolve) => stream.end(resolve));
}

export function createAuditLog(options: AuditLogOptions): AuditLog | undefined {
  if (!options.auditLogPath && !options.auditTenantDir) return undefined;
  const main = options.auditLogPath ? open(options.auditLogPath) : undefined;
  const perTenant = new Map<string, WriteStream>();
  const maxOpen = options.maxOpenTenantFiles ?? 64;
  const tenantStream = (id: string, dir: string): WriteStream => {
    let stream = perTenant.get(id);
    if (stream) {
      perTenant.delete(id); // re-inserted below: Map order is recency
    } else {
      stream = open(join(dir, `${id}.log`));
      const oldest = perTenant.size >= maxOpen ? perTenant.keys().next().value : undefined;
      if (oldest !== undefined) {
        void endStream(perTenant.get(oldest) as WriteStream);
        perTenant.delete(oldest);
      }
    }
    perTenant.set(id, stream);
    return stream;
  };
  return {
    write(event, tenantId) {
      const line = `${JSON.stringify(event)}\n`;
      main?.write(line);
      if (options.auditTenantDir && tenantId && isTenantId(tenantId)) tenantStream(tenantId, options.auditTenantDir).write(line);
    },
    async close() {
      await Promise.all([...(main ? [endStream(main)] : []), ...[...perTenant.values()].map(endStream)]);
      perTenant.clear();
    },
  };
}
