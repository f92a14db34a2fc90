import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyDefaults } from '../../../../src/apiserver/validation/defaults.ts';
import { defaultPullPolicy } from '../../../../src/apiserver/validation/defaults-pod.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

const container = { name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] };
const defaultedContainer = {
  name: 'c', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }], imagePullPolicy: 'Always',
  terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', resources: {},
};
const templateSpec = {
  containers: [defaultedContainer], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst',
  terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler', securityContext: {},
};

describe('applyDefaults', () => {
  it('Deployment', () => {
    const d = applyDefaults({ group: 'apps', resource: 'deployments' }, {
      metadata: { name: 'web' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [structuredClone(container)] } } },
    } as KubeObject);
    assert.deepEqual(d.spec, {
      selector: { matchLabels: { a: 'b' } },
      template: { metadata: { labels: { a: 'b' } }, spec: templateSpec },
      replicas: 1, strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10, progressDeadlineSeconds: 600,
    });
  });
  it('Deployment with Recreate gets no rollingUpdate, and set values stay', () => {
    const d = applyDefaults({ group: 'apps', resource: 'deployments' }, { metadata: {}, spec: { replicas: 0, strategy: { type: 'Recreate' } } });
    assert.deepEqual(d.spec, { replicas: 0, strategy: { type: 'Recreate' }, revisionHistoryLimit: 10, progressDeadlineSeconds: 600 });
  });
  it('Pod gets admission defaults too', () => {
    const p = applyDefaults({ group: '', resource: 'pods' }, { metadata: {}, spec: { containers: [structuredClone(container)] } });
    const spec = p.spec as Record<string, unknown>;
    assert.equal(spec.serviceAccountName, 'default');
    assert.equal(spec.enableServiceLinks, true);
    assert.deepEqual(spec.tolerations, [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    assert.deepEqual((spec.containers as unknown[])[0], defaultedContainer);
  });
  it('Service', () => {
    const s = applyDefaults({ group: '', resource: 'services' }, { metadata: {}, spec: { ports: [{ port: 80 }] } }, { allocateClusterIP: () => '10.96.0.10' });
    assert.deepEqual(s.spec, {
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }], type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster',
      clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack',
    });
  });
  it('Namespace', () => {
    const n = applyDefaults({ group: '', resource: 'namespaces' }, { metadata: { name: 'team', labels: { 'kubernetes.io/metadata.name': 'lie' } } });
    assert.deepEqual(n, { metadata: { name: 'team', labels: { 'kubernetes.io/metadata.name': 'team' } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
  });
  it('Secret, Job, CronJob, StatefulSet, DaemonSet', () => {
    assert.equal(applyDefaults({ group: '', resource: 'secrets' }, { metadata: {} } as KubeObject).type, 'Opaque');
    const job = applyDefaults({ group: 'batch', resource: 'jobs' }, { metadata: {}, spec: { template: { spec: { containers: [{ name: 'c', image: 'x:1' }] } } } });
    const js = job.spec as Record<string, unknown>;
    assert.deepEqual([js.completions, js.parallelism, js.backoffLimit, js.completionMode, js.suspend], [1, 1, 6, 'NonIndexed', false]);
    const cj = applyDefaults({ group: 'batch', resource: 'cronjobs' }, { metadata: {}, spec: { schedule: '@hourly' } });
    assert.deepEqual(cj.spec, { schedule: '@hourly', concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    const sts = applyDefaults({ group: 'apps', resource: 'statefulsets' }, { metadata: {}, spec: {} });
    assert.deepEqual(sts.spec, {
      replicas: 1, podManagementPolicy: 'OrderedReady', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      revisionHistoryLimit: 10, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    });
    const ds = applyDefaults({ group: 'apps', resource: 'daemonsets' }, { metadata: {}, spec: {} });
    assert.deepEqual(ds.spec, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, revisionHistoryLimit: 10 });
  });
  it('unknown kinds are left alone', () => {
    const o = { metadata: { name: 'a' }, spec: { x: 1 } };
    assert.deepEqual(applyDefaults({ group: 'a.com', resource: 'foos' }, structuredClone(o)), o);
  });
});

describe('defaultPullPolicy', () => {
  const cases: Array<[string, string]> = [
    ['nginx', 'Always'], ['nginx:latest', 'Always'], ['nginx:1.27', 'IfNotPresent'],
    ['localhost:5000/app', 'Always'], ['localhost:5000/app:v1', 'IfNotPresent'], ['app@sha256:abc', 'IfNotPresent'], ['', 'Always'],
  ];
  for (const [image, want] of cases) it(image || '(empty)', () => assert.equal(defaultPullPolicy(image), want));
});
