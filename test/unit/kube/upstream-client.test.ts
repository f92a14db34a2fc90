// createUpstream's TLS: the kubeconfig's CA, client certificate and key are made into one
// SecureContext shared by every connection. These tests hold it to what per-connection
// options gave: the server is verified (CA and name), the client certificate is presented
// on every connection, and many concurrent requests each work.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { createCa, issueCertificate, type IssuedCertificate } from '../../../src/pki/certificates.ts';
import { buildKubeconfig } from '../../../src/pki/kubeconfig.ts';
import { createUpstream, UNAVAILABLE_MESSAGE } from '../../../src/kube/upstream-client.ts';
import { ApiError } from '../../../src/core/api-error.ts';

interface Server { url: string; connections: number; stop(): Promise<void> }

async function startServer(serving: IssuedCertificate, clientCa: IssuedCertificate): Promise<Server> {
  let connections = 0;
  const server = https.createServer({ cert: serving.certPem, key: serving.keyPem, ca: clientCa.certPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    // Hold each response a little, so concurrent requests need connections of their own.
    setTimeout(() => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ user: peer.subject?.CN, path: req.url, method: req.method }));
    }, 20);
  });
  server.on('secureConnection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    get connections() { return connections; },
    stop: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

describe('createUpstream TLS', () => {
  let serverCa: IssuedCertificate;
  let clientCa: IssuedCertificate;
  let client: IssuedCertificate;
  let server: Server;
  let wrongName: Server;
  const kubeconfig = (url: string, caPem = serverCa.certPem): string =>
    buildKubeconfig({ clusterName: 'up', server: url, caCertPem: caPem, userName: 'admin', clientCertPem: client.certPem, clientKeyPem: client.keyPem });

  before(async () => {
    serverCa = await createCa('server-ca');
    clientCa = await createCa('client-ca');
    client = await issueCertificate({ ca: clientCa, commonName: 'warren-admin', lifetimeMs: 3_600_000 });
    server = await startServer(await issueCertificate({ ca: serverCa, commonName: 'up', ips: ['127.0.0.1'], lifetimeMs: 3_600_000 }), clientCa);
    wrongName = await startServer(await issueCertificate({ ca: serverCa, commonName: 'elsewhere', dnsNames: ['elsewhere.example'], lifetimeMs: 3_600_000 }), clientCa);
  });
  after(async () => {
    await server.stop();
    await wrongName.stop();
  });

  it('presents the client certificate on every connection of a burst', async () => {
    const upstream = createUpstream({ yaml: kubeconfig(server.url) }, { timeoutMs: 5_000 });
    try {
      const before = server.connections;
      const responses = await Promise.all(Array.from({ length: 24 }, (_, i) => upstream.request<{ user: string; path: string; method: string }>('POST', `/x/${i}`, { i })));
      assert.ok(server.connections - before >= 2, `a burst opened several connections (${server.connections - before})`);
      responses.forEach((r, i) => assert.deepEqual([r.status, r.body], [200, { user: 'warren-admin', path: `/x/${i}`, method: 'POST' }]));
      // Kept alive and reused: a second burst opens no more connections than the first.
      const opened = server.connections;
      await Promise.all(Array.from({ length: 24 }, () => upstream.request('GET', '/y')));
      assert.equal(server.connections, opened);
    } finally {
      upstream.close();
    }
  });

  it('refuses a server whose certificate another CA signed', async () => {
    const otherCa = await createCa('other-ca');
    const upstream = createUpstream({ yaml: kubeconfig(server.url, otherCa.certPem) }, { timeoutMs: 5_000 });
    try {
      await assert.rejects(upstream.request('GET', '/z'), (err) => err instanceof ApiError && err.message === UNAVAILABLE_MESSAGE);
    } finally {
      upstream.close();
    }
  });

  it('refuses a server whose certificate names another host', async () => {
    const upstream = createUpstream({ yaml: kubeconfig(wrongName.url) }, { timeoutMs: 5_000 });
    try {
      await assert.rejects(upstream.request('GET', '/z'), (err) => err instanceof ApiError && err.message === UNAVAILABLE_MESSAGE);
    } finally {
      upstream.close();
    }
  });

  it('streams use the same material', async () => {
    const upstream = createUpstream({ yaml: kubeconfig(server.url) }, { timeoutMs: 5_000 });
    try {
      const res = await upstream.stream('/watch');
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      assert.equal(JSON.parse(Buffer.concat(chunks).toString('utf8')).user, 'warren-admin');
    } finally {
      upstream.close();
    }
  });
});
