import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pendingStatus, qosClass, runningStatus, succeededStatus } from '../../../../src/apiserver/simulator/pod-status.ts';
import { compressIndexes } from '../../../../src/apiserver/simulator/reconcile-job.ts';
import { setDeploymentCondition } from '../../../../src/apiserver/simulator/conditions.ts';

describe('pod status', () => {
  const qos = [
    { name: 'no resources', containers: [{ name: 'a' }], want: 'BestEffort' },
    { name: 'limits only (requests default to them)', containers: [{ name: 'a', resources: { limits: { cpu: '1', memory: '1Gi' } } }], want: 'Guaranteed' },
    { name: 'requests equal limits', containers: [{ name: 'a', resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } } }], want: 'Guaranteed' },
    { name: 'requests below limits', containers: [{ name: 'a', resources: { requests: { cpu: '500m' }, limits: { cpu: '1', memory: '1Gi' } } }], want: 'Burstable' },
    { name: 'cpu limit only', containers: [{ name: 'a', resources: { limits: { cpu: '1' } } }], want: 'Burstable' },
    { name: 'one guaranteed, one best-effort', containers: [{ name: 'a', resources: { limits: { cpu: '1', memory: '1Gi' } } }, { name: 'b' }], want: 'Burstable' },
  ];
  for (const c of qos) it(`qosClass: ${c.name}`, () => assert.equal(qosClass({ containers: c.containers }), c.want));

  it('goes Pending → Running → Succeeded keeping PodScheduled transition time and kubelet condition order', () => {
    const spec = { containers: [{ name: 'a', image: 'x' }] };
    const pending = pendingStatus(spec, {}, '10.0.0.2', '2025-01-01T00:00:00Z');
    assert.equal(pending.phase, 'Pending');
    assert.equal(pending.podIP, undefined);
    const running = runningStatus(spec, pending, { hostIP: '10.0.0.2', podIP: '10.101.0.1' }, '2025-01-01T00:00:05Z');
    assert.deepEqual(running.conditions?.map((c) => c.type), ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);
    assert.ok(running.conditions?.every((c) => c.status === 'True'));
    assert.equal(running.conditions?.find((c) => c.type === 'PodScheduled')?.lastTransitionTime, '2025-01-01T00:00:00Z');
    assert.equal(running.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime, '2025-01-01T00:00:05Z');
    assert.equal(running.startTime, '2025-01-01T00:00:00Z');
    const done = succeededStatus(spec, running, '2025-01-01T00:00:09Z');
    assert.equal(done.phase, 'Succeeded');
    assert.equal(done.conditions?.find((c) => c.type === 'Ready')?.reason, 'PodCompleted');
    assert.deepEqual((done.containerStatuses?.[0]?.state as any).terminated, { exitCode: 0, reason: 'Completed', startedAt: '2025-01-01T00:00:05Z', finishedAt: '2025-01-01T00:00:09Z' });
  });
});

describe('job completed indexes', () => {
  const cases = [
    { indexes: [], want: '' },
    { indexes: [0], want: '0' },
    { indexes: [2, 0, 1], want: '0-2' },
    { indexes: [0, 1, 2, 5, 7, 8, 8], want: '0-2,5,7-8' },
  ];
  for (const c of cases) it(`[${c.indexes.join(',')}] → "${c.want}"`, () => assert.equal(compressIndexes(c.indexes), c.want));
});

describe('deployment conditions', () => {
  it('same status and reason is a no-op; new reason keeps lastTransitionTime', () => {
    const first = setDeploymentCondition([], { type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated', message: 'a' }, 't1');
    assert.equal(setDeploymentCondition(first, { type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated', message: 'a' }, 't2'), first);
    const second = setDeploymentCondition(first, { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: 'b' }, 't3');
    assert.equal(second[0]?.lastTransitionTime, 't1');
    assert.equal(second[0]?.lastUpdateTime, 't3');
  });
});
