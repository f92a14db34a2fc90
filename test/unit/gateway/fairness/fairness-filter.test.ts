import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFairness } from '../../../../src/gateway/fairness/fairness-filter.ts';
import type { TenantInfo } from '../../../../src/tenants/tenant-directory.ts';

const TENANT = { id: 'acme01' } as unknown as TenantInfo;
const BIG = 'x'.repeat(16 * 1024 * 1024);

describe('fairness filter', () => {
  it('gives the seat back when the writer ends the response, not when a slow client has read it all', { timeout: 10_000 }, async () => {
    const fairness = createFairness({ totalSeats: 1, adaptive: { enabled: false } });
    const ended: number[] = [];
    const server = http.createServer((req, res) => {
      void fairness.enter(req, res, TENANT).then(() => {
        res.end(BIG);
        ended.push(fairness.stats().running);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // A client that reads nothing: 16 MiB cannot all leave the gateway's socket.
    const req = http.get({ host: '127.0.0.1', port, path: '/' }, (res) => res.pause());
    req.on('error', () => undefined);
    while (ended.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(ended, [0]);
    assert.equal(fairness.stats().running, 0);
    req.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  // Behaviour changed in session 12 (ADR 0012): the adaptive limit (probing first, 1) applies only while two
  // tenants are active (fair-limiter-contention.test.ts); with none active the ceiling is what a lone tenant gets.
  it('the fixed limit when adaptive seats are off; by default the ceiling while no two tenants are active', () => {
    assert.equal(createFairness({ totalSeats: 7, adaptive: { enabled: false } }).stats().limit, 7);
    assert.equal(createFairness({ totalSeats: 7 }).stats().limit, 7);
  });
});
