// What one tenant may hold for a long time (ADR 0045): long-running requests
// (watch, log follow, proxy), upgraded sessions (exec, attach, port-forward)
// and connections, each against its own per-tenant bound. Beyond a bound the
// tenant gets a 429 TooManyRequests with Retry-After worded for it; what it
// holds never exceeds the bound, whatever it opens and closes in whatever
// order, and another tenant's holdings neither count nor change.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import fc from 'fast-check';
import { createFairness, type Seat } from '../../../../src/gateway/fairness/fairness-filter.ts';
import { createTenantConnections } from '../../../../src/gateway/fairness/tenant-connections.ts';
import { buildTenantLimits } from '../../../../src/gateway/fairness/fairness-config.ts';
import { ApiError } from '../../../../src/core/api-error.ts';
import type { TenantInfo } from '../../../../src/tenants/tenant-directory.ts';

const tenant = (id: string): TenantInfo => ({ id, name: id, phase: 'Ready', suspended: false });
const ACME = tenant('acme01');
const GLOBEX = tenant('globx1');

/** A socket as the counter sees one: closes once, with 'close'. */
function fakeSocket(): Socket & { close(): void } {
  const socket = new EventEmitter() as Socket & { close(): void; destroyed: boolean };
  socket.destroyed = false;
  socket.close = () => {
    socket.destroyed = true;
    socket.emit('close');
  };
  return socket;
}

function refusedWith(reason: RegExp): (err: unknown) => boolean {
  return (err) => {
    assert.ok(err instanceof ApiError);
    assert.equal(err.code, 429);
    assert.equal(err.reason, 'TooManyRequests');
    assert.equal(err.details?.retryAfterSeconds, 1);
    assert.match(err.message, reason);
    assert.doesNotMatch(err.message, /globx1|acme01/);
    return true;
  };
}

describe('per-tenant bounds on long-running requests and connections', () => {
  it('defaults fit what clients open: 1,000 long-running requests, 1,500 connections; a config layer and a tenant override win', () => {
    assert.deepEqual(pick(buildTenantLimits({}, 'acme01')), { longRunning: 1_000, connections: 1_500 });
    const config = { defaults: { longRunning: 50 }, tenants: { acme01: { connections: 9 } } };
    assert.deepEqual(pick(buildTenantLimits(config, 'acme01')), { longRunning: 50, connections: 9 });
    assert.deepEqual(pick(buildTenantLimits(config, 'globx1')), { longRunning: 50, connections: 1_500 });
    // A broken value in a layer is ignored, not fatal.
    assert.deepEqual(pick(buildTenantLimits({ defaults: { longRunning: 0, connections: 1.5 } }, 'acme01')), { longRunning: 1_000, connections: 1_500 });
  });

  it('long-running requests: 429 beyond the bound, in the tenant\'s terms; a closed one frees its slot; the neighbour is not counted', () => {
    const rejected: string[] = [];
    const fairness = createFairness({ defaults: { longRunning: 2 } }, { rejected: (id, reason) => rejected.push(`${id}:${reason}`) });
    const a = fairness.enterLongRunning(ACME);
    fairness.enterLongRunning(ACME);
    assert.throws(() => fairness.enterLongRunning(ACME), refusedWith(/already has 2 watches and other long-running requests/));
    assert.deepEqual(rejected, ['acme01:long-running']);
    assert.ok(fairness.enterLongRunning(GLOBEX), 'globex has its own bound');
    a.release();
    a.release();
    assert.equal(fairness.openLongRunning('acme01'), 1, 'a release counts once');
    fairness.enterLongRunning(ACME);
    assert.equal(fairness.openLongRunning('acme01'), 2);
  });

  it('connections: counted once per connection and tenant, freed when it closes; beyond, 429 and the response closes its connection', () => {
    const rejected: string[] = [];
    const fairness = createFairness({ defaults: { connections: 2 } }, { rejected: (id, reason) => rejected.push(`${id}:${reason}`) });
    const [s1, s2, s3] = [fakeSocket(), fakeSocket(), fakeSocket()];
    fairness.admitConnection(s1, ACME);
    fairness.admitConnection(s1, ACME);
    fairness.admitConnection(s2, ACME);
    assert.equal(fairness.openConnections('acme01'), 2);
    const headers = new Map<string, string>();
    const res = { headersSent: false, setHeader: (name: string, value: string) => headers.set(name, value) };
    assert.throws(() => fairness.admitConnection(s3, ACME, res as never), refusedWith(/already has 2 connections open/));
    assert.equal(headers.get('Connection'), 'close');
    assert.deepEqual(rejected, ['acme01:connections']);
    fairness.admitConnection(s3, GLOBEX);
    s1.close();
    assert.equal(fairness.openConnections('acme01'), 1);
    fairness.admitConnection(s3, ACME);
    assert.equal(fairness.openConnections('acme01'), 2, 'a connection two tenants use counts for each');
    s3.close();
    assert.equal(fairness.openConnections('globx1'), 0);
    assert.equal(fairness.openConnections('acme01'), 1);
  });

  it('a connection already closed is not counted (it has no close left to give the count back)', () => {
    const connections = createTenantConnections();
    const gone = fakeSocket();
    gone.close();
    assert.equal(connections.admit(gone, 'acme01', 1), true);
    assert.equal(connections.open('acme01'), 0);
  });

  it('off: no bound at all', () => {
    const fairness = createFairness({ enabled: false, defaults: { longRunning: 1, connections: 1 } });
    for (let i = 0; i < 5; i++) {
      fairness.enterLongRunning(ACME);
      fairness.admitConnection(fakeSocket(), ACME);
    }
    assert.equal(fairness.openLongRunning('acme01'), 0);
  });

  it('property: any mix of long-running kinds opened and closed by two tenants never holds more than each bound, and is refused only at it', () => {
    const kind = fc.constantFrom('watch', 'log', 'proxy', 'exec', 'attach', 'portforward');
    const step = fc.oneof(
      fc.record({ op: fc.constant('open' as const), tenant: fc.constantFrom(ACME, GLOBEX), kind }),
      fc.record({ op: fc.constant('close' as const), pick: fc.nat() }),
    );
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.array(step, { maxLength: 60 }), (longRunning, seats, steps) => {
      const fairness = createFairness({ defaults: { longRunning, seats } });
      const held: Array<{ tenant: string; upgrade: boolean; seat: Seat }> = [];
      const count = (id: string, upgrade: boolean): number => held.filter((h) => h.tenant === id && h.upgrade === upgrade).length;
      for (const s of steps) {
        if (s.op === 'close') {
          const [gone] = held.splice(s.pick % Math.max(1, held.length), 1);
          gone?.seat.release();
          continue;
        }
        // exec, attach and port-forward are upgrades, bounded by seats; the rest by longRunning (long-running.ts's kinds).
        const upgrade = ['exec', 'attach', 'portforward'].includes(s.kind);
        const bound = upgrade ? seats : longRunning;
        const before = count(s.tenant.id, upgrade);
        try {
          const seat = upgrade ? fairness.enterUpgrade(s.tenant) : fairness.enterLongRunning(s.tenant);
          assert.ok(before < bound, `admitted at ${before} of ${bound}`);
          held.push({ tenant: s.tenant.id, upgrade, seat });
        } catch (err) {
          assert.ok(err instanceof ApiError && err.code === 429);
          assert.equal(before, bound, `refused at ${before} of ${bound}`);
        }
        for (const id of ['acme01', 'globx1']) {
          assert.equal(fairness.openLongRunning(id), count(id, false));
          assert.equal(fairness.openUpgrades(id), count(id, true));
        }
      }
    }));
  });
});

function pick(limits: { longRunning: number; connections: number }): { longRunning: number; connections: number } {
  return { longRunning: limits.longRunning, connections: limits.connections };
}
