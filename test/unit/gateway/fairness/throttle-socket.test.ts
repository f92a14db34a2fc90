import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFairness } from '../../../../src/gateway/fairness/fairness-filter.ts';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { holdSocket, nextHold, spreadHold } from '../../../../src/gateway/fairness/throttle-socket.ts';
import { toApiError } from '../../../../src/core/api-error.ts';
import type { TenantInfo } from '../../../../src/tenants/tenant-directory.ts';

const TENANT = { id: 'acme01', fairness: { seats: 1, queueLength: 0 } } as unknown as TenantInfo;

// A server whose every request asks fairness for a seat and holds it 'holdMs';
// a refusal is answered 429, as the gateway does.
async function start(holdRefused: boolean, holdMs: number): Promise<{ url: string; close(): Promise<void>; arrivals: number[] }> {
  const fairness = createFairness({ retryAfterSeconds: 1, holdRefusedConnections: holdRefused });
  const arrivals: number[] = [];
  const server = http.createServer((req, res) => {
    arrivals.push(Date.now());
    fairness.enter(req, res, TENANT).then(
      () => setTimeout(() => res.end('ok'), holdMs),
      (err: unknown) => {
        res.writeHead(toApiError(err).code, { 'Retry-After': '1' });
        res.end('refused');
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}/`,
    arrivals,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

function get(url: string, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

describe('refused connections are held for Retry-After', { timeout: 20_000 }, () => {
  it('does not read the next request of a refused keep-alive connection before Retry-After', async () => {
    const s = await start(true, 300);
    const busy = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const flooder = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const holder = get(s.url, busy);
      await new Promise((r) => setTimeout(r, 50));
      const t0 = Date.now();
      assert.equal(await get(s.url, flooder), 429);
      // The retry is sent at once, ignoring Retry-After; the server must not see it for at least half of it (the hold is spread).
      const before = s.arrivals.length;
      const second = await get(s.url, flooder);
      const waited = Date.now() - t0;
      assert.equal(s.arrivals.length, before + 1);
      assert.ok(waited >= 450, `the retry was read after ${String(waited)} ms`);
      assert.equal(second, 200, 'by then the seat is free');
      assert.equal(await holder, 200);
    } finally {
      busy.destroy();
      flooder.destroy();
      await s.close();
    }
  });

  it('reads at once when holding is switched off', async () => {
    const s = await start(false, 300);
    const busy = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const flooder = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const holder = get(s.url, busy);
      await new Promise((r) => setTimeout(r, 50));
      const t0 = Date.now();
      assert.equal(await get(s.url, flooder), 429);
      assert.equal(await get(s.url, flooder), 429);
      assert.ok(Date.now() - t0 < 250);
      await holder;
    } finally {
      busy.destroy();
      flooder.destroy();
      await s.close();
    }
  });
});

describe('spreadHold', () => {
  for (const [spread, at, want] of [[0.5, 0, 500], [0.5, 0.5, 750], [0.5, 0.999, 999.5], [0.5, -1, 500], [0.5, 2, 1000], [0, 0, 1000], [0, 0.7, 1000], [1, 0, 0], [3, 0.25, 250]] as const) {
    it(`holds ${String(want)} ms of a 1 s Retry-After, spread ${String(spread)}, at ${String(at)}`, () => {
      assert.equal(spreadHold(1000, spread, at), want);
    });
  }
});

describe('nextHold', () => {
  for (const [heldMs, stillRefused, hold, maxMs, want] of [
    [700, false, 800, 10_000, undefined],
    [700, true, 800, 10_000, 800],
    [9_500, true, 800, 10_000, 500],
    [10_000, true, 800, 10_000, undefined],
    [700, true, 800, 0, undefined],
  ] as const) {
    it(`after ${String(heldMs)} ms, ${stillRefused ? 'still' : 'no longer'} refused, at most ${String(maxMs)} ms: ${String(want)}`, () => {
      assert.equal(nextHold(heldMs, stillRefused, hold, maxMs), want);
    });
  }
});

describe('holdSocket', () => {
  it('keeps a connection unread while its next request would still be refused, then reads it', async () => {
    const events = new EventEmitter();
    const idleTimers: number[] = [];
    const socket = Object.assign(events, {
      destroyed: false, pauses: 0, timeout: 5_000,
      pause() { socket.pauses++; },
      resume() { events.emit('resumed'); },
      setTimeout(ms: number) { idleTimers.push(ms); },
    });
    let asked = 0;
    const resumed = new Promise((resolve) => socket.once('resumed', resolve));
    // The hold's timers are unref'd (the server keeps a gateway alive): this one keeps the test's loop alive.
    const alive = setInterval(() => undefined, 1_000);
    holdSocket(socket as unknown as Socket, { ms: 5, stillRefused: () => ++asked < 3, maxMs: 10_000 });
    await resumed;
    clearInterval(alive);
    assert.equal(asked, 3, 'held again twice, read once the queue had room');
    assert.equal(socket.pauses, 1);
    assert.deepEqual(idleTimers, [5_000, 5_000], 'the server\'s keep-alive timer restarted at each hold again, so it does not cut a held connection');
  });

  it('holds once when nothing says the request would still be refused', async () => {
    const events = new EventEmitter();
    const socket = Object.assign(events, { destroyed: false, pause: () => undefined, resume: () => events.emit('resumed') });
    const resumed = new Promise((resolve) => socket.once('resumed', resolve));
    const alive = setInterval(() => undefined, 1_000);
    holdSocket(socket as unknown as Socket, { ms: 5 });
    await resumed;
    clearInterval(alive);
  });
});

