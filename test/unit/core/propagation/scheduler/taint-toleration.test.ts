import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Taint, Toleration } from '../../../../../src/core/propagation/karmada-types.ts';
import { findUntoleratedTaint, formatTaint, toleratesTaint, toleratesTaints } from '../../../../../src/core/propagation/scheduler/taint-toleration.ts';

const taint: Taint = { key: 'k', value: 'v', effect: 'NoSchedule' };

test('toleratesTaint: kube semantics', () => {
  const cases: Array<[string, Toleration, boolean]> = [
    ['Equal same value', { key: 'k', operator: 'Equal', value: 'v' }, true],
    ['no operator means Equal', { key: 'k', value: 'v' }, true],
    ['Equal other value', { key: 'k', operator: 'Equal', value: 'w' }, false],
    ['Exists ignores value', { key: 'k', operator: 'Exists' }, true],
    ['other key', { key: 'x', operator: 'Exists' }, false],
    ['empty key with Exists tolerates all', { operator: 'Exists' }, true],
    ['effect must match', { key: 'k', operator: 'Exists', effect: 'NoExecute' }, false],
    ['same effect', { key: 'k', operator: 'Exists', effect: 'NoSchedule' }, true],
  ];
  for (const [name, t, want] of cases) assert.equal(toleratesTaint(t, taint), want, name);
});

test('toleratesTaints: NoSchedule and NoExecute must be tolerated, PreferNoSchedule never filters', () => {
  const taints: Taint[] = [{ key: 'soft', effect: 'PreferNoSchedule' }, { key: 'a', effect: 'NoExecute' }, { key: 'b', value: '1', effect: 'NoSchedule' }];
  assert.equal(toleratesTaints([], taints), false);
  assert.equal(findUntoleratedTaint([], taints)?.key, 'a');
  assert.equal(findUntoleratedTaint([{ key: 'a', operator: 'Exists' }], taints)?.key, 'b');
  assert.equal(toleratesTaints([{ key: 'a', operator: 'Exists' }, { key: 'b', value: '1' }], taints), true);
  assert.equal(toleratesTaints(undefined, [{ key: 'soft', effect: 'PreferNoSchedule' }]), true);
  assert.equal(toleratesTaints(undefined, undefined), true);
});

test('formatTaint matches corev1.Taint.ToString', () => {
  assert.equal(formatTaint(taint), 'k=v:NoSchedule');
  assert.equal(formatTaint({ key: 'cluster.karmada.io/not-ready', effect: 'NoExecute' }), 'cluster.karmada.io/not-ready:NoExecute');
});
