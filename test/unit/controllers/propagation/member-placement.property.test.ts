// Property (session 14, p1, ADR 0043): whatever a tenant's OverridePolicies
// write into a member copy's pod spec (tolerations, a node selector, node
// affinity), the copy the member gets is refused, or it tolerates only what
// the tenant's placement contract allows and selects the contract's nodes.
// Run as the engine runs it: pruneTemplate → manifestFor (every override
// applied) → memberCopyFor, with a contract from the Tenant and one from the
// platform's default. The oracle reads the copy by kube's schema, written apart
// from the code under test.
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
import type { PlacementContract } from '../../../../src/core/tenancy/pod-placement.ts';

const A = 'aaaaaa';
const member2: Cluster = { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'member2' }, spec: {} };
const POD_SPEC: Record<string, string> = {
  Deployment: '/spec/template/spec', StatefulSet: '/spec/template/spec', DaemonSet: '/spec/template/spec', Job: '/spec/template/spec', CronJob: '/spec/jobTemplate/spec/template/spec',
};
const rowOf = (kind: string): TemplateResource => TEMPLATE_RESOURCES.find((r) => r.kind === kind && r.version === 'v1')!;
const pointer = (obj: unknown, path: string): unknown => path.split('/').slice(1).reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), obj);

/** The contracts: the Tenant's own (a dedicated pool), or the platform's default with nothing configured. */
const DEDICATED: PlacementContract = { nodeSelector: { pool: 'acme' }, tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'acme', effect: 'NoSchedule' }] };
const SAFE: PlacementContract = { nodeSelector: {}, tolerations: [] };
const tenantWith = (placement: PlacementContract | undefined): Tenant => ({ apiVersion: 'warren.dev/v1alpha1', kind: 'Tenant', metadata: { name: 'a' }, spec: { podSecurity: 'baseline', ...(placement ? { placement: { nodeSelector: { ...placement.nodeSelector }, tolerations: [...placement.tolerations] } } : {}) } } as unknown as Tenant);

function template(kind: string): KubeObject {
  const row = rowOf(kind);
  const pod = { containers: [{ name: 'c', image: 'nginx' }], nodeSelector: { pool: 'acme' }, tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }] };
  const obj: KubeObject = { apiVersion: `${row.group}/${row.version}`, kind, metadata: { name: 'web', namespace: `${A}-shop`, labels: { 'tenancy.warren.dev/tenant': A } } };
  obj.spec = kind === 'CronJob' ? { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: pod } } } } : { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: pod } };
  return obj;
}

const TOLERATIONS = [
  { operator: 'Exists' }, { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' }, { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' },
  { key: 'dedicated', operator: 'Equal', value: 'globex', effect: 'NoSchedule' }, { key: 'dedicated', operator: 'Equal', value: 'acme', effect: 'NoSchedule' }, { key: 'dedicated', operator: 'Exists' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 },
];
const arbValue = (kind: string): fc.Arbitrary<{ path: string; value: unknown }> => {
  const spec = POD_SPEC[kind]!;
  return fc.oneof(
    fc.record({ path: fc.constant(`${spec}/tolerations`), value: fc.subarray(TOLERATIONS, { maxLength: 2 }) }),
    fc.record({ path: fc.constant(`${spec}/tolerations/-`), value: fc.constantFrom(...TOLERATIONS) }),
    fc.record({ path: fc.constant(`${spec}/nodeSelector`), value: fc.constantFrom({}, { pool: 'globex' }, { 'kubernetes.io/hostname': 'member2-control-plane' }, { pool: 'acme', disk: 'ssd' }) }),
    fc.record({ path: fc.constantFrom(`${spec}/nodeSelector/pool`, `${spec}/nodeSelector/kubernetes.io~1hostname`), value: fc.constantFrom('globex', 'acme', 'member2-control-plane') }),
    fc.record({ path: fc.constant(`${spec}/affinity`), value: fc.constant({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'node-role.kubernetes.io/master', operator: 'Exists' }] }] } } }) }),
  );
};
const arbScenario = fc.constantFrom(...Object.keys(POD_SPEC)).chain((kind) => fc.record({
  kind: fc.constant(kind),
  fromTenant: fc.boolean(),
  ops: fc.array(fc.tuple(fc.constantFrom('add', 'add', 'replace', 'remove'), arbValue(kind)), { minLength: 1, maxLength: 3 }),
}));

const policy = (ops: Array<[string, { path: string; value: unknown }]>): OverridePolicy => ({
  apiVersion: 'policy.karmada.io/v1alpha1', kind: 'OverridePolicy', metadata: { name: 'p', namespace: 'shop' },
  spec: { overrideRules: [{ overriders: { plaintext: ops.map(([operator, o]) => ({ path: o.path, operator: operator as 'add', ...(operator === 'remove' ? {} : { value: o.value }) })) } }] },
} as OverridePolicy);

/** Does the member copy tolerate or select beyond its contract, read by kube's schema? */
function beyond(copy: KubeObject, contract: PlacementContract): string | undefined {
  const spec = pointer(copy, POD_SPEC[copy.kind ?? '']!) as { tolerations?: Array<Record<string, unknown>>; nodeSelector?: Record<string, string> };
  const allowed = (t: Record<string, unknown>): boolean => (t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute')
    || contract.tolerations.some((a) => a.key === t.key && a.operator === t.operator && (a.value ?? '') === (t.value ?? '') && a.effect === t.effect);
  const wide = (spec.tolerations ?? []).find((t) => !allowed(t));
  if (wide) return `tolerates ${JSON.stringify(wide)}`;
  for (const [k, v] of Object.entries(contract.nodeSelector)) if (spec.nodeSelector?.[k] !== v) return `selects ${JSON.stringify(spec.nodeSelector)}, not ${k}=${v}`;
  return undefined;
}

describe('property: overrides cannot take a member copy past the tenant\'s placement contract', () => {
  it('every member copy is refused, or tolerates and selects within the contract', () => {
    const seen = { refused: 0, applied: 0, failedOverride: 0 };
    fc.assert(fc.property(arbScenario, (s) => {
      const contract = s.fromTenant ? DEDICATED : SAFE;
      const tctx = { id: A };
      const pruned = pruneTemplate(tctx, template(s.kind));
      assert.ok(pruned);
      let manifest: KubeObject;
      try {
        ({ manifest } = manifestFor(pruned, { name: 'member2', replicas: 1 }, member2, false, [policy(s.ops)], []));
      } catch (err) {
        assert.equal((err as { code?: number }).code, 422, String(err));
        seen.failedOverride++;
        return;
      }
      const plan = { tctx, resource: rowOf(s.kind), marks: bindingMarks({ namespace: `${A}-shop`, name: 'web', uid: 'uid-a', tenantNamespace: 'shop' }), tenant: tenantWith(s.fromTenant ? DEDICATED : undefined), workName: 'slot', pruned };
      // The platform's default is SAFE; a Tenant's own contract replaces it.
      const copy = memberCopyFor(plan, 'member2', manifest, SAFE);
      if (!copy.ok) {
        seen.refused++;
        assert.match(copy.reason, /tolerations|nodeSelector/, copy.reason);
        assert.ok(!copy.reason.includes(`${A}-`), `in tenant terms: ${copy.reason}`);
        return;
      }
      seen.applied++;
      assert.equal(beyond(copy.obj, contract), undefined, `the member would place it beyond the contract: ${JSON.stringify(copy.obj.spec)}`);
    }), { numRuns: 600 });
    assert.ok(seen.refused > 50 && seen.applied > 50, JSON.stringify(seen));
  });

  it('the contract\'s node selector is merged into a copy that lacks it, without touching the Work\'s manifest', () => {
    const tctx = { id: A };
    const bare = template('Deployment');
    delete ((bare.spec as { template: { spec: Record<string, unknown> } }).template.spec).nodeSelector;
    const pruned = pruneTemplate(tctx, bare)!;
    const { manifest } = manifestFor(pruned, { name: 'member2', replicas: 1 }, member2, false, [], []);
    const before = JSON.stringify(manifest);
    const plan = { tctx, resource: rowOf('Deployment'), marks: bindingMarks({ namespace: `${A}-shop`, name: 'web', uid: 'uid-a', tenantNamespace: 'shop' }), tenant: tenantWith(DEDICATED), workName: 'slot', pruned };
    const copy = memberCopyFor(plan, 'member2', manifest, SAFE);
    assert.ok(copy.ok, copy.ok ? '' : copy.reason);
    assert.deepEqual(pointer(copy.obj, '/spec/template/spec/nodeSelector'), { pool: 'acme' });
    assert.equal(JSON.stringify(manifest), before, 'the manifest the Work holds is unchanged');
  });
});
