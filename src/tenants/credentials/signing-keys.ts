// Warren's JWT signing keys: ES256, a current key that signs and previous keys
// that still verify, so a rotation does not log out every holder of a token
// minted a moment before. Each key carries a kid (its RFC 7638 thumbprint), and
// the public halves are served at GET /openid/v1/jwks.
//
// Storage sits behind a two-function KeyStore, so the same code keeps the set in
// a file (`warren up`) or, later, in an upstream Secret (replicated gateways).
import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK } from 'jose';
import type { JWK } from 'jose';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { assertTenantId } from '../../core/tenancy/tenant-id.ts';
import { TENANT_UID_CLAIM } from './tenant-binding.ts';

export const WARREN_TOKEN_ALGORITHM = 'ES256';
export const DEFAULT_ISSUER = 'https://warren.local';
export const DEFAULT_AUDIENCE = 'warren';
export const TENANT_CLAIM = 'warren.dev/tenant';

export interface SigningKey {
  kid: string;
  /** Private JWK (has `d`); never served. */
  privateJwk: JWK;
  createdAt: string;
}

export interface SigningKeySet {
  current: SigningKey;
  /** Older keys, newest first: they verify, they never sign. */
  previous: SigningKey[];
}

export interface KeyStore {
  read(): Promise<string | undefined>;
  write(text: string): Promise<void>;
}

export async function createSigningKey(now = new Date()): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair(WARREN_TOKEN_ALGORITHM, { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { kid, privateJwk: { ...jwk, kid, alg: WARREN_TOKEN_ALGORITHM, use: 'sig' }, createdAt: now.toISOString() };
}

export async function createSigningKeySet(): Promise<SigningKeySet> {
  return { current: await createSigningKey(), previous: [] };
}

/** A new current key; the old one moves to `previous`, keeping at most `keepPrevious` of them. */
export async function rotateSigningKeys(set: SigningKeySet, keepPrevious = 1): Promise<SigningKeySet> {
  return { current: await createSigningKey(), previous: [set.current, ...set.previous].slice(0, keepPrevious) };
}

function parseKeySet(text: string): SigningKeySet {
  const parsed = JSON.parse(text) as Partial<SigningKeySet>;
  const valid = (k: unknown): k is SigningKey =>
    typeof k === 'object' && k !== null && typeof (k as SigningKey).kid === 'string' && typeof (k as SigningKey).privateJwk?.d === 'string';
  if (!valid(parsed.current) || !Array.isArray(parsed.previous) || !parsed.previous.every(valid)) {
    throw new Error('signing key file is malformed: refusing to replace it (delete it to start over)');
  }
  return { current: parsed.current, previous: parsed.previous };
}

/** Reads the set, or creates and stores one. A malformed store throws rather than silently minting a new key. */
export async function loadOrCreateSigningKeys(store: KeyStore): Promise<SigningKeySet> {
  const text = await store.read();
  if (text !== undefined) return parseKeySet(text);
  const set = await createSigningKeySet();
  await store.write(JSON.stringify(set, null, 2));
  return set;
}

/** A KeyStore in one file, written owner-only and atomically (write then rename). */
export function fileKeyStore(path: string): KeyStore {
  return {
    async read() {
      try {
        return await readFile(path, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async write(text) {
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, text, { mode: 0o600 });
      await rename(tmp, path);
    },
  };
}

/** The public halves of every key that verifies: the body of GET /openid/v1/jwks. */
export function publicJwks(set: SigningKeySet): { keys: JWK[] } {
  return {
    keys: [set.current, ...set.previous].map(({ privateJwk }) => {
      const { kty, crv, x, y, kid, alg, use } = privateJwk;
      return { kty, crv, x, y, kid, alg, use };
    }),
  };
}

export interface MintTokenOptions {
  keys: SigningKeySet;
  issuer?: string;
  audience?: string;
  tenantId: string;
  user: string;
  groups: string[];
  ttlSeconds: number;
  /** The Tenant object's metadata.uid (claim warren.dev/tenant-uid): refused for any other Tenant with the id. */
  tenantUid?: string;
  /** Issue instant (iat); defaults to now. */
  now?: Date;
}

export async function mintTenantToken(options: MintTokenOptions): Promise<string> {
  assertTenantId(options.tenantId);
  const key = await importJWK(options.keys.current.privateJwk, WARREN_TOKEN_ALGORITHM);
  const iat = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const claims: Record<string, unknown> = { [TENANT_CLAIM]: options.tenantId, groups: options.groups };
  if (options.tenantUid !== undefined) claims[TENANT_UID_CLAIM] = options.tenantUid;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: WARREN_TOKEN_ALGORITHM, kid: options.keys.current.kid, typ: 'JWT' })
    .setIssuer(options.issuer ?? DEFAULT_ISSUER)
    .setSubject(options.user)
    .setAudience(options.audience ?? DEFAULT_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + options.ttlSeconds)
    .sign(key);
}
