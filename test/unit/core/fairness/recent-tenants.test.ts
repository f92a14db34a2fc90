import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RecentTenants } from '../../../../src/core/fairness/recent-tenants.ts';

describe('recent tenants (is the gateway shared?)', () => {
  it('one tenant alone, however often, is never several', () => {
    const recent = new RecentTenants(1_000);
    for (let t = 0; t < 5_000; t += 7) recent.seen('a', t);
    assert.equal(recent.several(5_000), false);
  });

  it('another tenant within the window makes it several, until the window has passed without it', () => {
    const recent = new RecentTenants(1_000);
    recent.seen('b', 0);
    recent.seen('a', 10);
    assert.equal(recent.several(500), true);
    recent.seen('a', 900);
    assert.equal(recent.several(1_000), true);
    assert.equal(recent.several(1_001), false, "b's last sighting left the window");
    recent.seen('b', 1_500);
    assert.equal(recent.several(1_500), true, 'a (seen at 900) is still within the window');
  });

  it('matches "two distinct tenants seen within the window" for any history (property)', () => {
    const tenants = fc.constantFrom('a', 'b', 'c');
    fc.assert(fc.property(fc.array(fc.tuple(tenants, fc.integer({ min: 0, max: 700 }))), fc.integer({ min: 0, max: 2_000 }), (history, after) => {
      const recent = new RecentTenants(1_000);
      const sightings: Array<{ tenant: string; at: number }> = [];
      let t = 0;
      for (const [tenant, dt] of history) {
        t += dt;
        recent.seen(tenant, t);
        sightings.push({ tenant, at: t });
      }
      const now = t + after;
      const within = new Set(sightings.filter((s) => now - s.at <= 1_000).map((s) => s.tenant));
      assert.equal(recent.several(now), within.size >= 2);
    }));
  });
});
