// A watch client that stops reading is cut off once the events waiting for it
// pass the limit: the gateway lets upstream go and ends the response cleanly
// (its final chunk queued after what was pending), instead of buffering
// without end. Loopback HTTP on both sides; the upstream writes as fast as the
// gateway reads.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendTranslatedWatch, type WatchEnd } from '../../../src/gateway/proxy/watch-response.ts';

const LIMIT = 256 * 1024;
const EVENTS = 40_000; // ~40 MB: far beyond the limit plus what the kernel's socket buffers can hold
const padding = 'x'.repeat(1000);

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

describe('slow watch consumers', { timeout: 60_000 }, () => {
  let upstream: Server;
  let front: Server;
  let frontPort = 0;
  let upstreamClosedEarly: Promise<boolean>;
  let ended: Promise<WatchEnd | undefined>;

  before(async () => {
    let markClosed: (early: boolean) => void = () => undefined;
    upstreamClosedEarly = new Promise((resolve) => { markClosed = resolve; });
    upstream = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      let sent = 0;
      res.once('close', () => markClosed(sent < EVENTS));
      const pump = (): void => {
        while (sent < EVENTS) {
          const line = `${JSON.stringify({ type: 'ADDED', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${sent}`, resourceVersion: String(sent + 1) }, data: { padding } } })}\n`;
          sent++;
          if (!res.write(line)) { res.once('drain', pump); return; }
        }
        res.end();
      };
      pump();
    });
    const upstreamPort = await listen(upstream);
    let resolveEnded: (end: WatchEnd | undefined) => void = () => undefined;
    ended = new Promise((resolve) => { resolveEnded = resolve; });
    front = http.createServer((_req, res: ServerResponse) => {
      http.get({ host: '127.0.0.1', port: upstreamPort, path: '/watch' }, (upstreamRes: IncomingMessage) => {
        void sendTranslatedWatch(upstreamRes, res, { translateEvent: (e) => e, translateBody: (b) => b, maxPendingBytes: LIMIT, endGraceMs: 30_000 }).then(resolveEnded);
      });
    });
    frontPort = await listen(front);
  });

  after(async () => {
    front.closeAllConnections();
    upstream.closeAllConnections();
    await Promise.all([new Promise((r) => front.close(r)), new Promise((r) => upstream.close(r))]);
  });

  it('cuts off a client that stops reading, with a clean end once it reads again', async () => {
    const res = await new Promise<IncomingMessage>((resolve) => http.get({ host: '127.0.0.1', port: frontPort, path: '/', agent: false }, resolve));
    assert.equal(res.statusCode, 200);
    res.pause(); // the client stops reading
    // The gateway lets upstream go before the upstream has sent everything...
    assert.equal(await upstreamClosedEarly, true);
    // ...the client now reads what was queued, then the final chunk: a clean end, not a reset.
    let bytes = 0;
    let lines = 0;
    let tail = '';
    const outcome = await new Promise<string>((resolve) => {
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        const text = tail + chunk.toString('utf8');
        const parts = text.split('\n');
        tail = parts.pop() ?? '';
        lines += parts.length;
      });
      res.once('end', () => resolve('end'));
      res.once('aborted', () => resolve('aborted'));
      res.once('error', () => resolve('aborted'));
      res.resume();
    });
    assert.equal(outcome, 'end');
    assert.equal(tail, '', 'the stream ends on an event boundary');
    assert.ok(lines > 0 && lines < EVENTS, `some events, not all (${lines})`);
    assert.ok(bytes < EVENTS * 1000, 'the gateway did not relay the whole upstream stream');
    assert.equal(await ended, 'slow-client');
  });
});
