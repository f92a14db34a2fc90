// The manifest a member gets, and its Work: pruneTemplate, manifestFor,
// buildWork and memberManifest.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildWork, manifestFor, memberManifest, pruneTemplate } from '../../../../../src/core/propagation/binding/build-work.ts';
import type { Cluster, OverridePolicy } from '../../../../../src/core/propagation/karmada-types.ts';
import type { KubeObject } from '../../../../../src/core/types.ts';
import { TENANT_LABEL } from '../../../../../src/core/tenancy/tenant-id.ts';

const ctx = { id: 'acme01' };
const UP_NS = 'acme01-apps';

const upstreamDeployment = (): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: {
    name: 'web', namespace: UP_NS, uid: 'u-1', resourceVersion: '42', generation: 3, creationTimestamp: '2024-01-01T00:00:00Z',
    managedFields: [{ manager: 'kubectl' }], ownerReferences: [], finalizers: ['x'], selfLink: '/x',
    labels: { app: 'web', [TENANT_LABEL]: 'acme01' },
    annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', 'deployment.kubernetes.io/revision': '3', note: 'keep' },
  },
  spec: { replicas: 6, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } } },
  status: { replicas: 6, readyReplicas: 6 },
} as unknown as KubeObject);

const member = (name: string): Cluster => ({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name }, spec: {} });

describe('pruneTemplate', () => {
  it('turns the upstream template into the tenant\'s manifest without server-set fields or status', () => {
    const pruned = pruneTemplate(ctx, upstreamDeployment());
    assert.ok(pruned);
    // The template's generation travels as Karmada's annotation (issue 14: observedGeneration needs it back).
    assert.deepEqual(pruned.metadata, { name: 'web', namespace: 'apps', labels: { app: 'web' }, annotations: { note: 'keep', 'resourcetemplate.karmada.io/generation': '3' } });
    assert.equal(pruned.status, undefined);
    assert.equal((pruned.spec as { replicas: number }).replicas, 6);
  });

  it('drops annotations entirely when only dropped ones were there, and leaves its input alone', () => {
    const up = upstreamDeployment();
    up.metadata.annotations = { 'kubectl.kubernetes.io/last-applied-configuration': '{}' };
    delete up.metadata.generation;
    const before = structuredClone(up);
    assert.equal(pruneTemplate(ctx, up)?.metadata.annotations, undefined);
    assert.deepEqual(up, before);
  });

  it('the generation annotation is the engine\'s: a tenant\'s own value is replaced, or dropped without a generation', () => {
    const up = upstreamDeployment();
    up.metadata.annotations = { 'resourcetemplate.karmada.io/generation': '99' };
    assert.deepEqual(pruneTemplate(ctx, up)?.metadata.annotations, { 'resourcetemplate.karmada.io/generation': '3' });
    delete up.metadata.generation;
    assert.equal(pruneTemplate(ctx, up)?.metadata.annotations, undefined);
  });

  it('is undefined for another tenant\'s object', () => {
    const other = upstreamDeployment();
    other.metadata.namespace = 'zzzz99-apps';
    other.metadata.labels = { [TENANT_LABEL]: 'zzzz99' };
    assert.equal(pruneTemplate(ctx, other), undefined);
  });

  const service = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: UP_NS, labels: { [TENANT_LABEL]: 'acme01' } }, spec } as unknown as KubeObject);
  const table: Array<{ name: string; obj: KubeObject; want: Record<string, unknown> }> = [
    { name: 'Service clusterIP and clusterIPs are dropped', obj: service({ clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'], ports: [{ port: 80 }] }), want: { ports: [{ port: 80 }] } },
    { name: 'a headless Service keeps clusterIP None', obj: service({ clusterIP: 'None', clusterIPs: ['None'] }), want: { clusterIP: 'None', clusterIPs: ['None'] } },
    {
      name: 'Job selector and controller-uid labels are dropped',
      obj: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', namespace: UP_NS, labels: { [TENANT_LABEL]: 'acme01' } },
        spec: { selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'abc' } }, template: { metadata: { labels: { 'controller-uid': 'abc', 'batch.kubernetes.io/controller-uid': 'abc', 'job-name': 'j', 'batch.kubernetes.io/job-name': 'j', app: 'x' } } } } } as unknown as KubeObject,
      want: { template: { metadata: { labels: { app: 'x' } } } },
    },
    {
      name: 'a Job with manualSelector keeps its selector',
      obj: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', namespace: UP_NS, labels: { [TENANT_LABEL]: 'acme01' } }, spec: { manualSelector: true, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } } } } } as unknown as KubeObject,
      want: { manualSelector: true, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } } } },
    },
    {
      name: 'PVC volumeName is dropped',
      obj: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c', namespace: UP_NS, labels: { [TENANT_LABEL]: 'acme01' } }, spec: { volumeName: 'acme01-pv-1', resources: { requests: { storage: '1Gi' } } } } as unknown as KubeObject,
      want: { resources: { requests: { storage: '1Gi' } } },
    },
  ];
  for (const t of table) it(t.name, () => assert.deepEqual(pruneTemplate(ctx, t.obj)?.spec, t.want));
});

describe('manifestFor', () => {
  const pruned = pruneTemplate(ctx, upstreamDeployment())!;
  const imageOverride: OverridePolicy = {
    apiVersion: 'policy.karmada.io/v1alpha1', kind: 'OverridePolicy', metadata: { name: 'images', namespace: 'apps' },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
      overrideRules: [{ targetCluster: { clusterNames: ['m1'] }, overriders: { plaintext: [{ path: '/spec/template/spec/containers/0/image', operator: 'replace', value: 'nginx:2' }] } }],
    },
  };
  const image = (m: KubeObject): unknown => (m.spec as any).template.spec.containers[0].image;

  it('divided: the cluster\'s share of replicas; overrides for that cluster applied and reported', () => {
    const out = manifestFor(pruned, { name: 'm1', replicas: 2 }, member('m1'), true, [imageOverride], []);
    assert.equal((out.manifest.spec as { replicas: number }).replicas, 2);
    assert.equal(image(out.manifest), 'nginx:2');
    assert.deepEqual(out.applied, [{ policy: 'images', namespaced: true }]);
    assert.equal((pruned.spec as { replicas: number }).replicas, 6, 'the pruned template is not mutated');
  });

  it('another cluster: no override; duplicated keeps the template\'s replicas', () => {
    const out = manifestFor(pruned, { name: 'm2', replicas: 2 }, member('m2'), false, [imageOverride], []);
    assert.equal((out.manifest.spec as { replicas: number }).replicas, 6);
    assert.equal(image(out.manifest), 'nginx:1');
    assert.deepEqual(out.applied, []);
  });

  it('divided without a replica count leaves replicas alone', () => {
    assert.equal((manifestFor(pruned, { name: 'm2' }, member('m2'), true, [], []).manifest.spec as { replicas: number }).replicas, 6);
  });

  it('property: divided replicas are whatever the target says, never the template\'s', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1000 }), (n) => (manifestFor(pruned, { name: 'm', replicas: n }, member('m'), true, [], []).manifest.spec as { replicas: number }).replicas === n));
  });
});

describe('buildWork and memberManifest', () => {
  const manifest = pruneTemplate(ctx, upstreamDeployment())!;
  const marks = {
    tenantLabel: { [TENANT_LABEL]: 'acme01' },
    labels: { 'karmada.io/managed': 'true', 'resourcebinding.karmada.io/permanent-id': 'b-uid' },
    annotations: { 'resourcetemplate.karmada.io/generation': '3' },
  };

  it('buildWork: the manifest in tenant terms, in the execution namespace, with the marks', () => {
    const work = buildWork('web-deployment-abc', 'acme01-karmada-es-m1', manifest, marks, { suspendDispatching: false, preserveResourcesOnDeletion: false });
    assert.deepEqual(work.metadata, {
      name: 'web-deployment-abc', namespace: 'acme01-karmada-es-m1',
      labels: { [TENANT_LABEL]: 'acme01', 'karmada.io/managed': 'true', 'resourcebinding.karmada.io/permanent-id': 'b-uid' },
      annotations: { 'resourcetemplate.karmada.io/generation': '3' },
    });
    assert.deepEqual(work.spec, { workload: { manifests: [manifest] } });
    assert.equal(work.spec.workload.manifests[0]?.metadata.namespace, 'apps');
  });

  it('buildWork: suspendDispatching and preserveResourcesOnDeletion only when set', () => {
    const work = buildWork('w', 'ns', manifest, marks, { suspendDispatching: true, preserveResourcesOnDeletion: true });
    assert.equal(work.spec.suspendDispatching, true);
    assert.equal(work.spec.preserveResourcesOnDeletion, true);
  });

  it('memberManifest: tenant prefix and tenant label, plus the engine\'s marks, keeping the object\'s own', () => {
    const obj = memberManifest(ctx, manifest, { labels: marks.labels, annotations: marks.annotations });
    assert.equal(obj.metadata.namespace, UP_NS);
    assert.deepEqual(obj.metadata.labels, { app: 'web', [TENANT_LABEL]: 'acme01', ...marks.labels });
    assert.deepEqual(obj.metadata.annotations, { note: 'keep', ...marks.annotations });
    assert.equal(manifest.metadata.namespace, 'apps', 'the Work\'s manifest is not mutated');
    assert.deepEqual(pruneTemplate(ctx, obj)?.metadata.labels, { app: 'web', ...marks.labels }, 'back in tenant terms: the prefix and tenant label go away');
  });

  it('memberManifest: what the manifest says under Karmada\'s and Warren\'s keys goes; the marks and the tenant label are the engine\'s', () => {
    const forged = structuredClone(manifest);
    forged.metadata.labels = { app: 'web', 'resourcebinding.karmada.io/permanent-id': 'uid-of-b', 'clusterresourcebinding.karmada.io/permanent-id': 'uid-of-b',
      'propagationpolicy.karmada.io/name': 'theirs', 'propagation.warren.dev/binding-uid': 'uid-of-b', [TENANT_LABEL]: 'bbbbbb', 'example.com/karmada.io': 'kept' };
    forged.metadata.annotations = { note: 'keep', 'work.karmada.io/name': 'theirs', 'resourcetemplate.karmada.io/generation': '99', 'tenancy.warren.dev/tenant': 'bbbbbb' };
    const obj = memberManifest(ctx, forged, { labels: marks.labels, annotations: marks.annotations });
    assert.deepEqual(obj.metadata.labels, { app: 'web', 'example.com/karmada.io': 'kept', [TENANT_LABEL]: 'acme01', ...marks.labels });
    assert.deepEqual(obj.metadata.annotations, { note: 'keep', ...marks.annotations });
  });

  // s4's find: the labels of a workload's pod template reach every pod a member's controllers make from it. A
  // member is shared by tenants, and what reads those pods' labels there (the engine's member informers list
  // `karmada.io/managed=true` objects and route each by its permanent id; Karmada's tools) must see no value a
  // tenant chose under an engine key: a forged permanent id would route A's pod churn to B's binding.
  const ENGINE_KEYS_FORGED = fc.dictionary(fc.constantFrom('karmada.io/managed', 'resourcebinding.karmada.io/permanent-id', 'clusterresourcebinding.karmada.io/permanent-id',
    'propagationpolicy.karmada.io/name', 'work.karmada.io/name', 'propagation.warren.dev/held', 'propagation.warren.dev/binding-uid', TENANT_LABEL), fc.constantFrom('true', 'uid-of-b', 'bbbbbb', 'theirs'), { maxKeys: 5 });
  const WORKLOADS: Array<{ kind: string; apiVersion: string; templateAt: (spec: Record<string, unknown>) => { metadata?: { labels?: Record<string, string> } } | undefined }> = [
    { kind: 'Deployment', apiVersion: 'apps/v1', templateAt: (s) => s.template as never },
    { kind: 'StatefulSet', apiVersion: 'apps/v1', templateAt: (s) => s.template as never },
    { kind: 'DaemonSet', apiVersion: 'apps/v1', templateAt: (s) => s.template as never },
    { kind: 'Job', apiVersion: 'batch/v1', templateAt: (s) => s.template as never },
    { kind: 'CronJob', apiVersion: 'batch/v1beta1', templateAt: (s) => ((s.jobTemplate as { spec: { template: unknown } }).spec.template) as never },
  ];
  it('property: a workload\'s pod template reaches the member with the tenant\'s own labels and tenant label, nothing under an engine key', () => {
    fc.assert(fc.property(fc.constantFrom(...WORKLOADS), ENGINE_KEYS_FORGED, fc.dictionary(fc.constantFrom('app', 'tier', 'example.com/karmada.io'), fc.constantFrom('web', 'x')), (w, forged, own) => {
      const pod = { metadata: { labels: { ...own, ...forged } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
      const spec: Record<string, unknown> = w.kind === 'CronJob' ? { schedule: '* * * * *', jobTemplate: { metadata: { labels: { ...forged } }, spec: { template: pod } } } : { selector: { matchLabels: own }, template: pod };
      const manifest: KubeObject = { apiVersion: w.apiVersion, kind: w.kind, metadata: { name: 'web', namespace: 'apps' }, spec };
      const obj = memberManifest(ctx, manifest, { labels: marks.labels, annotations: marks.annotations });
      const labels = w.templateAt(obj.spec as Record<string, unknown>)?.metadata?.labels;
      assert.deepEqual(labels, { ...own, [TENANT_LABEL]: 'acme01' }, JSON.stringify(forged));
      if (w.kind === 'CronJob') {
        const jobLabels = ((obj.spec as { jobTemplate: { metadata?: { labels?: Record<string, string> } } }).jobTemplate.metadata?.labels) ?? {};
        assert.ok(Object.keys(jobLabels).every((k) => k === TENANT_LABEL || !/karmada\.io\/|warren\.dev\//.test(k)), JSON.stringify(jobLabels));
      }
    }), { numRuns: 300 });
  });
});
