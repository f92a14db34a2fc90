// What the engine's informers hold per object, measured: `node --expose-gc
// --import tsx bench/propagation-heap.ts` parses 20,000 objects of each kind
// from their own JSON text (as an informer gets them; 10 Works and 10 member
// copies per binding, as at the burst) and prints the heap each keeps after a
// full GC, whole and as the engine's view (work-view.ts, member-view.ts). The
// objects are shaped as the embedded apiserver returns them (managedFields
// included). A diagnostic, not a suite (docs/benchmarks.md, session 7). For what a
// whole engine keeps after a run: PROPAGATION_HEAP_SNAPSHOT_DIR and bench/heap-summary.ts.
import { workView } from '../src/controllers/propagation/work-view.ts';
import { memberView } from '../src/controllers/propagation/member-view.ts';
import { bindingView } from '../src/controllers/propagation/binding-view.ts';
const N = 20_000;
const gc = (globalThis as { gc?: () => void }).gc ?? ((): never => { throw new Error('run with node --expose-gc'); });
const deployment = (i: number, upstream: boolean) => ({
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: `web-${String(i).padStart(5, '0')}`, namespace: upstream ? 'abcdef-load' : 'load', labels: { app: `web-${i}`, 'tenancy.warren.dev/tenant': 'abcdef', ...(upstream ? { 'karmada.io/managed': 'true', 'resourcebinding.karmada.io/permanent-id': `1b4e28ba-2fa1-11d2-883f-0016d3cc${String(i).padStart(4, '0')}` } : {}) },
    annotations: { 'resourcetemplate.karmada.io/generation': '1', ...(upstream ? { 'resourcebinding.karmada.io/name': `web-${i}-deployment`, 'resourcebinding.karmada.io/namespace': 'load', 'work.karmada.io/name': `web-${i}-deployment`, 'work.karmada.io/namespace': 'karmada-es-member1' } : {}) },
    ...(upstream ? { uid: `6c9f1a2e-8b7d-4e3f-9a1b-2c3d4e5f${String(i).padStart(4, '0')}`, resourceVersion: String(100000 + i), generation: 1, creationTimestamp: '2026-11-26T12:00:00Z',
      managedFields: [{ manager: 'karmada-work', operation: 'Apply', apiVersion: 'apps/v1', time: '2026-11-26T12:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:annotations': { 'f:resourcetemplate.karmada.io/generation': {}, 'f:resourcebinding.karmada.io/name': {}, 'f:resourcebinding.karmada.io/namespace': {}, 'f:work.karmada.io/name': {}, 'f:work.karmada.io/namespace': {} }, 'f:labels': { 'f:app': {}, 'f:karmada.io/managed': {}, 'f:resourcebinding.karmada.io/permanent-id': {}, 'f:tenancy.warren.dev/tenant': {} } }, 'f:spec': { 'f:replicas': {}, 'f:selector': {}, 'f:template': { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } } } }] } : {}) },
  spec: { replicas: 1, selector: { matchLabels: { app: `web-${i}` } }, template: { metadata: { labels: { app: `web-${i}` } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' }], restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', securityContext: {}, schedulerName: 'default-scheduler' } }, strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } }, revisionHistoryLimit: 10, progressDeadlineSeconds: 600 },
  ...(upstream ? { status: {} } : {}),
});
const work = (i: number) => ({
  apiVersion: 'work.karmada.io/v1alpha1', kind: 'Work',
  metadata: { name: `web-${i}-deployment`, namespace: 'abcdef-karmada-es-member1', uid: `7c9f1a2e-8b7d-4e3f-9a1b-2c3d4e5f${String(i).padStart(4, '0')}`, resourceVersion: String(200000 + i), generation: 1, creationTimestamp: '2026-11-26T12:00:00Z',
    labels: { 'tenancy.warren.dev/tenant': 'abcdef', 'karmada.io/managed': 'true', 'resourcebinding.karmada.io/permanent-id': `1b4e28ba-2fa1-11d2-883f-0016d3cc${String(i).padStart(4, '0')}` },
    annotations: { 'resourcebinding.karmada.io/name': `web-${i}-deployment`, 'resourcebinding.karmada.io/namespace': 'load', 'work.warren.dev/created-by': `1b4e28ba-2fa1-11d2-883f-0016d3cc${String(i).padStart(4, '0')}` },
    managedFields: [{ manager: 'warren', operation: 'Update', apiVersion: 'work.karmada.io/v1alpha1', time: '2026-11-26T12:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:annotations': { '.': {}, 'f:resourcebinding.karmada.io/name': {}, 'f:resourcebinding.karmada.io/namespace': {}, 'f:work.warren.dev/created-by': {} }, 'f:labels': { '.': {}, 'f:karmada.io/managed': {}, 'f:resourcebinding.karmada.io/permanent-id': {}, 'f:tenancy.warren.dev/tenant': {} } }, 'f:spec': { '.': {}, 'f:workload': { '.': {}, 'f:manifests': {} } } } },
      { manager: 'warren', operation: 'Update', apiVersion: 'work.karmada.io/v1alpha1', time: '2026-11-26T12:00:00Z', fieldsType: 'FieldsV1', subresource: 'status', fieldsV1: { 'f:status': { '.': {}, 'f:conditions': {}, 'f:manifestStatuses': {} } } }] },
  spec: { workload: { manifests: [deployment(i, false)] } },
  status: { conditions: [{ type: 'Applied', status: 'True', reason: 'AppliedSuccessful', message: 'Manifest has been successfully applied', lastTransitionTime: '2026-11-26T12:00:01Z' }], manifestStatuses: [{ identifier: { ordinal: 0, group: 'apps', version: 'v1', kind: 'Deployment', namespace: 'load', name: `web-${i}` }, health: 'Unhealthy' }] },
});
function measure(label: string, make: (i: number) => unknown): void {
  gc(); gc();
  const before = process.memoryUsage().heapUsed;
  const keep: unknown[] = new Array(N);
  for (let i = 0; i < N; i++) keep[i] = make(i);
  gc(); gc();
  const after = process.memoryUsage().heapUsed;
  console.log(`${label}: ${((after - before) / N).toFixed(0)} B each; x100,000 = ${((after - before) / N * 100_000 / 2 ** 20).toFixed(0)} MiB; JSON ${JSON.stringify(make(1)).length} B`);
  keep.length = 0;
}
// As at the burst: 10 Works per binding (one per cluster), 10 copies per template (one per member); each parsed from its own text.
measure('Work, parsed whole', (i) => JSON.parse(JSON.stringify(work(Math.floor(i / 10)))));
measure('Work, view', (i) => workView(JSON.parse(JSON.stringify(work(Math.floor(i / 10))))));
measure('member copy, parsed whole', (i) => JSON.parse(JSON.stringify(deployment(Math.floor(i / 10), true))));
measure('member copy, view', (i) => memberView(JSON.parse(JSON.stringify(deployment(Math.floor(i / 10), true)))));
const binding = (i: number, managed: boolean) => ({
  apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding',
  metadata: { name: `web-${i}-deployment`, namespace: 'abcdef-load', uid: `1b4e28ba-2fa1-11d2-883f-0016d3cc${String(i).padStart(4, '0')}`, resourceVersion: String(300000 + i), generation: 2, creationTimestamp: '2026-11-26T12:00:00Z',
    labels: { 'tenancy.warren.dev/tenant': 'abcdef', 'propagationpolicy.karmada.io/permanent-id': 'p-1234' }, annotations: { 'propagationpolicy.karmada.io/name': 'all-members', 'propagationpolicy.karmada.io/namespace': 'load' },
    finalizers: ['karmada.io/binding-controller'], ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: `web-${i}`, uid: `9c9f1a2e-8b7d-4e3f-9a1b-2c3d4e5f${String(i).padStart(4, '0')}`, controller: true, blockOwnerDeletion: true }],
    ...(managed ? { managedFields: [0, 1, 2].map((k) => ({ manager: 'karmada-controller-manager', operation: 'Update', apiVersion: 'work.karmada.io/v1alpha2', time: '2026-11-26T12:00:00Z', fieldsType: 'FieldsV1', ...(k > 0 ? { subresource: 'status' } : {}), fieldsV1: k === 0 ? { 'f:metadata': { 'f:finalizers': {}, 'f:labels': {}, 'f:ownerReferences': {} }, 'f:spec': { 'f:clusters': {}, 'f:placement': {}, 'f:replicas': {}, 'f:resource': {} } } : { 'f:status': { 'f:aggregatedStatus': {}, 'f:conditions': {}, 'f:schedulerObservedGeneration': {} } } })) } : {}) },
  spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'abcdef-load', name: `web-${i}`, uid: 'x', resourceVersion: '1' }, replicas: 1, clusters: Array.from({ length: 10 }, (_, k) => ({ name: `member${k + 1}`, replicas: 1 })),
    placement: { clusterAffinity: { clusterNames: Array.from({ length: 10 }, (_, k) => `member${k + 1}`) }, replicaScheduling: { replicaSchedulingType: 'Duplicated' } } },
  status: { schedulerObservedGeneration: 2, lastScheduledTime: '2026-11-26T12:00:00Z', conditions: [{ type: 'Scheduled', status: 'True', reason: 'Success', message: 'Binding has been scheduled successfully.', lastTransitionTime: '2026-11-26T12:00:00Z' }, { type: 'FullyApplied', status: 'True', reason: 'FullyAppliedSuccess', message: 'All works have been successfully applied', lastTransitionTime: '2026-11-26T12:00:00Z' }],
    aggregatedStatus: Array.from({ length: 10 }, (_, k) => ({ clusterName: `member${k + 1}`, applied: true, health: 'Unhealthy', status: { generation: 1, resourceTemplateGeneration: 1 } })) },
});
measure('binding, whole', (i) => JSON.parse(JSON.stringify(binding(i, true))));
measure('binding, without managedFields', (i) => JSON.parse(JSON.stringify(binding(i, false))));
measure('binding, view (the informer since session 12)', (i) => bindingView(JSON.parse(JSON.stringify(binding(i, true)))));
measure('template (Deployment upstream, whole)', (i) => JSON.parse(JSON.stringify(deployment(i, true))));
measure('template, without managedFields (the informer since session 11)', (i) => {
  const parsed = JSON.parse(JSON.stringify(deployment(i, true))) as { metadata: Record<string, unknown> };
  delete parsed.metadata.managedFields;
  return parsed;
});
