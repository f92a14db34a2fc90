// What a tenant reads of an allowed Cluster (ADR 0043): what it needs to place
// workloads (labels, region/zone, taints, conditions, size), never where the
// member's apiserver is nor how Warren reaches it, nor every tenant's usage
// summed (allocated/allocating), in a GET, a list, a Table row or a watch event.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { filterClusterBody, filterClusterEvent, toTenantCluster } from '../../../../src/gateway/clusters/cluster-view.ts';

type Obj = Record<string, unknown>;
const cluster = (name: string): Obj => ({
  apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster',
  metadata: {
    name, uid: `uid-${name}`, resourceVersion: '7', generation: 2, creationTimestamp: '2026-01-01T00:00:00Z', labels: { region: 'eu' },
    annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"spec":{"apiEndpoint":"https://10.0.0.9:6443"}}', 'platform.example/owner': 'ops' },
    managedFields: [{ manager: 'warren' }], finalizers: ['karmada.io/cluster-controller'],
  },
  spec: {
    syncMode: 'Push', apiEndpoint: 'https://10.0.0.9:6443', proxyURL: 'http://proxy:3128', insecureSkipTLSVerification: true, secretRef: { namespace: 'karmada-cluster', name: `${name}-secret` },
    impersonatorSecretRef: { namespace: 'karmada-cluster', name: 'imp' }, provider: 'aws', region: 'eu-west-1', zone: 'a', zones: ['a', 'b'],
    taints: [{ key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule' }], resourceModels: [{ grade: 0, ranges: [] }], id: 'abc',
  },
  status: {
    kubernetesVersion: 'v1.20.15', apiEnablements: [{ groupVersion: 'apps/v1', resources: [] }], conditions: [{ type: 'Ready', status: 'True' }],
    nodeSummary: { totalNum: 3, readyNum: 3 },
    resourceSummary: { allocatable: { cpu: '12', memory: '48Gi' }, allocated: { cpu: '7', memory: '30Gi' }, allocating: { cpu: '1' }, allocatableModelings: [{ grade: 0, count: 2 }] },
  },
});

const SECRETS = ['10.0.0.9', 'proxy:3128', 'secret', 'allocated', 'allocating', 'Modelings', 'last-applied', 'platform.example', 'managedFields', 'insecure', 'resourceModels'];
const leaks = (body: unknown): string[] => SECRETS.filter((s) => JSON.stringify(body).includes(s));

describe('cluster view: what a tenant reads of an allowed Cluster', () => {
  it('keeps what placement needs', () => {
    const seen = toTenantCluster(cluster('member1'));
    assert.deepEqual(seen.spec, { syncMode: 'Push', provider: 'aws', region: 'eu-west-1', zone: 'a', zones: ['a', 'b'], taints: [{ key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule' }] });
    assert.deepEqual(seen.metadata, { name: 'member1', uid: 'uid-member1', resourceVersion: '7', generation: 2, creationTimestamp: '2026-01-01T00:00:00Z', labels: { region: 'eu' } });
    assert.deepEqual((seen.status as Obj).resourceSummary, { allocatable: { cpu: '12', memory: '48Gi' } });
    assert.deepEqual((seen.status as Obj).conditions, [{ type: 'Ready', status: 'True' }]);
    assert.equal((seen.status as Obj).kubernetesVersion, 'v1.20.15');
  });
  it('hides the endpoint, credentials and other tenants\' usage in every shape of response', () => {
    const allowed = new Set(['member1']);
    const list = filterClusterBody({ kind: 'ClusterList', metadata: { remainingItemCount: 1 }, items: [cluster('member1'), cluster('member2')] }, allowed) as { items: Obj[] };
    assert.deepEqual(list.items.map((i) => (i.metadata as Obj).name), ['member1']);
    const table = filterClusterBody({ kind: 'Table', rows: [{ cells: ['member1'], object: cluster('member1') }, { cells: ['member2'], object: cluster('member2') }] }, allowed);
    const event = filterClusterEvent({ type: 'MODIFIED', object: cluster('member1') }, allowed);
    for (const body of [toTenantCluster(cluster('member1')), list, table, event, filterClusterBody(cluster('member1'), allowed)]) assert.deepEqual(leaks(body), []);
    assert.equal(filterClusterBody(cluster('member2'), allowed), undefined);
    assert.equal(filterClusterEvent({ type: 'ADDED', object: cluster('member2') }, allowed), undefined);
  });
  it('does not change the object it was given (the cache\'s)', () => {
    const original = cluster('member1');
    const before = JSON.stringify(original);
    toTenantCluster(original);
    assert.equal(JSON.stringify(original), before);
  });
});
