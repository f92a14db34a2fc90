// TokenRequest (`POST .../serviceaccounts/<name>/token`, `kubectl create token`),
// answered by the gateway with a token signed by Warren's keys (ADR 0028). The
// host's own TokenRequest would mint a HOST credential; this one is valid only
// at the gateway, only for the caller's tenant (its id and Tenant object uid),
// and only while the ServiceAccount exists with the uid it was issued for.
// Tenant RBAC applies to it as to any user: RoleBindings to the ServiceAccount.
//
// Validation follows kube-apiserver (pkg/registry/core/serviceaccount/storage/token.go,
// apis/authentication/validation): body name/namespace must match the URL,
// expirationSeconds defaults to 3600, must be at least 600 and is capped at
// MAX_EXPIRATION_SECONDS (kube caps at --service-account-max-token-expiration).
// boundObjectRef is refused: Warren cannot yet invalidate a token with its object.
import { randomUUID } from 'node:crypto';
import { SignJWT, importJWK } from 'jose';
import { ApiError, invalid, methodNotAllowed } from '../../core/api-error.ts';
import type { StatusCause } from '../../core/types.ts';
import type { KubeObject } from '../../core/types.ts';
import { readRequestObject } from '../forward/request-body.ts';
import { TENANT_CLAIM, WARREN_TOKEN_ALGORITHM, type SigningKeySet } from '../../tenants/credentials/signing-keys.ts';
import { TENANT_UID_CLAIM } from '../../tenants/credentials/tenant-binding.ts';
import { KUBERNETES_CLAIM, serviceAccountClaim, serviceAccountUser, type ServiceAccountRef } from './service-account-claims.ts';
import type { ServiceAccountLookup } from './service-account-lookup.ts';
import type { IncomingMessage } from 'node:http';

export const DEFAULT_EXPIRATION_SECONDS = 3600;
export const MIN_EXPIRATION_SECONDS = 600;
/** Warren's cap (kube's flag has no default cap): a day, so a leaked token dies soon. */
export const MAX_EXPIRATION_SECONDS = 24 * 3600;

export interface TokenRequestOptions {
  keys: () => SigningKeySet;
  issuer: string;
  /** The gateway's audience: the default, and the only one the gateway accepts. */
  audience: string;
  serviceAccounts: Pick<ServiceAccountLookup, 'uidOf'>;
  now?: () => Date;
}

export interface TokenRequestTarget {
  tenantId: string;
  /** The Tenant object's uid: every token is bound to it (ADR 0025); without it none is issued. */
  tenantUid: string | undefined;
  namespace: string;
  name: string;
}

interface Spec { audiences: string[]; expirationSeconds: number }

function readSpec(body: KubeObject, target: TokenRequestTarget): Spec {
  const causes: StatusCause[] = [];
  const cause = (field: string, message: string): void => { causes.push({ type: 'FieldValueInvalid', field, message }); };
  if (body.metadata?.name && body.metadata.name !== target.name) cause('metadata.name', `Invalid value: ${JSON.stringify(body.metadata.name)}: must match the service account name if specified`);
  if (body.metadata?.namespace && body.metadata.namespace !== target.namespace) cause('metadata.namespace', `Invalid value: ${JSON.stringify(body.metadata.namespace)}: must match the service account namespace if specified`);
  const spec = (typeof body.spec === 'object' && body.spec !== null ? body.spec : {}) as Record<string, unknown>;
  let audiences: string[] = [];
  if (spec.audiences !== undefined && spec.audiences !== null) {
    if (!Array.isArray(spec.audiences) || !spec.audiences.every((a) => typeof a === 'string' && a !== '')) cause('spec.audiences', 'Invalid value: audiences must be non-empty strings');
    else audiences = spec.audiences as string[];
  }
  let expirationSeconds = DEFAULT_EXPIRATION_SECONDS;
  if (spec.expirationSeconds !== undefined && spec.expirationSeconds !== null) {
    const value = spec.expirationSeconds;
    if (typeof value !== 'number' || !Number.isInteger(value)) cause('spec.expirationSeconds', 'Invalid value: must be an integer');
    else if (value < MIN_EXPIRATION_SECONDS) cause('spec.expirationSeconds', `Invalid value: ${value}: may not specify a duration less than 10 minutes`);
    else expirationSeconds = Math.min(value, MAX_EXPIRATION_SECONDS);
  }
  if (spec.boundObjectRef !== undefined && spec.boundObjectRef !== null) {
    causes.push({ type: 'FieldValueForbidden', field: 'spec.boundObjectRef', message: 'Forbidden: tokens bound to an object are not available here; request an unbound token' });
  }
  if (causes.length > 0) throw invalid({ group: 'authentication.k8s.io', kind: 'TokenRequest', name: target.name }, causes);
  return { audiences, expirationSeconds };
}

export async function signServiceAccountToken(options: { keys: SigningKeySet; issuer: string; audiences: string[]; tenantId: string; tenantUid: string; sa: ServiceAccountRef; iat: number; exp: number }): Promise<string> {
  const key = await importJWK(options.keys.current.privateJwk, WARREN_TOKEN_ALGORITHM);
  return new SignJWT({ [TENANT_CLAIM]: options.tenantId, [TENANT_UID_CLAIM]: options.tenantUid, [KUBERNETES_CLAIM]: serviceAccountClaim(options.sa) })
    .setProtectedHeader({ alg: WARREN_TOKEN_ALGORITHM, kid: options.keys.current.kid, typ: 'JWT' })
    .setIssuer(options.issuer)
    .setSubject(serviceAccountUser(options.sa))
    .setAudience(options.audiences)
    .setIssuedAt(options.iat)
    .setNotBefore(options.iat)
    .setExpirationTime(options.exp)
    .setJti(randomUUID())
    .sign(key);
}

/** The TokenRequest answer (201), or a Status error in tenant terms. */
export async function answerTokenRequest(req: IncomingMessage, target: TokenRequestTarget, options: TokenRequestOptions): Promise<KubeObject> {
  if ((req.method ?? 'GET').toUpperCase() !== 'POST') throw methodNotAllowed();
  const body = await readRequestObject(req, { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' });
  const spec = readSpec(body, target);
  const uid = await options.serviceAccounts.uidOf(target.tenantId, target.namespace, target.name);
  if (uid === undefined) throw new ApiError('NotFound', `serviceaccounts "${target.name}" not found`, { kind: 'serviceaccounts', name: target.name });
  // A credential without the Tenant object's uid could outlive the Tenant (ADR 0025): none is issued.
  if (target.tenantUid === undefined) throw new ApiError('ServiceUnavailable', 'the tenant is not ready to issue tokens yet, please try again', { retryAfterSeconds: 1 });
  const now = (options.now ?? (() => new Date()))();
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + spec.expirationSeconds;
  const audiences = spec.audiences.length > 0 ? spec.audiences : [options.audience];
  const token = await signServiceAccountToken({
    keys: options.keys(), issuer: options.issuer, audiences, tenantId: target.tenantId, tenantUid: target.tenantUid,
    sa: { namespace: target.namespace, name: target.name, uid }, iat, exp,
  });
  return {
    kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1',
    metadata: { name: target.name, namespace: target.namespace, creationTimestamp: now.toISOString().replace(/\.\d{3}Z$/, 'Z') },
    spec: { audiences, expirationSeconds: spec.expirationSeconds, boundObjectRef: null },
    status: { token, expirationTimestamp: new Date(exp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') },
  };
}
