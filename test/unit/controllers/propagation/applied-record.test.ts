import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createAppliedRecord } from '../../../../src/controllers/propagation/applied-record.ts';
import { viewStrings } from '../../../../src/controllers/propagation/interned-strings.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

const obj = (meta: { generation?: number; resourceVersion: string }): KubeObject => ({ metadata: { name: 'x', ...meta } });

describe('applied record (skip an unchanged apply, undo drift on the member)', () => {
  const cases: Array<{ name: string; applied: KubeObject; hash: string; observed: KubeObject | undefined; unchanged: boolean }> = [
    { name: 'same manifest, member copy as applied', applied: obj({ generation: 2, resourceVersion: '10' }), hash: 'h', observed: obj({ generation: 2, resourceVersion: '10' }), unchanged: true },
    { name: 'status written on the member since (generation unchanged)', applied: obj({ generation: 2, resourceVersion: '10' }), hash: 'h', observed: obj({ generation: 2, resourceVersion: '14' }), unchanged: true },
    { name: 'someone changed the spec on the member (generation bumped)', applied: obj({ generation: 2, resourceVersion: '10' }), hash: 'h', observed: obj({ generation: 3, resourceVersion: '15' }), unchanged: false },
    { name: 'a kind without generation edited on the member', applied: obj({ resourceVersion: '10' }), hash: 'h', observed: obj({ resourceVersion: '11' }), unchanged: false },
    { name: 'the manifest changed', applied: obj({ generation: 2, resourceVersion: '10' }), hash: 'other', observed: obj({ generation: 2, resourceVersion: '10' }), unchanged: false },
    { name: 'the member copy is gone or not yet seen', applied: obj({ generation: 2, resourceVersion: '10' }), hash: 'h', observed: undefined, unchanged: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const record = createAppliedRecord();
      record.record('k', 'h', c.applied);
      assert.equal(record.unchanged('k', c.hash, c.observed), c.unchanged);
    });
  }

  it('forgets, and never claims unchanged for a key it did not apply', () => {
    const record = createAppliedRecord();
    assert.equal(record.unchanged('k', 'h', obj({ generation: 1, resourceVersion: '1' })), false);
    record.record('k', 'h', obj({ generation: 1, resourceVersion: '1' }));
    record.forget('k');
    assert.equal(record.unchanged('k', 'h', obj({ generation: 1, resourceVersion: '1' })), false);
  });

  it('intern no resourceVersion: each is one object\'s, and 100,000 of them would flush the table every view shares', () => {
    const record = createAppliedRecord();
    const before = viewStrings.size();
    for (let i = 0; i < 1_000; i++) {
      const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, resourceVersion: String(900_000 + i) } };
      record.record(`member1/cm-${i}`, 'hash-a', cm);
      assert.equal(record.unchanged(`member1/cm-${i}`, 'hash-a', cm), true);
    }
    assert.ok(viewStrings.size() - before <= 2, `${viewStrings.size() - before} entries for 1,000 ConfigMaps`);
  });
});
