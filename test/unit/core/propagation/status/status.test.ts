import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { aggregateStatus, interpretHealth, reflectStatus } from '../../../../../src/core/propagation/status/index.ts';
import type { AggregatedStatusItem } from '../../../../../src/core/propagation/karmada-types.ts';
import type { KubeObject } from '../../../../../src/core/types.ts';

const ANN = 'resourcetemplate.karmada.io/generation';
function member(kind: string, generation: number, status: Record<string, unknown> | undefined, spec: Record<string, unknown> = {}, templateGeneration?: number): Record<string, unknown> {
  const metadata: Record<string, unknown> = { name: 'x', namespace: 'ns', generation };
  if (templateGeneration !== undefined) metadata.annotations = { [ANN]: String(templateGeneration) };
  const obj: Record<string, unknown> = { apiVersion: 'apps/v1', kind, metadata, spec };
  if (status) obj.status = status;
  return obj;
}

describe('reflectStatus', () => {
  it('Deployment keeps replica counts and carries both generations', () => {
    const got = reflectStatus(member('Deployment', 2, { replicas: 3, readyReplicas: 3, availableReplicas: 3, updatedReplicas: 3, observedGeneration: 2, conditions: [{ type: 'Available' }] }, {}, 5));
    assert.deepEqual(got, { generation: 2, resourceTemplateGeneration: 5, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 2 });
  });
  it('no status, nothing reflected', () => assert.equal(reflectStatus(member('Deployment', 1, undefined)), undefined));
  it('StatefulSet keeps observedGeneration (Warren) and always replicas', () => {
    assert.deepEqual(reflectStatus(member('StatefulSet', 1, { observedGeneration: 1 })), { generation: 1, replicas: 0, observedGeneration: 1 });
  });
  it('unparsable template generation reflects nothing', () => {
    const m = member('Deployment', 1, { replicas: 1 });
    (m.metadata as any).annotations = { [ANN]: 'x' };
    assert.equal(reflectStatus(m), undefined);
  });
  it('Service: only LoadBalancer, only loadBalancer', () => {
    const lb = { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] }, conditions: [] };
    assert.deepEqual(reflectStatus(member('Service', 0, lb, { type: 'LoadBalancer' })), { loadBalancer: lb.loadBalancer });
    assert.equal(reflectStatus(member('Service', 0, lb, { type: 'ClusterIP' })), undefined);
  });
  it('Job keeps counts, conditions and times', () => {
    const s = { active: 1, succeeded: 2, failed: 0, startTime: 't0', conditions: [{ type: 'Complete', status: 'True' }], uncountedTerminatedPods: {} };
    assert.deepEqual(reflectStatus(member('Job', 1, s)), { active: 1, succeeded: 2, startTime: 't0', conditions: s.conditions });
  });
  it('other kinds reflect their whole status', () => {
    assert.deepEqual(reflectStatus(member('Widget', 1, { phase: 'Ready', x: [1] })), { phase: 'Ready', x: [1] });
  });
});

describe('interpretHealth', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['Deployment ready', member('Deployment', 2, { observedGeneration: 2, updatedReplicas: 3, availableReplicas: 3 }, { replicas: 3 }), 'Healthy'],
    ['Deployment not observed', member('Deployment', 3, { observedGeneration: 2, updatedReplicas: 3, availableReplicas: 3 }, { replicas: 3 }), 'Unhealthy'],
    ['Deployment rolling', member('Deployment', 2, { observedGeneration: 2, updatedReplicas: 2, availableReplicas: 2 }, { replicas: 3 }), 'Unhealthy'],
    ['Deployment unavailable', member('Deployment', 2, { observedGeneration: 2, updatedReplicas: 3, availableReplicas: 1 }, { replicas: 3 }), 'Unhealthy'],
    ['StatefulSet ready', member('StatefulSet', 1, { observedGeneration: 1, updatedReplicas: 1, availableReplicas: 1 }, { replicas: 1 }), 'Healthy'],
    ['ReplicaSet short', member('ReplicaSet', 1, { observedGeneration: 1, availableReplicas: 1 }, { replicas: 2 }), 'Unhealthy'],
    ['DaemonSet ready', member('DaemonSet', 1, { observedGeneration: 1, desiredNumberScheduled: 2, updatedNumberScheduled: 2, numberAvailable: 2 }), 'Healthy'],
    ['DaemonSet behind', member('DaemonSet', 1, { observedGeneration: 1, desiredNumberScheduled: 2, updatedNumberScheduled: 1, numberAvailable: 1 }), 'Unhealthy'],
    ['ClusterIP service', member('Service', 0, {}, { type: 'ClusterIP' }), 'Healthy'],
    ['LB service pending', member('Service', 0, { loadBalancer: {} }, { type: 'LoadBalancer' }), 'Unhealthy'],
    ['LB service with ip', member('Service', 0, { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } }, { type: 'LoadBalancer' }), 'Healthy'],
    ['Ingress without address', member('Ingress', 1, {}), 'Unhealthy'],
    ['PVC bound', member('PersistentVolumeClaim', 0, { phase: 'Bound' }), 'Healthy'],
    ['PVC pending', member('PersistentVolumeClaim', 0, { phase: 'Pending' }), 'Unhealthy'],
    ['Pod running ready', member('Pod', 0, { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }), 'Healthy'],
    ['Pod running not ready', member('Pod', 0, { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] }), 'Unhealthy'],
    ['Pod succeeded', member('Pod', 0, { phase: 'Succeeded' }), 'Healthy'],
    ['PDB', member('PodDisruptionBudget', 1, { currentHealthy: 2, desiredHealthy: 2 }), 'Healthy'],
    ['ConfigMap unknown', member('ConfigMap', 0, undefined), 'Unknown'],
  ];
  for (const [name, obj, want] of cases) it(name, () => assert.equal(interpretHealth(obj), want));
});

function item(clusterName: string, status?: Record<string, unknown>): AggregatedStatusItem {
  return status ? { clusterName, status } : { clusterName };
}
const template = (kind: string, generation: number, status?: Record<string, unknown>, spec: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'apps/v1', kind, metadata: { name: 't', namespace: 'ns', generation }, spec, ...(status ? { status } : {}) });

describe('aggregateStatus', () => {
  const fresh = (replicas: number, ready: number) => ({ generation: 4, resourceTemplateGeneration: 3, observedGeneration: 4, replicas, readyReplicas: ready, updatedReplicas: replicas, availableReplicas: ready });
  it('Deployment sums and advances observedGeneration once every member caught up', () => {
    const got = aggregateStatus(template('Deployment', 3, { observedGeneration: 2, conditions: [{ type: 'x' }] }), [item('m1', fresh(2, 2)), item('m2', { ...fresh(1, 0), unavailableReplicas: 1 })]);
    assert.deepEqual(got, { observedGeneration: 3, conditions: [{ type: 'x' }], replicas: 3, readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2, unavailableReplicas: 1 });
  });
  const stale: Array<[string, AggregatedStatusItem[]]> = [
    ['a member on an older template', [item('m1', fresh(1, 1)), item('m2', { ...fresh(1, 1), resourceTemplateGeneration: 2 })]],
    ['a member whose controller has not observed', [item('m1', fresh(1, 1)), item('m2', { ...fresh(1, 1), observedGeneration: 3 })]],
    ['a member without status', [item('m1', fresh(1, 1)), item('m2')]],
  ];
  for (const [name, items] of stale) {
    it(`Deployment keeps the old observedGeneration with ${name}`, () => {
      assert.equal(aggregateStatus(template('Deployment', 3, { observedGeneration: 2 }), items)?.observedGeneration, 2);
    });
  }
  it('zero counts are omitted as kube omits them', () => {
    assert.deepEqual(aggregateStatus(template('Deployment', 1, { readyReplicas: 5 }), [item('m1', { replicas: 1 })]), { replicas: 1 });
  });
  it('StatefulSet and DaemonSet keep their always-present fields', () => {
    assert.deepEqual(aggregateStatus(template('StatefulSet', 1), [item('a', { replicas: 0 })]), { replicas: 0 });
    assert.deepEqual(aggregateStatus(template('DaemonSet', 1), [item('a', { numberReady: 1, desiredNumberScheduled: 1, currentNumberScheduled: 1 }), item('b', { numberReady: 2, desiredNumberScheduled: 2, currentNumberScheduled: 2 })]),
      { currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 3 });
  });
  it('Job: counts summed, Complete only when complete everywhere', () => {
    const done = { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }], startTime: '2024-01-01T00:00:02Z', completionTime: '2024-01-01T00:01:00Z' };
    const running = { active: 1, startTime: '2024-01-01T00:00:01Z' };
    const half = aggregateStatus(template('Job', 1), [item('a', done), item('b', running)], { now: 'NOW' });
    assert.deepEqual(half, { startTime: '2024-01-01T00:00:01Z', active: 1, succeeded: 1 });
    const all = aggregateStatus(template('Job', 1), [item('a', done), item('b', { ...done, completionTime: '2024-01-01T00:02:00Z' })], { now: 'NOW' });
    assert.deepEqual(all?.conditions, [{ type: 'Complete', status: 'True', lastProbeTime: 'NOW', lastTransitionTime: 'NOW', reason: 'Completed', message: 'Job completed' }]);
    assert.equal(all?.completionTime, '2024-01-01T00:02:00Z');
  });
  it('Job: failure names the clusters; a finished template is left alone', () => {
    const failed = { failed: 1, conditions: [{ type: 'Failed', status: 'True' }] };
    const got = aggregateStatus(template('Job', 1), [item('a', failed), item('b', failed)], { now: 'NOW' });
    assert.equal((got?.conditions as any)[0].message, 'Job executed failed in member clusters a,b');
    const finished = { conditions: [{ type: 'Complete', status: 'True' }], succeeded: 9 };
    assert.deepEqual(aggregateStatus(template('Job', 1, finished), [item('a', failed)]), finished);
  });
  it('LoadBalancer Service collects every ingress, labelled by cluster', () => {
    const got = aggregateStatus(template('Service', 0, undefined, { type: 'LoadBalancer' }), [item('m1', { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } }), item('m2', { loadBalancer: { ingress: [{ hostname: 'lb.example', ip: '2.2.2.2' }] } })]);
    assert.deepEqual(got, { loadBalancer: { ingress: [{ ip: '1.1.1.1', hostname: 'm1' }, { hostname: 'lb.example', ip: '2.2.2.2' }] } });
  });
  const pvc: Array<[string[], string]> = [[['Bound', 'Bound'], 'Bound'], [['Bound', 'Pending'], 'Pending'], [['Pending', 'Lost', 'Bound'], 'Lost']];
  for (const [phases, want] of pvc) {
    it(`PVC ${phases.join('+')} → ${want}`, () => assert.equal(aggregateStatus(template('PersistentVolumeClaim', 0), phases.map((p, i) => item(`m${i}`, { phase: p })))?.phase, want));
  }
  const pods: Array<[Array<string | undefined>, string]> = [[['Running', 'Succeeded'], 'Running'], [['Running', undefined], 'Pending'], [['Succeeded', 'Failed'], 'Failed'], [['Succeeded'], 'Succeeded']];
  for (const [phases, want] of pods) {
    it(`Pod ${phases.join('+')} → ${want}`, () => assert.equal(aggregateStatus(template('Pod', 0), phases.map((p, i) => item(`m${i}`, p ? { phase: p } : undefined)))?.phase, want));
  }
  it('unknown kinds are not aggregated', () => assert.equal(aggregateStatus(template('ConfigMap', 0), [item('a', { x: 1 })]), undefined));
});
