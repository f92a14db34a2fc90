// A tenant's watches together may hold at most a budget of bytes queued for
// clients that do not read (ADR 0045): beyond it, the watches that are behind
// are cut, a watch that keeps up never is, and another tenant's backlog never
// counts against this one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BACKLOG_FLOOR_BYTES, createTenantBacklogs, overTenantBacklog } from '../../../../src/gateway/fairness/tenant-backlog.ts';

describe('tenant watch backlog budget', () => {
  it('cuts the watches behind once the tenant\'s total is over its budget, not one that keeps up, nor another tenant\'s', () => {
    const budget = 4 * BACKLOG_FLOOR_BYTES;
    const backlogs = createTenantBacklogs(budget);
    const behind = [{ writableLength: 2 * BACKLOG_FLOOR_BYTES }, { writableLength: 2 * BACKLOG_FLOOR_BYTES }];
    const keepsUp = { writableLength: BACKLOG_FLOOR_BYTES };
    const neighbour = { writableLength: 3 * BACKLOG_FLOOR_BYTES };
    for (const res of [...behind, keepsUp]) backlogs.track('acme01', res);
    const forgetNeighbour = backlogs.track('globx1', neighbour);
    assert.deepEqual(behind.map((r) => overTenantBacklog(r)), [true, true]);
    assert.equal(overTenantBacklog(keepsUp), false);
    assert.equal(overTenantBacklog(neighbour), false, 'globex is under its own budget: acme\'s bytes do not count for it');
    forgetNeighbour();
    assert.equal(overTenantBacklog(neighbour), false);
    assert.equal(overTenantBacklog({ writableLength: 1e9 }), false, 'a response never registered is never cut for a tenant');
  });

  it('property: over exactly when the response is behind and its tenant\'s registered total exceeds the budget', () => {
    const lengths = fc.array(fc.record({ tenant: fc.constantFrom('a', 'b'), bytes: fc.nat({ max: 4 * BACKLOG_FLOOR_BYTES }), forget: fc.boolean() }), { maxLength: 30 });
    fc.assert(fc.property(fc.integer({ min: 1, max: 16 * BACKLOG_FLOOR_BYTES }), lengths, (budget, rows) => {
      const backlogs = createTenantBacklogs(budget);
      const entries = rows.map((row) => {
        const res = { writableLength: row.bytes };
        const forget = backlogs.track(row.tenant, res);
        return { ...row, res, forget };
      });
      for (const e of entries) if (e.forget) e.forget();
      for (const e of entries) {
        const total = entries.filter((o) => o.tenant === e.tenant && !o.forget).reduce((n, o) => n + o.bytes, 0);
        const expected = !e.forget && e.bytes > BACKLOG_FLOOR_BYTES && total > budget;
        assert.equal(overTenantBacklog(e.res), expected);
      }
    }));
  });
});
