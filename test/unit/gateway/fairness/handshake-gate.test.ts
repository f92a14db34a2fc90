import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { gateHandshakes, handshakeGateOptions, type GatedServer, type HandshakeGateOptions } from '../../../../src/gateway/fairness/handshake-gate.ts';
import { createCa, issueCertificate } from '../../../../src/pki/certificates.ts';

// A stand-in server: a 'connection' listener like tls.Server's own (it wraps the socket in TLS).
function fakeServer(): { server: GatedServer & EventEmitter; wrapped: Socket[] } {
  const server = new EventEmitter() as GatedServer & EventEmitter;
  const wrapped: Socket[] = [];
  server.on('connection', (socket: Socket) => wrapped.push(socket));
  return { server, wrapped };
}

const socket = (destroyed = false): Socket => ({ destroyed }) as Socket;

// The loop delay and the window timer, cranked by hand: `lag` is what the next window measures.
function handCranked(maxInProgress: number): HandshakeGateOptions & { lag: number; window(): void; running(): boolean } {
  let tick: (() => void) | undefined;
  const options = {
    maxInProgress,
    targetLagMs: 1,
    lag: 0,
    delay: { sample: () => options.lag, start: () => undefined, stop: () => undefined },
    every: (_ms: number, fn: () => void) => {
      tick = fn;
      return { stop: () => (tick = undefined) };
    },
    window: () => tick?.(),
    running: () => tick !== undefined,
  };
  return options;
}

describe('gateHandshakes', () => {
  it('keeps at most maxInProgress handshakes under way; the next starts when one ends, in arrival order', () => {
    const { server, wrapped } = fakeServer();
    const stats = gateHandshakes(server, handCranked(2));
    const sockets = [socket(), socket(), socket(), socket(), socket()];
    for (const s of sockets) server.emit('connection', s);
    assert.deepEqual(wrapped, sockets.slice(0, 2));
    assert.deepEqual(stats, { waiting: 3, inProgress: 2, limit: 2 });
    server.emit('secureConnection', {});
    assert.deepEqual(wrapped, sockets.slice(0, 3));
    server.emit('tlsClientError', new Error('peer left'), {});
    assert.deepEqual(wrapped, sockets.slice(0, 4));
    server.emit('secureConnection', {});
    assert.deepEqual(wrapped, sockets);
    assert.deepEqual(stats, { waiting: 0, inProgress: 2, limit: 2 });
    server.emit('secureConnection', {});
    server.emit('secureConnection', {});
    assert.equal(stats.inProgress, 0);
  });

  it('stops reading new connections until their turn (their ClientHello stays in the kernel)', () => {
    const { server } = fakeServer();
    gateHandshakes(server, handCranked(1));
    assert.equal(server.pauseOnConnect, true);
  });

  it('skips a connection whose peer went away while it waited, without giving it a place', () => {
    const { server, wrapped } = fakeServer();
    const stats = gateHandshakes(server, handCranked(1));
    const first = socket();
    const live = socket();
    server.emit('connection', first);
    server.emit('connection', socket(true));
    server.emit('connection', live);
    server.emit('secureConnection', {});
    assert.deepEqual(wrapped, [first, live]);
    assert.deepEqual(stats, { waiting: 0, inProgress: 1, limit: 1 });
  });

  it('leaves the server alone when off (0)', () => {
    const { server, wrapped } = fakeServer();
    gateHandshakes(server, handCranked(0));
    const s = socket();
    server.emit('connection', s);
    assert.deepEqual(wrapped, [s]);
    assert.equal(server.pauseOnConnect, undefined);
  });

  it('halves the bound while the loop is over its delay target, and climbs back once it is not', () => {
    const { server, wrapped } = fakeServer();
    const crank = handCranked(8);
    const stats = gateHandshakes(server, crank);
    for (let i = 0; i < 20; i++) server.emit('connection', socket());
    assert.equal(wrapped.length, 8);
    assert.equal(crank.running(), true, 'connections wait: the bound adapts');
    crank.lag = 3;
    crank.window();
    crank.window();
    assert.equal(stats.limit, 2);
    // Eight are under way; none starts until fewer than two are.
    for (let i = 0; i < 6; i++) server.emit('secureConnection', {});
    assert.equal(wrapped.length, 8);
    server.emit('secureConnection', {});
    assert.equal(wrapped.length, 9);
    crank.lag = 0;
    for (let i = 0; i < 30; i++) {
      crank.window();
      while (stats.inProgress > 0) server.emit('secureConnection', {});
    }
    assert.equal(wrapped.length, 20);
    assert.equal(stats.limit, 8);
    assert.equal(crank.running(), false, 'nobody waits and the bound is back at its ceiling: no timer');
  });

  it('takes its ceiling from fairness.concurrentHandshakes and its target from the pacer', () => {
    assert.deepEqual(handshakeGateOptions({ concurrentHandshakes: 4, pacing: { targetLagMs: 2 } }), { maxInProgress: 4, targetLagMs: 2 });
    assert.deepEqual(handshakeGateOptions({}), { maxInProgress: 16, targetLagMs: 1 });
  });

  it('serves every one of a burst of real TLS connections', async () => {
    const ca = await createCa('gate-test-ca');
    const serving = await issueCertificate({ ca, commonName: 'localhost', ips: ['127.0.0.1'], lifetimeMs: 3_600_000 });
    const server = https.createServer({ cert: serving.certPem, key: serving.keyPem }, (_req, res) => res.end('ok'));
    const stats = gateHandshakes(server, { maxInProgress: 2, targetLagMs: 1 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new https.Agent({ keepAlive: true, maxSockets: 40, ca: ca.certPem });
    try {
      const bodies = await Promise.all(Array.from({ length: 40 }, () => new Promise<string>((resolve, reject) => {
        https.get({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve(body));
        }).on('error', reject);
      })));
      assert.deepEqual(bodies, Array.from({ length: 40 }, () => 'ok'));
      assert.deepEqual([stats.waiting, stats.inProgress], [0, 0], 'every handshake was counted done');
    } finally {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
