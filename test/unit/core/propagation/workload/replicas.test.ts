import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { podRequests, replicasOf, reviseReplicas } from '../../../../../src/core/propagation/workload/index.ts';
import type { KubeObject } from '../../../../../src/core/types.ts';

const container = (cpu?: string, memory?: string): Record<string, unknown> => {
  const requests: Record<string, string> = {};
  if (cpu) requests.cpu = cpu;
  if (memory) requests.memory = memory;
  return { name: 'c', image: 'x', resources: { requests } };
};
const workload = (kind: string, spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'apps/v1', kind, metadata: { name: 'w' }, spec });
const tpl = (containers: unknown[], extra: Record<string, unknown> = {}) => ({ template: { spec: { containers, ...extra } } });

describe('replicasOf', () => {
  const cases: Array<[string, KubeObject, number]> = [
    ['Deployment replicas', workload('Deployment', { replicas: 3, ...tpl([]) }), 3],
    ['Deployment default 1', workload('Deployment', tpl([])), 1],
    ['Deployment zero', workload('Deployment', { replicas: 0 }), 0],
    ['StatefulSet', workload('StatefulSet', { replicas: 5 }), 5],
    ['ReplicaSet', workload('ReplicaSet', { replicas: 2 }), 2],
    ['Job parallelism', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { parallelism: 4 } }, 4],
    ['Job capped by completions', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { parallelism: 4, completions: 2 } }, 2],
    ['Job default', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: {} }, 1],
    ['Pod', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [] } }, 1],
    ['DaemonSet is not divided', workload('DaemonSet', tpl([])), 0],
    ['ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, 0],
  ];
  for (const [name, obj, want] of cases) it(name, () => assert.equal(replicasOf(obj).replicas, want));

  it('requirements: containers summed, init container max, overhead added', () => {
    const d = workload('Deployment', { replicas: 2, ...tpl([container('250m', '64Mi'), container('1', '1Gi')], {
      initContainers: [container('2', '10Mi')], overhead: { cpu: '100m' },
    }) });
    assert.deepEqual(replicasOf(d), { replicas: 2, replicaRequirements: { resourceRequest: { cpu: '2100m', memory: String(64 * 2 ** 20 + 2 ** 30) } } });
  });
  it('no requests, no requirements', () => {
    assert.deepEqual(replicasOf(workload('Deployment', { replicas: 1, ...tpl([{ name: 'a' }]) })), { replicas: 1 });
  });
  it('podRequests prints whole values as integers', () => {
    assert.deepEqual(podRequests({ containers: [container('500m'), container('1500m')] }), { cpu: '2' });
    assert.deepEqual(podRequests({ containers: [container('0.1')] }), { cpu: '100m' });
  });
});

describe('reviseReplicas', () => {
  it('Deployment spec.replicas, without mutating', () => {
    const d = workload('Deployment', { replicas: 3 });
    const r = reviseReplicas(d, 1);
    assert.equal((r.spec as any).replicas, 1);
    assert.equal((d.spec as any).replicas, 3);
  });
  it('Job spec.parallelism', () => {
    const j: KubeObject = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { parallelism: 4, completions: 8 } };
    assert.deepEqual(reviseReplicas(j, 2).spec, { parallelism: 2, completions: 8 });
  });
  it('other kinds unchanged', () => {
    const ds = workload('DaemonSet', {});
    assert.equal(reviseReplicas(ds, 2), ds);
  });
});
