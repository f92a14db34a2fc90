import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableReplicas, estimateAvailable, MAX_INT32 } from '../../../../../src/core/propagation/scheduler/available-replicas.ts';
import { cluster } from './cluster-fixture.ts';

const req = (r: Record<string, string>) => ({ resourceRequest: r });

test('availableReplicas follows the general estimator', () => {
  const cases: Array<[string, ReturnType<typeof cluster>, ReturnType<typeof req> | undefined, number]> = [
    ['no resource summary', cluster('a'), req({ cpu: '1' }), 0],
    ['no requirements: pods left', cluster('a', { summary: { allocatable: { pods: '110' }, allocated: { pods: '10' }, allocating: { pods: '5' } } }), undefined, 95],
    ['no pods reported', cluster('a', { summary: { allocatable: { cpu: '8' } } }), req({ cpu: '1' }), 0],
    ['cpu in millicores', cluster('a', { summary: { allocatable: { cpu: '2', pods: '100' }, allocated: { cpu: '500m' } } }), req({ cpu: '250m' }), 6],
    ['pods bound the result', cluster('a', { summary: { allocatable: { cpu: '64', pods: '5' } } }), req({ cpu: '1' }), 5],
    ['memory with binary suffixes', cluster('a', { summary: { allocatable: { memory: '8Gi', pods: '100' }, allocated: { memory: '1Gi' } } }), req({ memory: '512Mi' }), 14],
    ['the scarcest resource wins', cluster('a', { summary: { allocatable: { cpu: '10', memory: '2Gi', pods: '100' } } }), req({ cpu: '1', memory: '1Gi' }), 2],
    ['requested resource not allocatable', cluster('a', { summary: { allocatable: { cpu: '10', pods: '100' } } }), req({ 'nvidia.com/gpu': '1' }), 0],
    ['allocating counts as used', cluster('a', { summary: { allocatable: { cpu: '4', pods: '100' }, allocating: { cpu: '3' } } }), req({ cpu: '1' }), 1],
    ['exhausted', cluster('a', { summary: { allocatable: { cpu: '4', pods: '100' }, allocated: { cpu: '5' } } }), req({ cpu: '1' }), 0],
    ['zero request ignored', cluster('a', { summary: { allocatable: { cpu: '4', pods: '7' } } }), req({ cpu: '0' }), 7],
  ];
  for (const [name, c, r, want] of cases) assert.equal(availableReplicas(c, r), want, name);
});

test('estimateAvailable: non-workloads are never limited', () => {
  const est = estimateAvailable([cluster('a'), cluster('b', { cpu: 3 })], 0, req({ cpu: '1' }));
  assert.deepEqual([...est], [['a', MAX_INT32], ['b', MAX_INT32]]);
  assert.deepEqual([...estimateAvailable([cluster('b', { cpu: 3 })], 5, req({ cpu: '1' }))], [['b', 3]]);
});
