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
    const got = reflectStatus(member('Deployment', 2, { replicas: 3, readyReplicas: 3, availableReplicas: 3, updatedReplicas: 3, observedGeneration: 2 }, {}, 5));
    assert.deepEqual(got, { generation: 2, resourceTemplateGeneration: 5, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 2 });
  });
  it('Deployment: Available and Progressing travel (Warren, issue 14), without times; other types do not', () => {
    const conditions = [
      { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'm', lastUpdateTime: 't', lastTransitionTime: 't' },
      { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: 'p', lastUpdateTime: 't', lastTransitionTime: 't' },
      { type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'f' },
    ];
    const got = reflectStatus(member('Deployment', 2, { replicas: 1, observedGeneration: 2, conditions }, {}, 5));
    assert.deepEqual(got?.conditions, [
      { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'm' },
      { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: 'p' },
    ]);
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
  describe('Deployment conditions from the members\' (issue 14: kubectl wait --for=condition=Available)', () => {
    const cond = (type: string, status: string, reason: string, message = '') => ({ type, status, reason, message });
    const ok = (rs = 'ReplicaSet "web-5d8" has successfully progressed.') => ({ ...fresh(1, 1), conditions: [cond('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'), cond('Progressing', 'True', 'NewReplicaSetAvailable', rs)] });
    const rolling = { ...fresh(1, 0), conditions: [cond('Available', 'False', 'MinimumReplicasUnavailable'), cond('Progressing', 'True', 'ReplicaSetUpdated')] };
    const stuck = { ...fresh(1, 0), conditions: [cond('Available', 'False', 'MinimumReplicasUnavailable'), cond('Progressing', 'False', 'ProgressDeadlineExceeded')] };
    const of = (s: Record<string, unknown> | undefined, type: string) => (s?.conditions as Array<Record<string, unknown>> | undefined)?.find((c) => c.type === type);

    it('every member available and complete: Available True, Progressing NewReplicaSetAvailable with the members\' message', () => {
      const got = aggregateStatus(template('Deployment', 3), [item('m1', ok()), item('m2', ok())], { now: 'T1' });
      assert.deepEqual(got?.conditions, [
        { type: 'Available', status: 'True', lastUpdateTime: 'T1', lastTransitionTime: 'T1', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' },
        { type: 'Progressing', status: 'True', lastUpdateTime: 'T1', lastTransitionTime: 'T1', reason: 'NewReplicaSetAvailable', message: 'ReplicaSet "web-5d8" has successfully progressed.' },
      ]);
    });
    it('members naming different ReplicaSets: a message of Warren\'s own', () => {
      const got = aggregateStatus(template('Deployment', 3), [item('m1', ok()), item('m2', ok('ReplicaSet "web-9zz" has successfully progressed.'))], { now: 'T1' });
      assert.equal(of(got, 'Progressing')?.message, 'Deployment has successfully progressed in every member cluster.');
    });
    it('one member rolling: Available False naming it, Progressing ReplicaSetUpdated', () => {
      const got = aggregateStatus(template('Deployment', 3), [item('m1', ok()), item('m2', rolling)], { now: 'T1' });
      assert.deepEqual(of(got, 'Available'), { type: 'Available', status: 'False', lastUpdateTime: 'T1', lastTransitionTime: 'T1', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability in member clusters: m2.' });
      assert.equal(of(got, 'Progressing')?.reason, 'ReplicaSetUpdated');
      assert.equal(of(got, 'Progressing')?.status, 'True');
    });
    it('a member past its progress deadline: Progressing False ProgressDeadlineExceeded (kubectl rollout status fails, as on one cluster)', () => {
      const got = aggregateStatus(template('Deployment', 3), [item('m1', ok()), item('m2', stuck)], { now: 'T1' });
      assert.deepEqual(of(got, 'Progressing'), { type: 'Progressing', status: 'False', lastUpdateTime: 'T1', lastTransitionTime: 'T1', reason: 'ProgressDeadlineExceeded', message: 'Deployment has timed out progressing in member clusters: m2.' });
    });
    it('a member without status yet counts as not available', () => {
      assert.equal(of(aggregateStatus(template('Deployment', 3), [item('m1', ok()), item('m2')], { now: 'T1' }), 'Available')?.status, 'False');
    });
    it('times move only with the condition: an unchanged aggregate is unchanged', () => {
      const first = aggregateStatus(template('Deployment', 3), [item('m1', ok())], { now: 'T1' });
      const again = aggregateStatus(template('Deployment', 3, first), [item('m1', ok())], { now: 'T2' });
      assert.deepEqual(again, first);
      const worse = aggregateStatus(template('Deployment', 3, first), [item('m1', rolling)], { now: 'T3' });
      assert.equal(of(worse, 'Available')?.lastTransitionTime, 'T3');
      assert.equal(of(worse, 'Progressing')?.lastTransitionTime, 'T1', 'Progressing stayed True');
      assert.equal(of(worse, 'Progressing')?.lastUpdateTime, 'T3', 'its reason changed');
    });
    it('no member reports conditions: the template\'s are left as they were', () => {
      assert.deepEqual(aggregateStatus(template('Deployment', 3, { conditions: [{ type: 'x' }] }), [item('m1', fresh(1, 1))])?.conditions, [{ type: 'x' }]);
      assert.equal(aggregateStatus(template('Deployment', 3), [item('m1', fresh(1, 1))])?.conditions, undefined);
    });
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
  it('Job: SuccessCriteriaMet beside Complete once every member met it (Karmada; a 1.33 apiserver requires it with Complete)', () => {
    const met = { succeeded: 1, startTime: 'T1', completionTime: 'T2', conditions: [{ type: 'SuccessCriteriaMet', status: 'True' }, { type: 'Complete', status: 'True' }] };
    const old = { succeeded: 1, startTime: 'T1', completionTime: 'T2', conditions: [{ type: 'Complete', status: 'True' }] };
    const both = aggregateStatus(template('Job', 1), [item('a', met), item('b', met)], { now: 'NOW' });
    assert.deepEqual((both?.conditions as Array<{ type: string }>).map((c) => c.type), ['Complete', 'SuccessCriteriaMet']);
    assert.equal((both?.conditions as Array<{ reason: string }>)[1]?.reason, 'CompletionsReached');
    const mixed = aggregateStatus(template('Job', 1), [item('a', met), item('b', old)], { now: 'NOW' });
    assert.deepEqual((mixed?.conditions as Array<{ type: string }>).map((c) => c.type), ['Complete']);
  });
  it('Job: startTime only once every member started, then kept (Karmada)', () => {
    const started = { active: 1, startTime: '2024-01-01T00:00:05Z' };
    assert.equal(aggregateStatus(template('Job', 1), [item('a', started), item('b', { active: 0 })], { now: 'NOW' })?.startTime, undefined);
    assert.equal(aggregateStatus(template('Job', 1), [item('a', started), item('b')], { now: 'NOW' })?.startTime, undefined, 'a member without status has not started');
    assert.equal(aggregateStatus(template('Job', 1, { startTime: '2024-01-01T00:00:09Z' }), [item('a', started)], { now: 'NOW' })?.startTime, '2024-01-01T00:00:09Z');
  });
  it('Pod: no member status at all leaves the template\'s status as it is (Karmada)', () => {
    const status = { phase: 'Pending' };
    assert.deepEqual(aggregateStatus(template('Pod', 0, status), []), status);
    assert.equal(aggregateStatus(template('Pod', 0, status), [item('a')])?.phase, 'Pending');
  });
  it('Job: failure names the clusters; a finished template is left alone', () => {
    const failed = { failed: 1, conditions: [{ type: 'Failed', status: 'True' }] };
    const got = aggregateStatus(template('Job', 1), [item('a', failed), item('b', failed)], { now: 'NOW' });
    assert.equal((got?.conditions as any)[0].message, 'Job executed failed in member clusters a,b');
    const finished = { conditions: [{ type: 'Complete', status: 'True' }], succeeded: 9 };
    assert.deepEqual(aggregateStatus(template('Job', 1, finished), [item('a', failed)]), finished);
  });
  it('LoadBalancer Service collects every ingress as Karmada does: deduplicated (ports merged), hostnames first, then by ip', () => {
    const got = aggregateStatus(template('Service', 0, undefined, { type: 'LoadBalancer' }), [
      item('m1', { loadBalancer: { ingress: [{ ip: '2.2.2.2', ports: [{ port: 443, protocol: 'TCP' }] }, { ip: '1.1.1.1' }] } }),
      item('m2', { loadBalancer: { ingress: [{ hostname: 'lb.example', ip: '3.3.3.3' }, { ip: '2.2.2.2', ports: [{ port: 80, protocol: 'TCP' }, { port: 443, protocol: 'TCP' }] }] } }),
    ]);
    assert.deepEqual(got, { loadBalancer: { ingress: [
      { hostname: 'lb.example', ip: '3.3.3.3' },
      { ip: '1.1.1.1' },
      { ip: '2.2.2.2', ports: [{ port: 80, protocol: 'TCP' }, { port: 443, protocol: 'TCP' }] },
    ] } });
    assert.deepEqual(aggregateStatus(template('Ingress', 0), [item('m1', { loadBalancer: { ingress: [{ ip: '9.9.9.9' }] } }), item('m2', { loadBalancer: { ingress: [{ ip: '9.9.9.9' }] } })]),
      { loadBalancer: { ingress: [{ ip: '9.9.9.9' }] } });
  });
  it('a ClusterIP Service keeps its own status', () => {
    assert.deepEqual(aggregateStatus(template('Service', 0, { loadBalancer: {} }, { type: 'ClusterIP' }), [item('m1')]), { loadBalancer: {} });
  });
  it('Pod keeps init containers\' readiness and state too', () => {
    const got = aggregateStatus(template('Pod', 0), [item('m1', { phase: 'Running', initContainerStatuses: [{ name: 'i', ready: true, state: { terminated: { exitCode: 0 } }, image: 'x' }], containerStatuses: [{ name: 'c', ready: true, restartCount: 3 }] })]);
    assert.deepEqual(got, { phase: 'Running', containerStatuses: [{ ready: true }], initContainerStatuses: [{ ready: true, state: { terminated: { exitCode: 0 } } }] });
  });
  it('HorizontalPodAutoscaler sums current and desired replicas, nothing else', () => {
    assert.deepEqual(aggregateStatus(template('HorizontalPodAutoscaler', 1, { conditions: [{ type: 'AbleToScale' }] }), [item('a', { currentReplicas: 2, desiredReplicas: 3 }), item('b', { desiredReplicas: 1 }), item('c')]),
      { currentReplicas: 2, desiredReplicas: 4 });
  });
  it('observedGeneration: members ahead of this template copy have observed it too (Karmada\'s >=)', () => {
    const ahead = { ...fresh(1, 1), resourceTemplateGeneration: 4, observedGeneration: 5, generation: 5 };
    assert.equal(aggregateStatus(template('Deployment', 3, { observedGeneration: 2 }), [item('m1', fresh(1, 1)), item('m2', ahead)])?.observedGeneration, 3);
    for (const kind of ['StatefulSet', 'DaemonSet', 'ReplicaSet']) {
      assert.equal(aggregateStatus(template(kind, 3, { observedGeneration: 1 }), [item('m1', fresh(1, 1))])?.observedGeneration, 3, kind);
      assert.equal(aggregateStatus(template(kind, 3, { observedGeneration: 1 }), [item('m1', { ...fresh(1, 1), resourceTemplateGeneration: 2 })])?.observedGeneration, 1, kind);
    }
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
