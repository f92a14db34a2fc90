// The impersonation filter: right after authentication, before anything decides
// on the identity. Honours Impersonate-* inside the caller's tenant, as kube does,
// when the caller's tenant RBAC allows `impersonate` on each attribute; refuses
// with kube's 403 otherwise. The headers themselves were stripped by the first
// filter and are never forwarded: the upstream never sees tenant users at all.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../core/api-error.ts';
import { impersonate, impersonationRequestOf, type PolicyIndex } from '../../core/rbac/index.ts';
import { setIdentity, type Identity } from '../identity.ts';
import { impersonationHeadersOf } from './strip-identity-headers.ts';

export interface ImpersonationDeps {
  policyFor(tenantId: string): PolicyIndex;
  /** Before a 403, proves the RBAC informers current (a grant made a moment ago); see handler.ts. */
  rbacCatchUp?: (timeoutMs: number) => Promise<boolean>;
}

const RBAC_CATCH_UP_MS = 1_000;

/** The identity after impersonation (the authenticated one when none was asked for), in the tenant's terms. */
export function actingIdentity(policy: PolicyIndex, authenticated: Identity, lines: ReadonlyArray<readonly [string, string]>): Identity {
  const wanted = impersonationRequestOf(lines);
  if (!wanted) return authenticated;
  const acting = impersonate(policy, { name: authenticated.user, groups: authenticated.groups }, wanted);
  const identity: Identity = {
    tenantId: authenticated.tenantId, user: acting.name, groups: [...acting.groups], via: authenticated.via, issuedAt: authenticated.issuedAt,
    impersonatedBy: { user: authenticated.user, groups: [...authenticated.groups] },
  };
  if (acting.uid) identity.uid = acting.uid;
  if (acting.extra) identity.extra = acting.extra;
  return identity;
}

/** Applies the request's impersonation (if any) and records the resulting identity on it. */
export async function withImpersonation(deps: ImpersonationDeps, req: IncomingMessage, authenticated: Identity): Promise<Identity> {
  const lines = impersonationHeadersOf(req);
  if (lines.length === 0) return authenticated;
  let identity: Identity;
  try {
    identity = actingIdentity(deps.policyFor(authenticated.tenantId), authenticated, lines);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 403 || !deps.rbacCatchUp || !(await deps.rbacCatchUp(RBAC_CATCH_UP_MS))) throw err;
    identity = actingIdentity(deps.policyFor(authenticated.tenantId), authenticated, lines);
  }
  setIdentity(req, identity);
  return identity;
}
