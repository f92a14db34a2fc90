import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BoundedValues, OTHER, TenantLabeler } from '../../../../src/gateway/observability/tenant-labels.ts';

describe('TenantLabeler', () => {
  it('top: first come while slots are free, then the busiest N of each window; evicted tenants are reported', () => {
    const evicted: string[] = [];
    const labels = new TenantLabeler({ topN: 2 }, (t) => evicted.push(t));
    assert.equal(labels.labelFor('a'), 'a');
    assert.equal(labels.labelFor('b'), 'b');
    assert.equal(labels.labelFor('c'), OTHER);
    for (let i = 0; i < 5; i++) labels.labelFor('c');
    labels.labelFor('a');
    labels.refresh();
    assert.deepEqual(labels.labelledTenants(), ['a', 'c']);
    assert.deepEqual(evicted, ['b']);
    assert.equal(labels.labelFor('b'), OTHER);
    assert.equal(labels.peek('c'), 'c');
  });

  it('peek never earns a slot', () => {
    const labels = new TenantLabeler({ topN: 1 });
    assert.equal(labels.peek('a'), OTHER);
    assert.equal(labels.labelFor('b'), 'b');
    assert.equal(labels.peek('a'), OTHER);
  });

  it('all and none', () => {
    assert.equal(new TenantLabeler({ mode: 'all' }).labelFor('x'), 'x');
    assert.equal(new TenantLabeler({ mode: 'none' }).labelFor('x'), OTHER);
  });

  it('never hands out more than N + 1 distinct values, whatever the traffic', () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.string({ minLength: 1, maxLength: 3 }), fc.constant('#refresh')), { maxLength: 300 }), fc.integer({ min: 1, max: 5 }), (steps, topN) => {
      const labels = new TenantLabeler({ topN });
      const live = new Set<string>();
      for (const step of steps) {
        if (step === '#refresh') labels.refresh();
        else live.add(labels.labelFor(step));
        assert.ok(labels.labelledTenants().length <= topN);
      }
      assert.ok(new Set([...live].filter((v) => v === OTHER || labels.labelledTenants().includes(v))).size <= topN + 1);
    }));
  });
});

describe('BoundedValues', () => {
  it('keeps the first max values and folds the rest into other', () => {
    const values = new BoundedValues(2);
    assert.deepEqual(['pods', 'foos', 'pods', 'bars'].map((v) => values.valueFor(v)), ['pods', 'foos', 'pods', OTHER]);
  });
});
