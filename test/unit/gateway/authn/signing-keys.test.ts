import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import {
  createSigningKeySet, fileKeyStore, loadOrCreateSigningKeys, mintTenantToken, publicJwks, rotateSigningKeys,
} from '../../../../src/tenants/credentials/signing-keys.ts';
import type { KeyStore } from '../../../../src/tenants/credentials/signing-keys.ts';

function memoryStore(initial?: string): KeyStore & { writes: number } {
  let text = initial;
  const store = {
    writes: 0,
    read: () => Promise.resolve(text),
    write: (t: string) => {
      store.writes++;
      text = t;
      return Promise.resolve();
    },
  };
  return store;
}

describe('signing keys', () => {
  it('load-or-create creates once, then loads the same keys', async () => {
    const store = memoryStore();
    const first = await loadOrCreateSigningKeys(store);
    const second = await loadOrCreateSigningKeys(store);
    assert.equal(store.writes, 1);
    assert.deepEqual(second, first);
  });

  it('a malformed store is refused, never silently replaced', async () => {
    const store = memoryStore('{"current": {"kid": "x"}}');
    await assert.rejects(loadOrCreateSigningKeys(store), /malformed/);
    assert.equal(store.writes, 0);
  });

  it('the file store round-trips and is owner-only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'warren-keys-'));
    try {
      const path = join(dir, 'jwt-keys.json');
      const created = await loadOrCreateSigningKeys(fileKeyStore(path));
      assert.deepEqual(await loadOrCreateSigningKeys(fileKeyStore(path)), created);
      assert.equal((await stat(path)).mode & 0o777, 0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('publicJwks lists current then previous keys, each with its kid and without private parts', async () => {
    const first = await createSigningKeySet();
    const rotated = await rotateSigningKeys(first, 1);
    const { keys } = publicJwks(rotated);
    assert.deepEqual(keys.map((k) => k.kid), [rotated.current.kid, first.current.kid]);
    for (const key of keys) {
      assert.equal(key.d, undefined);
      assert.deepEqual(Object.keys(key).sort(), ['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    }
  });

  it('rotation keeps at most keepPrevious old keys, newest first', async () => {
    let set = await createSigningKeySet();
    const kids = [set.current.kid];
    for (let i = 0; i < 3; i++) {
      set = await rotateSigningKeys(set, 2);
      kids.unshift(set.current.kid);
    }
    assert.deepEqual([set.current.kid, ...set.previous.map((k) => k.kid)], kids.slice(0, 3));
  });

  it('mintTenantToken writes the agreed claims, signed by the current kid', async () => {
    const keys = await createSigningKeySet();
    const now = new Date('2026-03-01T12:00:00Z');
    const token = await mintTenantToken({ keys, tenantId: 'acme01', user: 'alice', groups: ['devs'], ttlSeconds: 600, now });
    assert.deepEqual(decodeProtectedHeader(token), { alg: 'ES256', kid: keys.current.kid, typ: 'JWT' });
    assert.deepEqual(decodeJwt(token), {
      iss: 'https://warren.local', sub: 'alice', aud: 'warren', 'warren.dev/tenant': 'acme01', groups: ['devs'],
      iat: now.getTime() / 1000, exp: now.getTime() / 1000 + 600,
    });
  });

  it('mintTenantToken refuses a malformed tenant id', async () => {
    const keys = await createSigningKeySet();
    await assert.rejects(mintTenantToken({ keys, tenantId: 'ACME', user: 'alice', groups: [], ttlSeconds: 60 }), /invalid tenant id/);
  });
});
