// createUpstream's credentials: taken from the kubeconfig at construction, so
// the proxy adapter can use requestOptions() synchronously.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type RunningApiServer } from '../../../src/apiserver/server.ts';
import { createUpstream } from '../../../src/kube/upstream-client.ts';

describe('createUpstream', () => {
  let server: RunningApiServer;
  before(async () => {
    server = await startApiServer({ port: 0 });
  });
  after(async () => {
    await server.stop();
  });

  it('has the client certificate, key and CA in requestOptions() right away, and they work for a raw https request', async () => {
    const upstream = createUpstream({ yaml: server.kubeconfig });
    try {
      const opts = upstream.requestOptions();
      assert.ok(opts.ca && opts.cert && opts.key);
      assert.equal(upstream.server, server.url);
      const url = new URL(`${upstream.server}/api/v1/namespaces/default`);
      const status = await new Promise<number>((resolve, reject) => {
        https.get({ ...opts, hostname: url.hostname, port: url.port, path: url.pathname }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on('error', reject);
      });
      assert.equal(status, 200);
    } finally {
      upstream.close();
    }
  });

  it('reads a kubeconfig from a path', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'warren-upstream-'));
    try {
      await writeFile(join(dir, 'kubeconfig'), server.kubeconfig);
      const upstream = createUpstream({ path: join(dir, 'kubeconfig') });
      const res = await upstream.request('GET', '/version');
      assert.equal(res.status, 200);
      upstream.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('uses a bearer token from the kubeconfig instead of a client certificate', async () => {
    const withToken = server.kubeconfig.replace(/client-certificate-data: .*\n/, '').replace(/client-key-data: .*\n/, 'token: not-a-real-token\n');
    const upstream = createUpstream({ yaml: withToken });
    try {
      const opts = upstream.requestOptions();
      assert.equal(opts.cert, undefined);
      assert.equal((opts.headers as Record<string, string>).Authorization, 'Bearer not-a-real-token');
      const res = await upstream.request('GET', '/api/v1/namespaces');
      assert.equal(res.status, 401);
    } finally {
      upstream.close();
    }
  });

  it('refuses a kubeconfig with neither yaml nor path', () => {
    assert.throws(() => createUpstream({}), /yaml or path/);
  });
});
