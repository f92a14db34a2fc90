// createUpstream loads client-node only for exec and auth-provider users. Such an
// upstream must never hand out request options without its credential: before
// loadKubeClient() its requestOptions() throw; requests load client-node themselves
// and carry the token; after loadKubeClient() the options carry it at once (the
// gateway's proxy reads them once, at start). In-cluster Warren is such a user.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { parse, stringify } from 'yaml';
import { createCa, issueCertificate } from '../../../src/pki/certificates.ts';
import { createUpstream, kubeconfigNeedsClient, loadKubeClient } from '../../../src/kube/upstream-client.ts';

describe('createUpstream with an auth-provider user (token file)', () => {
  let server: https.Server;
  let dir: string;
  let kubeconfig: string;
  const seen: string[] = [];

  before(async () => {
    const ca = await createCa('server-ca');
    const serving = await issueCertificate({ ca, commonName: 'up', ips: ['127.0.0.1'], lifetimeMs: 3_600_000 });
    server = https.createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
      seen.push(String(req.headers.authorization));
      res.setHeader('Content-Type', 'application/json');
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    dir = mkdtempSync(join(tmpdir(), 'warren-dynamic-auth-'));
    writeFileSync(join(dir, 'ca.crt'), ca.certPem);
    writeFileSync(join(dir, 'token'), 'file-token');
    kubeconfig = stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'in-cluster',
      clusters: [{ name: 'in-cluster', cluster: { server: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, 'certificate-authority': join(dir, 'ca.crt') } }],
      users: [{ name: 'in-cluster', user: { 'auth-provider': { name: 'tokenFile', config: { tokenFile: join(dir, 'token') } } } }],
      contexts: [{ name: 'in-cluster', context: { cluster: 'in-cluster', user: 'in-cluster' } }],
    });
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('needs client-node; refuses requestOptions() before it is loaded, and a request still carries the token', async () => {
    assert.equal(kubeconfigNeedsClient({ yaml: kubeconfig }), true);
    const upstream = createUpstream({ yaml: kubeconfig }, { timeoutMs: 10_000 });
    try {
      assert.throws(() => upstream.requestOptions(), /needs client-node/);
      const res = await upstream.request('GET', '/api');
      assert.equal(res.status, 200);
      assert.equal(seen.at(-1), 'Bearer file-token');
      assert.equal((upstream.requestOptions().headers as Record<string, string>).Authorization, 'Bearer file-token');
    } finally {
      upstream.close();
    }
  });

  it('after loadKubeClient(), a new upstream has the token in its options at once', async () => {
    await loadKubeClient();
    const upstream = createUpstream({ yaml: kubeconfig }, { timeoutMs: 10_000 });
    try {
      const options = upstream.requestOptions();
      assert.equal((options.headers as Record<string, string>).Authorization, 'Bearer file-token');
      assert.ok(options.ca, 'the CA from the file');
    } finally {
      upstream.close();
    }
  });

  it('a static user needs nothing loaded', () => {
    const config = parse(kubeconfig) as { users: { user: unknown }[] };
    config.users[0]!.user = { token: 't' };
    assert.equal(kubeconfigNeedsClient({ yaml: stringify(config) }), false);
  });
});
