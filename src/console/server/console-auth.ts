// Who may use the console: platform admins only (the token `warren admin
// token` prints, or a platform-admin client certificate), checked on every
// request, assets included. A tenant credential is authenticated and then
// refused (403, kube's wording for a path it may not get), so a tenant learns
// nothing from the console; anyone else gets 401.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../core/api-error.ts';

/** A platform admin, and when the credential presented stops being valid (ms since the epoch). */
export interface AdminSession {
  name: string;
  expiresAt?: number;
}

/** The gateway's authentication, handed in by the gateway that mounts the console (the console imports no gateway code). */
export interface ConsoleAuthDeps {
  /** The platform admin, or throws Unauthorized (gateway/portal/platform-admin.ts). */
  platformAdmin(req: IncomingMessage): Promise<AdminSession>;
  /** The gateway's tenant authentication: resolves for any tenant credential. */
  authenticate(req: IncomingMessage): Promise<{ user: string }>;
}

export type Caller = { kind: 'admin'; session: AdminSession } | { kind: 'anonymous' };

function presentsCredential(req: IncomingMessage): boolean {
  const socket = req.socket as { getPeerCertificate?: () => { subject?: unknown } | undefined };
  const cert = socket.getPeerCertificate?.();
  return req.headers.authorization !== undefined || (cert !== undefined && cert.subject !== undefined);
}

/** The caller: a platform admin, or nobody (no credential at all); a tenant or a bad credential throws. */
export async function consoleCaller(req: IncomingMessage, deps: ConsoleAuthDeps, path: string): Promise<Caller> {
  try {
    return { kind: 'admin', session: await deps.platformAdmin(req) };
  } catch {
    const tenantUser = await deps.authenticate(req).catch(() => undefined);
    if (tenantUser) throw new ApiError('Forbidden', `forbidden: User "${tenantUser.user}" cannot get path "${path}"`);
    if (presentsCredential(req)) throw new ApiError('Unauthorized', 'Unauthorized');
    return { kind: 'anonymous' };
  }
}

/** The console API: platform admins only. */
export async function requireConsoleAdmin(req: IncomingMessage, deps: ConsoleAuthDeps, path: string): Promise<AdminSession> {
  const caller = await consoleCaller(req, deps, path);
  if (caller.kind !== 'admin') throw new ApiError('Unauthorized', 'Unauthorized');
  return caller.session;
}
