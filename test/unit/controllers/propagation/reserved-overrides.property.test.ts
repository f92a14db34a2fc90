// Property (session 13, a1): whatever a tenant's templates and OverridePolicies
// write, a member's copy never names what the member's own controllers would
// follow against other tenants: a `system-*` priority class in the pod spec the
// member's scheduler reads, a nodeName its kubelet runs without the scheduler
// (session 13, v1), a volume in a claim (a PVC's spec.volumeName, a
// StatefulSet's claim templates) the member's binder would hand over, or a
// Service's external IPs every member node would capture. Run as the
// engine runs it: pruneTemplate → manifestFor (every override applied) →
// memberCopyFor. Overrides write random values at the right places for the kind,
// at other kinds' places, and elsewhere; the oracle reads the copy by kube's
// schema (an independent table of where each kind keeps its pod spec), so a
// wrong-place write that kube would not follow is allowed to pass.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { Cluster, OverridePolicy } from '../../../../src/core/propagation/karmada-types.ts';
import type { Tenant } from '../../../../src/tenants/tenant-crd.ts';
import { manifestFor, pruneTemplate } from '../../../../src/core/propagation/binding/build-work.ts';
import { bindingMarks } from '../../../../src/controllers/propagation/binding-plan.ts';
import { memberCopyFor } from '../../../../src/controllers/propagation/execute-work.ts';
import { TEMPLATE_RESOURCES, type TemplateResource } from '../../../../src/controllers/propagation/template-resources.ts';

const A = 'aaaaaa';
const tenantA = { apiVersion: 'warren.dev/v1alpha1', kind: 'Tenant', metadata: { name: 'a' }, spec: { podSecurity: 'baseline' } } as unknown as Tenant;
const member2: Cluster = { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'member2' }, spec: {} };

/** Where kube's controllers read a pod spec, per kind (kube's API, written apart from the code under test). */
const POD_SPEC: Record<string, string> = {
  Deployment: '/spec/template/spec', StatefulSet: '/spec/template/spec', DaemonSet: '/spec/template/spec', ReplicaSet: '/spec/template/spec',
  ReplicationController: '/spec/template/spec', Job: '/spec/template/spec', CronJob: '/spec/jobTemplate/spec/template/spec',
};
const KINDS = [...Object.keys(POD_SPEC), 'PersistentVolumeClaim', 'Service'];
const rowOf = (kind: string): TemplateResource => TEMPLATE_RESOURCES.find((r) => r.kind === kind && r.version === 'v1')!;

const pointer = (obj: unknown, path: string): unknown => path.split('/').slice(1).reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), obj);

function template(kind: string): KubeObject {
  const row = rowOf(kind);
  const pod = { containers: [{ name: 'c', image: 'nginx' }] };
  const obj: KubeObject = { apiVersion: row.group ? `${row.group}/${row.version}` : row.version, kind, metadata: { name: 'web', namespace: `${A}-shop`, labels: { 'tenancy.warren.dev/tenant': A } } };
  if (kind === 'PersistentVolumeClaim') obj.spec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } };
  else if (kind === 'Service') obj.spec = { ports: [{ port: 80 }], externalIPs: [] };
  else if (kind === 'CronJob') obj.spec = { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: pod } } } };
  else obj.spec = { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: pod } };
  if (kind === 'StatefulSet') (obj.spec as Record<string, unknown>).volumeClaimTemplates = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
  return obj;
}

/** Where an override may write: the kind's own pod spec and claim places (mostly), other kinds' places, places kube ignores. */
const OWN_PATHS = (kind: string): string[] => [
  ...(POD_SPEC[kind] ? [`${POD_SPEC[kind]}/priorityClassName`, `${POD_SPEC[kind]}/nodeName`] : []),
  '/spec/volumeName', ...(kind === 'StatefulSet' ? ['/spec/volumeClaimTemplates/0/spec/volumeName'] : []), ...(kind === 'Service' ? ['/spec/externalIPs/-'] : []),
];
const OTHER_PATHS = [...new Set(Object.values(POD_SPEC))].flatMap((p) => [`${p}/priorityClassName`, `${p}/nodeName`]).concat(['/spec/nodeName', '/spec/priorityClassName', '/metadata/labels/volumeName', '/spec/volumeClaimTemplates/0/spec/volumeName']);
const VALUES = ['system-node-critical', 'system-cluster-critical', 'system-x', 'tenant-high', 'member-pv', 'pvc-of-b', '', '10.96.0.10', 'member2-control-plane'];

const arbOps = (kind: string) => fc.array(fc.record({
  operator: fc.constantFrom('add', 'add', 'replace'),
  path: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...OWN_PATHS(kind)) }, { weight: 1, arbitrary: fc.constantFrom(...OTHER_PATHS) }),
  value: fc.constantFrom(...VALUES),
}), { maxLength: 3 });
const arbScenario = fc.constantFrom(...KINDS).chain((kind) => fc.record({ kind: fc.constant(kind), clusterOps: arbOps(kind), namespacedOps: arbOps(kind) }));

const policy = (name: string, ops: Array<{ operator: string; path: string; value: string }>, namespace?: string): OverridePolicy => ({
  apiVersion: 'policy.karmada.io/v1alpha1', kind: namespace ? 'OverridePolicy' : 'ClusterOverridePolicy', metadata: { name, ...(namespace ? { namespace } : {}) },
  spec: { overrideRules: [{ overriders: { plaintext: ops.map((o) => ({ path: o.path, operator: o.operator as 'add', value: o.value })) } }] },
} as OverridePolicy);

/** What kube's controllers on the member would follow in this copy: a reserved priority, a named volume. */
function followed(copy: KubeObject): string | undefined {
  const podSpec = POD_SPEC[copy.kind ?? ''];
  const priority = podSpec ? pointer(copy, `${podSpec}/priorityClassName`) : undefined;
  if (typeof priority === 'string' && priority.startsWith('system-')) return `priorityClassName ${priority}`;
  // A pod spec naming a node skips the member's scheduler (its taints, and the nodes kept for other tenants).
  const node = podSpec ? pointer(copy, `${podSpec}/nodeName`) : undefined;
  if (typeof node === 'string' && node !== '') return `nodeName ${node}`;
  const volume = copy.kind === 'PersistentVolumeClaim' ? pointer(copy, '/spec/volumeName') : pointer(copy, '/spec/volumeClaimTemplates/0/spec/volumeName');
  if (typeof volume === 'string' && volume !== '') return `volumeName ${volume}`;
  const ips = copy.kind === 'Service' ? pointer(copy, '/spec/externalIPs') : undefined;
  if (Array.isArray(ips) && ips.some((ip) => typeof ip === 'string' && ip !== '')) return `externalIPs ${ips.join(',')}`;
  return undefined;
}

/**
 * The engine's path for one template on member2: prune, overrides (and Divided's share of 1), the member copy.
 * 'failed' when an override cannot apply (a missing parent): the cluster fails with a 422 and nothing is copied.
 */
function copyOnMember2(kind: string, obj: KubeObject, opts: { divided: boolean; policies: OverridePolicy[]; clusterPolicies: OverridePolicy[] }): { pruned: KubeObject; copy: ReturnType<typeof memberCopyFor> } | 'failed' {
  const tctx = { id: A };
  const pruned = pruneTemplate(tctx, obj);
  assert.ok(pruned, 'the template is the tenant\'s');
  let manifest: KubeObject;
  try {
    ({ manifest } = manifestFor(pruned, { name: 'member2', replicas: 1 }, member2, opts.divided, opts.policies, opts.clusterPolicies));
  } catch (err) {
    assert.equal((err as { code?: number }).code, 422, String(err));
    return 'failed';
  }
  const plan = { tctx, resource: rowOf(kind), marks: bindingMarks({ namespace: `${A}-shop`, name: 'web', uid: 'uid-a', tenantNamespace: 'shop' }), tenant: tenantA, workName: 'slot', pruned };
  return { pruned, copy: memberCopyFor(plan, 'member2', manifest) };
}

describe('property: overrides cannot make a member copy name a reserved priority class, a node or a volume, or ask for more', () => {
  it('every member copy is refused or names neither', () => {
    const seen = { refused: 0, applied: 0, failedOverride: 0 };
    fc.assert(fc.property(arbScenario, (s) => {
      const run = copyOnMember2(s.kind, template(s.kind), { divided: false, policies: [policy('ns', s.namespacedOps, 'shop')], clusterPolicies: [policy('cluster', s.clusterOps)] });
      if (run === 'failed') { seen.failedOverride++; return; }
      const { copy } = run;
      if (!copy.ok) {
        seen.refused++;
        assert.match(copy.reason, /priorityClassName|nodeName|volumeName|externalIPs/, copy.reason);
        assert.ok(!copy.reason.includes(`${A}-`), `in tenant terms: ${copy.reason}`);
        return;
      }
      seen.applied++;
      assert.equal(followed(copy.obj), undefined, `the member would follow it: ${JSON.stringify(copy.obj.spec)}`);
    }), { numRuns: 800 });
    // Both sides reached: copies refused, and copies applied (some with harmless writes).
    assert.ok(seen.refused > 50 && seen.applied > 50, JSON.stringify(seen));
    console.log(`reserved-overrides: ${JSON.stringify(seen)}`);
  });

  // The quota counts the template once (ADR 10); a member runs the copy. An override may lower what a copy asks
  // for, never raise it: pods (replicas, a Job's or a CronJob's parallelism), cpu and memory requests, claim storage.
  it('every member copy is refused or asks for no more pods, cpu or storage than its template', () => {
    const seen = { refused: 0, applied: 0, failedOverride: 0 };
    const REPLICA_PATH: Record<string, string> = {
      Deployment: '/spec/replicas', StatefulSet: '/spec/replicas', ReplicaSet: '/spec/replicas', ReplicationController: '/spec/replicas',
      Job: '/spec/parallelism', CronJob: '/spec/jobTemplate/spec/parallelism',
    };
    /** Pods and the first container's cpu request, read by kube's schema; a claim's storage. */
    const demand = (obj: KubeObject): { pods: number; cpu: number; storage: number } => {
      const kind = obj.kind ?? '';
      const replicaPath = REPLICA_PATH[kind];
      const replicas = replicaPath ? pointer(obj, replicaPath) : undefined;
      const pods = kind === 'DaemonSet' ? 1 : typeof replicas === 'number' ? replicas : replicaPath ? 1 : 0;
      const cpuText = POD_SPEC[kind] ? pointer(obj, `${POD_SPEC[kind]}/containers/0/resources/requests/cpu`) : undefined;
      const cpu = typeof cpuText === 'string' ? (cpuText.endsWith('m') ? Number(cpuText.slice(0, -1)) : Number(cpuText) * 1000) : 0;
      const storageText = pointer(obj, kind === 'PersistentVolumeClaim' ? '/spec/resources/requests/storage' : '/spec/volumeClaimTemplates/0/spec/resources/requests/storage');
      const storage = typeof storageText === 'string' ? (storageText.endsWith('Gi') ? Number(storageText.slice(0, -2)) * 1024 : Number(storageText.slice(0, -2))) : 0;
      return { pods, cpu: cpu * pods, storage: kind === 'StatefulSet' ? storage * pods : storage };
    };
    const sized = (kind: string): KubeObject => {
      const t = template(kind);
      const podSpec = POD_SPEC[kind] ? pointer(t, POD_SPEC[kind]) as { containers: Array<Record<string, unknown>> } : undefined;
      if (podSpec) podSpec.containers[0]!.resources = { requests: { cpu: '1' } };
      const replicaPath = REPLICA_PATH[kind];
      if (replicaPath) {
        const parent = pointer(t, replicaPath.slice(0, replicaPath.lastIndexOf('/'))) as Record<string, unknown>;
        parent[replicaPath.slice(replicaPath.lastIndexOf('/') + 1)] = 2;
      }
      return t;
    };
    const arbSizeOps = (kind: string) => fc.array(fc.oneof(
      fc.record({ operator: fc.constant('replace'), path: fc.constant(REPLICA_PATH[kind] ?? '/spec/replicas'), value: fc.constantFrom(0, 1, 2, 3, 50_000) }),
      fc.record({ operator: fc.constant('add'), path: fc.constant(`${POD_SPEC[kind] ?? '/spec'}/containers/0/resources/requests/cpu`), value: fc.constantFrom('100m', '1', '1500m', '64') }),
      fc.record({ operator: fc.constant('add'), path: fc.constant(kind === 'PersistentVolumeClaim' ? '/spec/resources/requests/storage' : '/spec/volumeClaimTemplates/0/spec/resources/requests/storage'), value: fc.constantFrom('500Mi', '1Gi', '100Gi') }),
    ), { maxLength: 3 });
    const arbSized = fc.constantFrom(...KINDS).chain((kind) => fc.record({ kind: fc.constant(kind), ops: arbSizeOps(kind), divided: fc.boolean() }));
    fc.assert(fc.property(arbSized, (s) => {
      // Divided: member2 gets one of the template's two replicas before the overrides.
      const run = copyOnMember2(s.kind, sized(s.kind), { divided: s.divided, policies: [], clusterPolicies: [policy('cluster', s.ops as Array<{ operator: string; path: string; value: string }>)] });
      if (run === 'failed') { seen.failedOverride++; return; }
      const { pruned, copy } = run;
      if (!copy.ok) {
        seen.refused++;
        assert.match(copy.reason, /asks for more than its template/, copy.reason);
        return;
      }
      seen.applied++;
      const [t, c] = [demand(pruned), demand(copy.obj)];
      assert.ok(c.pods <= t.pods && c.cpu <= t.cpu && c.storage <= t.storage, `${s.kind}: the copy asks for ${JSON.stringify(c)}, the template ${JSON.stringify(t)}`);
    }), { numRuns: 800 });
    assert.ok(seen.refused > 50 && seen.applied > 50, JSON.stringify(seen));
    console.log(`member-demand: ${JSON.stringify(seen)}`);
  });
});
