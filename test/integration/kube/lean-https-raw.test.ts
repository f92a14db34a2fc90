// The lean pool (ADR 0041) against a raw tls.Server scripted byte by byte: a
// member cluster may be hostile (ADR 0019), so what the pool writes and what it
// resumes are checked from the server's side. A header value the pool would
// write in latin1 must not smuggle a line end; the body's length is the pool's
// own; a queued request keeps its own deadline; a TLS session from a connection
// whose certificate check failed is never resumed (a resumed session skips the
// hostname check). Servers and pools are closed whatever the outcome.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { createCa, issueCertificate, type IssuedCertificate } from '../../../src/pki/certificates.ts';
import { createLeanPool, DeadlineExceededError, type LeanPool } from '../../../src/kube/lean-https.ts';

interface RawServer { port: number; received: Buffer[]; connections: number; resumed: number; stop(): Promise<void> }

/** A TLS server that hands each connection's bytes to `script` (which writes what it likes). */
async function rawServer(cert: IssuedCertificate, script: (socket: tls.TLSSocket, data: Buffer) => void, maxVersion?: tls.SecureVersion): Promise<RawServer> {
  const sockets = new Set<tls.TLSSocket>();
  const state = { port: 0, received: [] as Buffer[], connections: 0, resumed: 0, stop: (): Promise<void> => Promise.resolve() };
  const server = tls.createServer({ cert: cert.certPem, key: cert.keyPem, ...(maxVersion ? { maxVersion } : {}) }, (socket) => {
    state.connections++;
    if (socket.isSessionReused()) state.resumed++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.on('data', (data: Buffer) => {
      state.received.push(data);
      script(socket, data);
    });
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.stop = () => new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  });
  return state;
}

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}';

describe('lean pool against a scripted TLS server', () => {
  let ca: IssuedCertificate;
  let good: IssuedCertificate;
  let otherName: IssuedCertificate;
  const servers: RawServer[] = [];
  const pools: LeanPool[] = [];
  const pool = (port: number, extra: Partial<tls.ConnectionOptions> = {}, maxSockets = 4): LeanPool => {
    const p = createLeanPool({
      connect: (session) => tls.connect({ host: '127.0.0.1', port, ca: ca.certPem, ...extra, ...(session ? { session } : {}) }),
      host: `127.0.0.1:${port}`, maxSockets, idleMs: 30_000,
    });
    pools.push(p);
    return p;
  };
  const serve = async (script: (socket: tls.TLSSocket, data: Buffer) => void, cert = good, maxVersion?: tls.SecureVersion): Promise<RawServer> => {
    const s = await rawServer(cert, script, maxVersion);
    servers.push(s);
    return s;
  };

  before(async () => {
    ca = await createCa('lean-raw-ca');
    good = await issueCertificate({ ca, commonName: 'up', ips: ['127.0.0.1'], dnsNames: ['kube.example'], lifetimeMs: 3_600_000 });
    otherName = await issueCertificate({ ca, commonName: 'other', dnsNames: ['other.example'], lifetimeMs: 3_600_000 });
  });
  after(async () => {
    for (const p of pools) p.close();
    for (const s of servers) await s.stop();
  });

  it('refuses a header value whose characters latin1 would turn into a line end, and a name that is not a token', async () => {
    const s = await serve((socket) => socket.write(OK));
    const p = pool(s.port);
    // U+010A and U+010D are written as 0x0A and 0x0D by a latin1 encoding: a second header line.
    for (const headers of [{ 'X-Note': 'a\u010aInjected: yes' }, { 'X-Note': 'a\u010d\u010aInjected: yes' }, { 'X-A: b': 'c' }, { 'X A': 'c' }, { 'X-Note': 'tab\tok but del \x7f' }] as Record<string, string>[]) {
      await assert.rejects(p.request({ method: 'GET', path: '/x', headers, timeoutMs: 5_000 }), TypeError, JSON.stringify(headers));
    }
    await assert.rejects(p.request({ method: 'GET /y HTTP/1.1\r\nX:', path: '/x', headers: {}, timeoutMs: 5_000 }), TypeError);
    assert.ok(!Buffer.concat(s.received).toString('latin1').includes('Injected'), 'nothing injected reached the server');
  });

  it('any header value is refused or written as exactly one header line (property)', async () => {
    const s = await serve((socket) => socket.write(OK));
    const p = pool(s.port, {}, 1);
    await fc.assert(fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 12 }), async (v) => {
      const before = s.received.length;
      try {
        await p.request({ method: 'GET', path: '/p', headers: { 'X-V': v }, timeoutMs: 5_000 });
      } catch (err) {
        assert.ok(err instanceof TypeError, String(err));
        assert.equal(s.received.length, before, 'nothing was sent');
        return;
      }
      const wire = Buffer.concat(s.received.slice(before)).toString('latin1');
      assert.deepEqual(wire.split('\r\n').slice(1, -2).map((l) => l.split(':')[0]), ['Host', 'X-V'], JSON.stringify(wire));
      assert.ok(!/[\r\n]/.test(wire.split('\r\n')[2] ?? ''), 'no line end inside the value');
    }), { numRuns: 150 });
  });

  it('writes the body\'s own length whatever length the caller gave, so the body is never read as a next request', async () => {
    const s = await serve((socket) => socket.write(OK));
    const p = pool(s.port);
    const payload = Buffer.from('GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n');
    await p.request({ method: 'POST', path: '/a', headers: { 'Content-Length': '0' }, payload, timeoutMs: 5_000 });
    await p.request({ method: 'POST', path: '/b', headers: {}, payload, timeoutMs: 5_000 });
    const wire = Buffer.concat(s.received).toString('latin1');
    const lengths = [...wire.matchAll(/^content-length: *(\d+)\r$/gim)].map((m) => m[1]);
    assert.deepEqual(lengths, [String(payload.length), String(payload.length)], wire);
    assert.ok(!/transfer-encoding/i.test(wire));
  });

  it('a queued request keeps its own deadline while every connection is held by a server that never answers', async () => {
    const s = await serve(() => undefined); // reads, never answers
    const p = pool(s.port, {}, 1);
    const first = p.request({ method: 'GET', path: '/hangs', headers: {}, timeoutMs: 120_000 });
    first.catch(() => undefined);
    const second = p.request({ method: 'GET', path: '/queued', headers: {}, timeoutMs: 200 });
    let firstSettled = false;
    void first.then(() => { firstSettled = true; }, () => { firstSettled = true; });
    await assert.rejects(second, DeadlineExceededError);
    assert.equal(firstSettled, false, 'the queued request failed on its own deadline, not after the first');
    p.close();
    await assert.rejects(first);
  });

  it('a connection with bytes after the answer, or a 101, is never used for the next request', async () => {
    const forged = 'HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n{"f":"x"}';
    for (const answer of [`${OK}${forged}`, `HTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\n${forged}`]) {
      const s = await serve((socket) => socket.write(answer));
      const p = pool(s.port, {}, 1);
      await p.request({ method: 'GET', path: '/1', headers: {}, timeoutMs: 5_000 });
      const second = await p.request({ method: 'GET', path: '/2', headers: {}, timeoutMs: 5_000 });
      assert.notEqual(second.body.toString(), '{"f":"x"}', 'the leftover bytes were not read as the second answer');
      assert.equal(s.connections, 2, 'the second request went on a new connection');
    }
    const s = await serve((socket) => socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n'));
    await assert.rejects(pool(s.port).request({ method: 'GET', path: '/u', headers: {}, timeoutMs: 5_000 }), /switches protocols/);
  });

  it('a server that closes mid-body fails the request, and a GET is not sent again (bytes of its answer came)', async () => {
    const s = await serve((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"partial":'));
    await assert.rejects(pool(s.port).request({ method: 'GET', path: '/p', headers: {}, timeoutMs: 5_000 }));
    assert.equal(s.received.length, 1, 'sent once');
  });

  it('never resumes a TLS session from a connection whose server failed the hostname check (TLS 1.2)', async () => {
    // A server with a certificate from the trusted CA but for another name: the first connection fails the
    // hostname check after the session ticket arrived; a resumed session would skip that check.
    const s = await serve((socket) => socket.write(OK), otherName, 'TLSv1.2');
    const p = pool(s.port, { servername: 'kube.example' });
    for (let i = 0; i < 3; i++) {
      await assert.rejects(p.request({ method: 'GET', path: '/secret', headers: { Authorization: 'Bearer secret-token' }, timeoutMs: 5_000 }), (err: Error) => /altnames|Hostname|IP/i.test(err.message) || (err as { code?: string }).code === 'ERR_TLS_CERT_ALTNAME_INVALID');
    }
    assert.ok(!Buffer.concat(s.received).toString('latin1').includes('secret-token'), 'the token never reached a server that failed verification');
  });

  it('still resumes the session of a verified server (TLS 1.2 and 1.3)', async () => {
    for (const version of ['TLSv1.2', 'TLSv1.3'] as const) {
      const s = await serve((socket) => setTimeout(() => socket.write(OK), 20), good, version);
      const p = pool(s.port, { servername: 'kube.example' });
      await p.request({ method: 'GET', path: '/1', headers: {}, timeoutMs: 5_000 });
      const results = await Promise.all([1, 2, 3].map(() => p.request({ method: 'GET', path: '/2', headers: {}, timeoutMs: 5_000 })));
      assert.equal(results.length, 3);
      assert.ok(s.connections > 1, `${version}: more connections were opened`);
      assert.equal(s.resumed, s.connections - 1, `${version}: every later connection resumed the session`);
      p.close();
    }
  });
});
