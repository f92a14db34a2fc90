import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../../src/core/types.ts';
import { buildUsage, type QuotaObject } from '../../../../../src/core/tenancy/quota/object-demand.ts';
import { formatUsage } from '../../../../../src/core/tenancy/quota/quota-decision.ts';

const podSpec = (cpu: string, memory = '0') => ({ containers: [{ name: 'c', resources: { requests: { cpu, memory } } }] });
const obj = (kind: string, spec: unknown, extra: Partial<KubeObject> = {}): KubeObject => ({ apiVersion: 'v1', kind, metadata: { name: 'x', namespace: 'ns', ...(extra.metadata ?? {}) }, spec, ...(extra.status ? { status: extra.status } : {}) });
const item = (group: string, resource: string, o: KubeObject): QuotaObject => ({ group, resource, obj: o });
const template = (cpu: string) => ({ template: { spec: podSpec(cpu) } });
const usage = (items: QuotaObject[]) => formatUsage(buildUsage(items));

describe('tenant quota: what counts', () => {
  const cases: Array<[string, QuotaObject[], { cpu: string; memory?: string; storage?: string }]> = [
    ['a bare pod counts once', [item('', 'pods', obj('Pod', podSpec('500m', '1Gi')))], { cpu: '500m', memory: '1Gi' }],
    ['a finished pod counts nothing', [item('', 'pods', obj('Pod', podSpec('1'), { status: { phase: 'Succeeded' } }))], { cpu: '0' }],
    ['a pod a ReplicaSet controls is counted by its template', [item('', 'pods', obj('Pod', podSpec('1'), { metadata: { name: 'p', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r', uid: 'u', controller: true }] } }))], { cpu: '0' }],
    ['a pod owned by something not counted counts', [item('', 'pods', obj('Pod', podSpec('1'), { metadata: { name: 'p', ownerReferences: [{ apiVersion: 'x/v1', kind: 'Operator', name: 'r', uid: 'u', controller: true }] } }))], { cpu: '1' }],
    ['a Deployment counts template × replicas', [item('apps', 'deployments', obj('Deployment', { replicas: 3, ...template('250m') }))], { cpu: '750m' }],
    ['replicas default to 1', [item('apps', 'statefulsets', obj('StatefulSet', template('2')))], { cpu: '2' }],
    ['a ReplicaSet a Deployment controls is not counted again', [item('apps', 'replicasets', obj('ReplicaSet', { replicas: 2, ...template('1') }, { metadata: { name: 'r', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u', controller: true }] } }))], { cpu: '0' }],
    ['a Job counts min(parallelism, completions − succeeded)', [item('batch', 'jobs', obj('Job', { parallelism: 4, completions: 5, ...template('1') }, { status: { succeeded: 3 } }))], { cpu: '2' }],
    ['a suspended Job counts nothing', [item('batch', 'jobs', obj('Job', { suspend: true, ...template('1') }))], { cpu: '0' }],
    ['a finished Job counts nothing', [item('batch', 'jobs', obj('Job', template('1'), { status: { conditions: [{ type: 'Complete', status: 'True' }] } }))], { cpu: '0' }],
    ['a DaemonSet counts one pod', [item('apps', 'daemonsets', obj('DaemonSet', template('300m')))], { cpu: '300m' }],
    ['limits stand in for missing requests', [item('', 'pods', obj('Pod', { containers: [{ name: 'c', resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { memory: '256Mi' } } }] }))], { cpu: '1', memory: '256Mi' }],
    ['the largest init container raises the pod', [item('', 'pods', obj('Pod', { containers: [{ name: 'c', resources: { requests: { cpu: '100m' } } }], initContainers: [{ name: 'i', resources: { requests: { cpu: '1' } } }] }))], { cpu: '1' }],
    ['a PVC counts its storage request', [item('', 'persistentvolumeclaims', obj('PersistentVolumeClaim', { resources: { requests: { storage: '5Gi' } } }))], { cpu: '0', storage: '5Gi' }],
    ['StatefulSet claims count × replicas, an existing claim once at its own size', [
      item('apps', 'statefulsets', obj('StatefulSet', { replicas: 3, ...template('0'), volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1Gi' } } } }] }, { metadata: { name: 'db' } })),
      item('', 'persistentvolumeclaims', obj('PersistentVolumeClaim', { resources: { requests: { storage: '2Gi' } } }, { metadata: { name: 'data-db-0' } })),
    ], { cpu: '0', storage: '4Gi' }],
  ];
  for (const [name, items, want] of cases) {
    it(name, () => {
      const got = usage(items);
      assert.equal(got.cpu, want.cpu);
      if (want.memory) assert.equal(got.memory, want.memory);
      if (want.storage) assert.equal(got.storage, want.storage);
    });
  }
});
