// Who may use the console: platform admins only (the token `warren admin
// token` prints, or a platform-admin client certificate), checked on every
// request, assets included. A tenant credential is authenticated and then
// refused (403, kube's wording for a path it may not get), so a tenant learns
// nothing from the console; anyone else gets 401.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../core/api-error.ts';
import type { Identity } from '../../gateway/identity.ts';

export interface ConsoleAuthDeps {
  /** The platform admin's name, or throws Unauthorized (gateway/portal/platform-admin.ts). */
  platformAdmin(req: IncomingMessage): Promise<string>;
  /** The gateway's tenant authentication: resolves for any tenant credential. */
  authenticate(req: IncomingMessage): Promise<Identity>;
}

export type Caller = { kind: 'admin'; name: string } | { kind: 'anonymous' };

function presentsCredential(req: IncomingMessage): boolean {
  const socket = req.socket as { getPeerCertificate?: () => { subject?: unknown } | undefined };
  const cert = socket.getPeerCertificate?.();
  return req.headers.authorization !== undefined || (cert !== undefined && cert.subject !== undefined);
}

/** The caller: a platform admin, or nobody (no credential at all); a tenant or a bad credential throws. */
export async function consoleCaller(req: IncomingMessage, deps: ConsoleAuthDeps, path: string): Promise<Caller> {
  try {
    return { kind: 'admin', name: await deps.platformAdmin(req) };
  } catch {
    const tenantUser = await deps.authenticate(req).catch(() => undefined);
    if (tenantUser) throw new ApiError('Forbidden', `forbidden: User "${tenantUser.user}" cannot get path "${path}"`);
    if (presentsCredential(req)) throw new ApiError('Unauthorized', 'Unauthorized');
    return { kind: 'anonymous' };
  }
}

/** The console API: platform admins only. */
export async function requireConsoleAdmin(req: IncomingMessage, deps: ConsoleAuthDeps, path: string): Promise<string> {
  const caller = await consoleCaller(req, deps, path);
  if (caller.kind !== 'admin') throw new ApiError('Unauthorized', 'Unauthorized');
  return caller.name;
}
