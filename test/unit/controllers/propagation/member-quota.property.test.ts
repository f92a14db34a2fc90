// Property (session 14, q1): whatever placement a binding has (Divided shares or
// Duplicated, over 1 to 4 members) and whatever a tenant's overrides write on
// the copies (replicas or parallelism, a request removed, a CronJob's schedule,
// concurrencyPolicy or suspension), the copies the engine applies for a tenant
// with a quota together run no more pods than the template the quota counted,
// every applied pod template still requests what the template requested, a
// CronJob runs on its template's schedule, and no DaemonSet reaches a member.
// Run as the engine runs it: pruneTemplate → manifestFor → memberCopyFor, per
// cluster. The oracle reads copies by kube's schema (its own table of paths).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { Cluster, OverridePolicy, TargetCluster } from '../../../../src/core/propagation/karmada-types.ts';
import type { Tenant } from '../../../../src/tenants/tenant-crd.ts';
import { manifestFor, pruneTemplate } from '../../../../src/core/propagation/binding/build-work.ts';
import { bindingMarks } from '../../../../src/controllers/propagation/binding-plan.ts';
import { memberCopyFor } from '../../../../src/controllers/propagation/execute-work.ts';
import { TEMPLATE_RESOURCES, type TemplateResource } from '../../../../src/controllers/propagation/template-resources.ts';

const A = 'aaaaaa';
const tenant = (quota: object | undefined): Tenant => ({ apiVersion: 'tenancy.warren.dev/v1alpha1', kind: 'Tenant', metadata: { name: 'a' }, spec: { podSecurity: 'baseline', ...(quota ? { quota } : {}) } }) as unknown as Tenant;
const QUOTAED = tenant({ cpu: '8', memory: '8Gi', objectsPerResource: 100 });
const cluster = (name: string): Cluster => ({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name }, spec: {} });

/** kube's schema: where each kind keeps its pod spec and its pod count. */
const POD_SPEC: Record<string, string> = {
  Deployment: '/spec/template/spec', StatefulSet: '/spec/template/spec', ReplicaSet: '/spec/template/spec', ReplicationController: '/spec/template/spec',
  Job: '/spec/template/spec', CronJob: '/spec/jobTemplate/spec/template/spec', DaemonSet: '/spec/template/spec',
};
const COUNT: Record<string, string> = {
  Deployment: '/spec/replicas', StatefulSet: '/spec/replicas', ReplicaSet: '/spec/replicas', ReplicationController: '/spec/replicas',
  Job: '/spec/parallelism', CronJob: '/spec/jobTemplate/spec/parallelism',
};
const KINDS = Object.keys(POD_SPEC);
const rowOf = (kind: string): TemplateResource => TEMPLATE_RESOURCES.find((r) => r.kind === kind && r.version === 'v1')!;
const pointer = (obj: unknown, path: string): unknown => path.split('/').slice(1).reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), obj);
const podsOf = (obj: KubeObject): number => {
  // A suspended Job or CronJob runs nothing (kube's batch API).
  if ((obj.kind === 'Job' || obj.kind === 'CronJob') && pointer(obj, '/spec/suspend') === true) return 0;
  const at = COUNT[obj.kind ?? ''];
  const n = at ? pointer(obj, at) : 1;
  return typeof n === 'number' ? n : 1;
};

function template(kind: string, count: number): KubeObject {
  const row = rowOf(kind);
  const pod = { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m', memory: '64Mi' } } }] };
  const obj: KubeObject = { apiVersion: row.group ? `${row.group}/${row.version}` : row.version, kind, metadata: { name: 'web', namespace: `${A}-shop`, labels: { 'tenancy.warren.dev/tenant': A } } };
  const tpl = { metadata: { labels: { app: 'web' } }, spec: pod };
  if (kind === 'CronJob') obj.spec = { schedule: '*/5 * * * *', concurrencyPolicy: 'Forbid', jobTemplate: { spec: { parallelism: count, template: tpl } } };
  else if (kind === 'Job') obj.spec = { parallelism: count, template: tpl };
  else if (kind === 'DaemonSet') obj.spec = { selector: { matchLabels: { app: 'web' } }, template: tpl };
  else obj.spec = { replicas: count, selector: { matchLabels: { app: 'web' } }, template: tpl };
  return obj;
}

const arbOps = (kind: string) => fc.array(fc.oneof(
  fc.record({ operator: fc.constant('replace'), path: fc.constant(COUNT[kind] ?? '/spec/replicas'), value: fc.integer({ min: 0, max: 50 }) }),
  fc.record({ operator: fc.constant('remove'), path: fc.constantFrom(`${POD_SPEC[kind]}/containers/0/resources/requests/cpu`, `${POD_SPEC[kind]}/containers/0/resources/requests`), value: fc.constant('') }),
  fc.record({ operator: fc.constant('replace'), path: fc.constant('/spec/schedule'), value: fc.constantFrom('* * * * *', '*/5 * * * *') }),
  fc.record({ operator: fc.constant('add'), path: fc.constantFrom('/spec/concurrencyPolicy', '/spec/suspend'), value: fc.constantFrom<unknown>('Allow', 'Forbid', false, true) }),
), { maxLength: 3 });

/** A random Karmada placement of `count` replicas over `k` members: Divided shares that add up, or the whole on each. */
const arbPlacement = (count: number) => fc.record({ k: fc.integer({ min: 1, max: 4 }), divided: fc.boolean(), cuts: fc.array(fc.integer({ min: 0, max: count }), { minLength: 3, maxLength: 3 }) })
  .map(({ k, divided, cuts }) => {
    const bounds = [0, ...cuts.slice(0, k - 1).sort((x, y) => x - y), count];
    const targets: TargetCluster[] = Array.from({ length: k }, (_, i) => ({ name: `member${i + 1}`, ...(divided ? { replicas: bounds[i + 1]! - bounds[i]! } : {}) }));
    return { divided, targets };
  });

const arbScenario = fc.record({ kind: fc.constantFrom(...KINDS), count: fc.integer({ min: 1, max: 6 }) })
  .chain(({ kind, count }) => fc.record({ kind: fc.constant(kind), count: fc.constant(count), placement: arbPlacement(count), ops: arbOps(kind) }));

function run(s: { kind: string; count: number; placement: { divided: boolean; targets: TargetCluster[] }; ops: Array<{ operator: string; path: string; value: unknown }> }, who: Tenant) {
  const tctx = { id: A };
  const pruned = pruneTemplate(tctx, template(s.kind, s.count));
  assert.ok(pruned);
  const policy = { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'ClusterOverridePolicy', metadata: { name: 'o' }, spec: { overrideRules: [{ overriders: { plaintext: s.ops } }] } } as unknown as OverridePolicy;
  const plan = { tctx, resource: rowOf(s.kind), marks: bindingMarks({ namespace: `${A}-shop`, name: 'web', uid: 'uid-a', tenantNamespace: 'shop' }), tenant: who, workName: 'slot', pruned, ...s.placement };
  const copies: Array<{ name: string; copy: ReturnType<typeof memberCopyFor> }> = [];
  for (const target of s.placement.targets) {
    let manifest: KubeObject;
    try {
      ({ manifest } = manifestFor(pruned, target, cluster(target.name), s.placement.divided, [], [policy]));
    } catch {
      continue; // an override that cannot apply: the cluster fails, nothing is copied
    }
    copies.push({ name: target.name, copy: memberCopyFor(plan, target.name, manifest) });
  }
  return { pruned, copies };
}

describe('property: placement and overrides cannot make members run more than the quota counted', () => {
  it('for a tenant with a quota, the applied copies together stay within the template', () => {
    const seen = { applied: 0, refused: 0, placementRefused: 0 };
    fc.assert(fc.property(arbScenario, (s) => {
      const { pruned, copies } = run(s, QUOTAED);
      let pods = 0;
      for (const { copy } of copies) {
        if (!copy.ok) {
          seen.refused++;
          if (/not applied to this cluster/.test(copy.reason)) seen.placementRefused++;
          assert.ok(!copy.reason.includes(`${A}-`), `in tenant terms: ${copy.reason}`);
          continue;
        }
        seen.applied++;
        assert.notEqual(s.kind, 'DaemonSet', 'a DaemonSet reached a member');
        pods += podsOf(copy.obj);
        const requests = pointer(copy.obj, `${POD_SPEC[s.kind]}/containers/0/resources/requests`) as Record<string, unknown> | undefined;
        assert.ok(requests?.cpu !== undefined && requests.memory !== undefined, `a copy without requests: ${JSON.stringify(copy.obj.spec)}`);
        if (s.kind === 'CronJob') {
          assert.equal(pointer(copy.obj, '/spec/schedule'), '*/5 * * * *');
          assert.equal(pointer(copy.obj, '/spec/concurrencyPolicy'), 'Forbid');
        }
      }
      assert.ok(pods <= podsOf(pruned), `${s.kind}: members run ${pods} pods where the quota counted ${podsOf(pruned)} (${JSON.stringify(s.placement)})`);
    }), { numRuns: 1000 });
    assert.ok(seen.applied > 200 && seen.refused > 200 && seen.placementRefused > 50, JSON.stringify(seen));
  });

  it('a tenant without a quota propagates as before: a Duplicated placement is never refused for its size', () => {
    fc.assert(fc.property(arbScenario, (s) => {
      for (const { copy } of run({ ...s, ops: [] }, tenant(undefined)).copies) assert.ok(copy.ok, copy.ok ? '' : copy.reason);
    }), { numRuns: 300 });
  });
});
