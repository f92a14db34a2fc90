// Boundary: authentication and the credential lifecycle. A deleted tenant's
// certificates must not come back to life when a new Tenant reuses its id
// (break 8: same id, same user name, the old kubeconfig gets 401); a client
// certificate from any other CA with a tenant's subject, and forged bearer
// tokens, get nowhere; client-sent identity headers are not a way in.
// (Tenants are created and deleted in process, as `warren tenant create/delete`
// do: each ./bin/warren run takes 40-60 s to exit on a loaded machine.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { KubeHttp } from '../helpers/kube-http.ts';
import { useAdversaryEnv } from './support/adversary-env.ts';

const REUSED_ID = 'zq7re5';
const UNAUTHORIZED = /Unauthorized|must be logged in/;

interface KubeconfigDoc { users: Array<{ user: Record<string, string> }> }

/** 401, or the TLS layer closing the connection before any HTTP (the gateway's answer to a foreign-CA certificate). */
async function shutOut(client: KubeHttp, path: string, headers?: Record<string, string>): Promise<string> {
  try {
    const res = await client.get(path, headers);
    return res.status === 401 ? 'ok' : `answered ${res.status}: ${res.text.slice(0, 200)}`;
  } catch (err) {
    return /ECONNRESET|socket hang up|EPIPE|certificate|alert/i.test(String(err)) ? 'ok' : `failed oddly: ${String(err)}`;
  }
}

describe('adversarial: credentials and authentication', { timeout: 240_000 }, () => {
  const env = useAdversaryEnv('credentials');

  it('break 8: a deleted tenant\'s kubeconfig gets 401, also once a new Tenant reuses its id and user name', async () => {
    const oldPath = await env.createTenant('initech', { id: REUSED_ID, users: [{ name: 'ned', admin: true }] });
    const before = await env.kubectlWith(oldPath, ['get', 'namespaces', '-o', 'name']);
    assert.equal(before.code, 0, `the first initech admin works: ${before.stderr}`);

    await env.deleteTenant('initech', 90_000);
    const gone = await env.kubectlWith(oldPath, ['get', 'namespaces']);
    assert.match(gone.stderr, UNAUTHORIZED, `deleted tenant's kubeconfig: ${gone.stdout}${gone.stderr}`);

    const newPath = await env.createTenant('umbrella', { id: REUSED_ID, users: [{ name: 'ned', admin: true }] });
    const fresh = await env.kubectlWith(newPath, ['get', 'namespaces', '-o', 'name']);
    assert.equal(fresh.code, 0, `umbrella's own admin works: ${fresh.stderr}`);

    const reused = await env.kubectlWith(oldPath, ['get', 'namespaces', '-o', 'name']);
    assert.notEqual(reused.code, 0, `initech's old certificate works against umbrella (same id ${REUSED_ID}): ${reused.stdout}`);
    assert.match(reused.stderr, UNAUTHORIZED);
    const raw = await env.http('initech-old', oldPath).get('/api/v1/namespaces');
    assert.equal(raw.status, 401, `raw HTTPS with initech's old certificate: ${raw.status}`);
    const write = await env.http('initech-old', oldPath).post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'zombie' } });
    assert.equal(write.status, 401, 'no write either');
    assert.equal((await env.host().request('GET', `/api/v1/namespaces/${REUSED_ID}-zombie`)).status, 404, 'and nothing stored');
  });

  it('a certificate from another CA with acme\'s subject (CN=alice, OU=<acme id>, O=system:masters) is shut out', async () => {
    const acmeId = env.idOf('acme');
    const key = join(env.root, 'forged.key');
    const crt = join(env.root, 'forged.crt');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', crt,
      '-days', '1', '-subj', `/CN=alice/OU=${acmeId}/O=system:masters`], { stdio: 'ignore' });
    const doc = parse(readFileSync(env.kubeconfigPath('acme'), 'utf8')) as KubeconfigDoc;
    const user = doc.users[0]!.user;
    user['client-certificate-data'] = readFileSync(crt).toString('base64');
    user['client-key-data'] = readFileSync(key).toString('base64');
    const path = join(env.root, 'forged.kubeconfig');
    writeFileSync(path, stringify(doc), { mode: 0o600 });
    assert.equal(await shutOut(env.http('forged', path), '/api/v1/namespaces'), 'ok');
    const r = await env.kubectlWith(path, ['get', 'namespaces']);
    assert.notEqual(r.code, 0, `kubectl with the forged certificate: ${r.stdout}`);
  });

  it('forged bearer tokens and client-sent identity headers get 401 without a valid credential', async () => {
    const acmeId = env.idOf('acme');
    const b64 = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
    const claims = { iss: 'warren', sub: 'alice', aud: 'warren', tenant: acmeId, groups: ['system:masters'], exp: Math.floor(Date.now() / 1000) + 3600 };
    const tokens = [
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}.${Buffer.from('not-a-signature').toString('base64url')}`,
    ];
    // A kubeconfig with the gateway's CA but no client certificate: only what the request carries identifies it.
    const doc = parse(readFileSync(env.kubeconfigPath('acme'), 'utf8')) as KubeconfigDoc;
    delete doc.users[0]!.user['client-certificate-data'];
    delete doc.users[0]!.user['client-key-data'];
    const anonymous = env.http('anonymous', env.file('anonymous.kubeconfig', stringify(doc)));
    for (const token of tokens) assert.equal(await shutOut(anonymous, '/api/v1/namespaces', { Authorization: `Bearer ${token}` }), 'ok', `token ${token.slice(0, 40)}`);
    for (const headers of [{ 'X-Remote-User': 'alice', 'X-Remote-Group': 'system:masters' }, { 'Impersonate-User': `warren:${acmeId}:alice` }] as Array<Record<string, string>>) {
      assert.equal(await shutOut(anonymous, '/api/v1/namespaces', headers), 'ok', JSON.stringify(headers));
    }
  });
});
