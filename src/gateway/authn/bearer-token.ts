// Bearer JWTs: Warren's own (ES256, keys in signing-keys.ts) and those of
// external OIDC issuers configured for portals. The unverified `iss` only picks
// which issuer's keys and rules apply; everything that grants access comes from
// jose's verification with that issuer's algorithms (never 'none': jose has no
// unsecured path in jwtVerify, and the lists below are checked at start-up too).
import { createLocalJWKSet, createRemoteJWKSet, customFetch, decodeJwt, jwtVerify } from 'jose';
import type { JSONWebKeySet, JWTPayload, JWTVerifyGetKey } from 'jose';
import { isTenantId } from '../../core/tenancy/tenant-id.ts';
import type { Identity } from '../identity.ts';
import { DEFAULT_AUDIENCE, DEFAULT_ISSUER, TENANT_CLAIM, WARREN_TOKEN_ALGORITHM, publicJwks } from '../../tenants/credentials/signing-keys.ts';
import type { SigningKeySet } from '../../tenants/credentials/signing-keys.ts';
import { httpsFetchWithCa } from './jwks-fetch.ts';
import { unauthorized } from './unauthorized.ts';
import { isTenantUid, TENANT_UID_CLAIM } from '../../tenants/credentials/tenant-binding.ts';
import { serviceAccountGroups, serviceAccountOf } from './service-account-claims.ts';

/** Clock skew tolerated on exp, nbf and iat, as agreed for the gateway. */
export const CLOCK_SKEW_SECONDS = 30;
const ASYMMETRIC = new Set(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519']);

export interface OidcIssuerConfig {
  issuer: string;
  audience: string;
  /** Inline JWKS; or */
  jwks?: JSONWebKeySet;
  /** a JWKS URL (https), fetched and cached by jose. */
  jwksUri?: string;
  /** CA for jwksUri, when the issuer is not signed by a public CA. */
  jwksCaPem?: string;
  tenantClaim?: string;
  usernameClaim?: string;
  groupsClaim?: string;
  /** Accepted signing algorithms; default RS256 and ES256. Asymmetric only. */
  algorithms?: string[];
}

export interface TokenAuthenticatorOptions {
  /** Warren's keys; a function so a rotation is picked up without a restart. */
  warrenKeys: SigningKeySet | (() => SigningKeySet);
  issuer?: string;
  audience?: string;
  oidcIssuers?: OidcIssuerConfig[];
}

export interface TokenAuthenticator {
  /** The identity a token carries; throws a 401 AuthenticationError for any token that does not verify. */
  authenticate(token: string, now?: Date): Promise<Identity>;
}

interface IssuerRule {
  issuer: string;
  audience: string;
  algorithms: string[];
  keys: () => JWTVerifyGetKey;
  tenantClaim: string;
  usernameClaim: string;
  groupsClaim: string;
  external: boolean;
}

function checkAlgorithms(issuer: string, algorithms: string[]): string[] {
  for (const alg of algorithms) {
    if (!ASYMMETRIC.has(alg)) throw new TypeError(`issuer ${issuer}: algorithm ${alg} is not allowed (asymmetric signatures only)`);
  }
  if (algorithms.length === 0) throw new TypeError(`issuer ${issuer}: no algorithms`);
  return algorithms;
}

function externalRule(config: OidcIssuerConfig): IssuerRule {
  if ((config.jwks === undefined) === (config.jwksUri === undefined)) throw new TypeError(`issuer ${config.issuer}: give exactly one of jwks and jwksUri`);
  let keys: JWTVerifyGetKey;
  if (config.jwks) {
    keys = createLocalJWKSet(config.jwks);
  } else {
    const url = new URL(config.jwksUri as string);
    if (url.protocol !== 'https:') throw new TypeError(`issuer ${config.issuer}: jwksUri must be https`);
    keys = createRemoteJWKSet(url, config.jwksCaPem ? { [customFetch]: httpsFetchWithCa(config.jwksCaPem) } : {});
  }
  return {
    issuer: config.issuer,
    audience: config.audience,
    algorithms: checkAlgorithms(config.issuer, config.algorithms ?? ['RS256', 'ES256']),
    keys: () => keys,
    tenantClaim: config.tenantClaim ?? TENANT_CLAIM,
    usernameClaim: config.usernameClaim ?? 'sub',
    groupsClaim: config.groupsClaim ?? 'groups',
    external: true,
  };
}

function warrenRule(options: TokenAuthenticatorOptions): IssuerRule {
  const current = typeof options.warrenKeys === 'function' ? options.warrenKeys : () => options.warrenKeys as SigningKeySet;
  // Rebuild the local key set only when the key set object changes (a rotation).
  let cachedFor: SigningKeySet | undefined;
  let cached: JWTVerifyGetKey | undefined;
  return {
    issuer: options.issuer ?? DEFAULT_ISSUER,
    audience: options.audience ?? DEFAULT_AUDIENCE,
    algorithms: [WARREN_TOKEN_ALGORITHM],
    keys: () => {
      const set = current();
      if (set !== cachedFor || !cached) {
        cached = createLocalJWKSet(publicJwks(set));
        cachedFor = set;
      }
      return cached;
    },
    tenantClaim: TENANT_CLAIM,
    usernameClaim: 'sub',
    groupsClaim: 'groups',
    external: false,
  };
}

function groupsFrom(value: unknown): string[] {
  if (value === undefined) return [];
  // As kube's OIDC authenticator: a single string is one group.
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((g): g is string => typeof g === 'string')) return value;
  throw unauthorized('groups claim is neither a string nor a list of strings');
}

function identityFrom(payload: JWTPayload, rule: IssuerRule, now: Date): Identity {
  const tenantId = payload[rule.tenantClaim];
  if (typeof tenantId !== 'string' || !isTenantId(tenantId)) throw unauthorized(`token has no valid ${rule.tenantClaim} claim`);
  const user = payload[rule.usernameClaim];
  if (typeof user !== 'string' || user === '') throw unauthorized(`token has no ${rule.usernameClaim} claim`);
  // Warren's choice, like kube's unprefixed OIDC users: an outside issuer cannot mint system: users.
  if (rule.external && user.startsWith('system:')) throw unauthorized(`external issuer ${rule.issuer} may not name a system: user`);
  const iat = payload.iat;
  if (typeof iat !== 'number') throw unauthorized('token has no iat: it could not be revoked');
  if (iat * 1000 > now.getTime() + CLOCK_SKEW_SECONDS * 1000) throw unauthorized('token is issued in the future');
  const identity: Identity = { tenantId, user, groups: groupsFrom(payload[rule.groupsClaim]), via: 'token', issuedAt: new Date(iat * 1000) };
  // Only Warren's own tokens name the Tenant object; an outside issuer cannot know its uid.
  if (!rule.external && payload[TENANT_UID_CLAIM] !== undefined) {
    const uid = payload[TENANT_UID_CLAIM];
    if (typeof uid !== 'string' || !isTenantUid(uid)) throw unauthorized(`token has a malformed ${TENANT_UID_CLAIM} claim`);
    identity.tenantUid = uid;
  }
  if (!rule.external) withServiceAccount(identity, payload);
  return identity;
}

/**
 * A ServiceAccount token (TokenRequest, ADR 0028) acts as that ServiceAccount
 * and nothing else: its groups are kube's ServiceAccount groups whatever the
 * token says, and it must be bound to a Tenant object. A Warren token whose
 * subject is a ServiceAccount user without the claim is refused, so no other
 * Warren-issued token can pass for one.
 */
function withServiceAccount(identity: Identity, payload: JWTPayload): void {
  const sa = serviceAccountOf(payload as Record<string, unknown>);
  if (sa === undefined) return;
  if (typeof sa === 'string') throw unauthorized(`token refused: ${sa}`);
  if (identity.tenantUid === undefined) throw unauthorized('a ServiceAccount token must name its Tenant object');
  identity.serviceAccount = sa;
  identity.groups = serviceAccountGroups(sa.namespace);
}

export function createTokenAuthenticator(options: TokenAuthenticatorOptions): TokenAuthenticator {
  const rules = new Map<string, IssuerRule>();
  for (const rule of [warrenRule(options), ...(options.oidcIssuers ?? []).map(externalRule)]) {
    if (rules.has(rule.issuer)) throw new TypeError(`issuer ${rule.issuer} is configured twice`);
    rules.set(rule.issuer, rule);
  }
  return {
    async authenticate(token, now = new Date()) {
      let issuer: unknown;
      try {
        issuer = decodeJwt(token).iss;
      } catch (err) {
        throw unauthorized(`bearer token is not a JWT: ${(err as Error).message}`);
      }
      const rule = typeof issuer === 'string' ? rules.get(issuer) : undefined;
      if (!rule) throw unauthorized(`token issuer ${JSON.stringify(issuer)} is not trusted`);
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, rule.keys(), {
          issuer: rule.issuer,
          audience: rule.audience,
          algorithms: rule.algorithms,
          clockTolerance: CLOCK_SKEW_SECONDS,
          requiredClaims: ['exp', 'iat'],
          currentDate: now,
        }));
      } catch (err) {
        throw unauthorized(`token from ${rule.issuer} did not verify: ${(err as Error).message}`);
      }
      return identityFrom(payload, rule, now);
    },
  };
}
