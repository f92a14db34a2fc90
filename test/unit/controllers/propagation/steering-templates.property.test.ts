// Property (issue 13, "the engine trusts nothing a tenant wrote"): tenant A
// writes templates and override policies crafted to steer the engine: any
// subset of the labels and annotations Karmada and Warren read (permanent ids,
// policy claims, Work and binding names, template generation, conflict
// resolution, the tenant label, Warren's Work creator mark), with values copied
// from tenant B's objects (its binding uids, id, namespaces, names), and names
// that look like B's or an execution space once prefixed. The member holds
// whatever is at the address (B's copy, an old copy, a member-local object, each
// with forged marks), the host holds Works with forged marks. Judged on the
// engine's own decisions, run as the engine runs them: claimOf (which policy
// binds the template: the same with or without the forged keys), judgeBinding, splitTargets,
// pruneTemplate + manifestFor + memberCopyFor (what the member gets),
// applyToMember and deleteFromMember against a map-backed member, isSlotOf
// (which Works belong to the binding). Asserted:
//  - writes go only to clusters the Tenant allows, at addresses in A's space;
//  - what is written carries A's tenant label and this binding's marks, and every
//    key the engine reads or Karmada reserves holds the engine's value, never the
//    template's or an override's;
//  - an existing object is updated only when it is this binding's copy, or A's
//    own (Overwrite, or a Namespace the engine made for A), never when it carries
//    B's tenant label or a binding mark without A's label; deleted only when it
//    carries A's label and this binding's marks;
//  - the Works chosen as the binding's carry its creator mark, A's label, its
//    name, and sit in one of A's execution spaces.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { Cluster, OverridePolicy, PropagationPolicy, ResourceBinding } from '../../../../src/core/propagation/karmada-types.ts';
import type { Tenant } from '../../../../src/tenants/tenant-crd.ts';
import { TENANT_LABEL } from '../../../../src/core/tenancy/tenant-id.ts';
import { judgeBinding } from '../../../../src/core/propagation/trust/binding-trust.ts';
import { splitTargets } from '../../../../src/core/propagation/trust/allowed-targets.ts';
import { inTenantSpace } from '../../../../src/core/propagation/trust/member-ownership.ts';
import { manifestFor, pruneTemplate } from '../../../../src/core/propagation/binding/build-work.ts';
import { claimOf } from '../../../../src/core/propagation/binding/claim.ts';
import { withoutEngineKeys } from '../../../../src/core/propagation/marks.ts';
import { bindingMarks } from '../../../../src/controllers/propagation/binding-plan.ts';
import { memberCopyFor } from '../../../../src/controllers/propagation/execute-work.ts';
import { applyToMember, ConflictError, deleteFromMember } from '../../../../src/controllers/propagation/member-apply.ts';
import { isSlotOf } from '../../../../src/controllers/propagation/remove-works.ts';
import type { WorkView } from '../../../../src/controllers/propagation/work-view.ts';
import { TEMPLATE_RESOURCES, type TemplateResource } from '../../../../src/controllers/propagation/template-resources.ts';
import { fakeMember, type Stored } from './support/fake-member.ts';

const A = 'aaaaaa';
const B = 'bbbbbb';
const UID_A = 'uid-a';
const UID_B = 'uid-b';
const UID_B_CRB = 'uid-b-crb';
const ALLOWED = new Set(['member2']);
const CLUSTERS = ['member1', 'member2', 'member3'];
const PID = 'resourcebinding.karmada.io/permanent-id';
const CPID = 'clusterresourcebinding.karmada.io/permanent-id';
const MANAGED = 'karmada.io/managed';

/** Keys Karmada or Warren read or reserve on templates, bindings, Works and member copies. */
const STEERING_KEYS = [
  PID, CPID, MANAGED, TENANT_LABEL,
  'resourcebinding.karmada.io/name', 'resourcebinding.karmada.io/namespace', 'clusterresourcebinding.karmada.io/name',
  'propagationpolicy.karmada.io/name', 'propagationpolicy.karmada.io/namespace', 'propagationpolicy.karmada.io/permanent-id',
  'clusterpropagationpolicy.karmada.io/name', 'clusterpropagationpolicy.karmada.io/permanent-id',
  'work.karmada.io/name', 'work.karmada.io/namespace', 'work.karmada.io/permanent-id', 'work.karmada.io/conflict-resolution',
  'resourcetemplate.karmada.io/generation', 'resourcetemplate.karmada.io/uid', 'resourcetemplate.karmada.io/managed-labels',
  'propagation.warren.dev/binding-uid', 'policy.karmada.io/applied-placement',
];
/** Values copied from B's objects (and A's own, so the generators also hit the engine's own values). */
const VALUES = [UID_B, UID_B_CRB, B, `${B}-shop`, 'shop', 'web', `${B}-web`, `${B}-karmada-es-member2`, 'karmada-es-member1', 'overwrite', 'true', A, UID_A, 'member1'];
const RESERVED = /^(([a-z]+\.)?karmada\.io\/|propagation\.warren\.dev\/|tenancy\.warren\.dev\/)/;

const row = (kind: string): TemplateResource => TEMPLATE_RESOURCES.find((r) => r.kind === kind && r.version === 'v1')!;
const ROWS = [row('ConfigMap'), row('Namespace'), row('ClusterRole')];
const member = (name: string): Cluster => ({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name }, spec: {} });
const tenantA = { apiVersion: 'warren.dev/v1alpha1', kind: 'Tenant', metadata: { name: 'a' }, spec: { podSecurity: 'restricted' } } as unknown as Tenant;

const arbMarks = fc.dictionary(fc.constantFrom(...STEERING_KEYS), fc.constantFrom(...VALUES), { maxKeys: 6 });
const arbScenario = fc.record({
  row: fc.constantFrom(...ROWS),
  name: fc.constantFrom('web', `${B}-web`, B, 'karmada-es-member2', 'shop'),
  namespace: fc.constantFrom('shop', `${B}-shop`, 'web'),
  labels: arbMarks,
  annotations: arbMarks,
  /** A ClusterOverridePolicy of A's adding steering keys through every overrider that can. */
  override: fc.option(fc.record({ labels: arbMarks, annotations: arbMarks, plaintext: arbMarks }), { nil: undefined }),
  clusters: fc.array(fc.constantFrom(...CLUSTERS, 'ghost'), { maxLength: 4 }),
  overwrite: fc.boolean(),
  /** What the member already holds at the address: nothing, or an object with forged marks. */
  existing: fc.option(fc.record({ labels: arbMarks, pick: fc.constantFrom('forged', 'b-copy', 'a-copy', 'a-old') }), { nil: undefined }),
  works: fc.array(fc.record({
    namespace: fc.constantFrom(`${A}-karmada-es-member2`, `${A}-karmada-es-member1`, `${B}-karmada-es-member2`, `${A}-shop`, 'karmada-es-member2'),
    name: fc.constantFrom('slot', 'other'),
    /** Starts from the marks the engine writes on its Works (then forged ones over them), or from nothing. */
    engine: fc.boolean(),
    labels: arbMarks,
    annotations: arbMarks,
  }), { maxLength: 6 }),
});

function overridePolicy(o: { labels: Record<string, string>; annotations: Record<string, string>; plaintext: Record<string, string> }): OverridePolicy {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1', kind: 'ClusterOverridePolicy', metadata: { name: 'steer' },
    spec: { overrideRules: [{ overriders: {
      labelsOverrider: [{ operator: 'add', value: o.labels }],
      annotationsOverrider: [{ operator: 'add', value: o.annotations }],
      // The whole map: an add into a template without labels would fail (and apply nothing).
      plaintext: [{ operator: 'add', path: '/metadata/labels', value: o.plaintext }],
    } }] },
  } as unknown as OverridePolicy;
}

/** Where the tenant's object lives upstream (and on every member), as the gateway stores it. */
function upstreamTemplate(s: { row: TemplateResource; name: string; namespace: string; labels: Record<string, string>; annotations: Record<string, string> }): KubeObject {
  const cluster = s.row.clusterScoped === true;
  return {
    apiVersion: s.row.group ? `${s.row.group}/${s.row.version}` : s.row.version, kind: s.row.kind,
    metadata: {
      name: cluster ? `${A}-${s.name}` : s.name, ...(cluster ? {} : { namespace: `${A}-${s.namespace}` }), uid: 'template-uid', generation: 2,
      labels: { ...s.labels, [TENANT_LABEL]: A }, annotations: s.annotations,
    },
    ...(s.row.kind === 'ConfigMap' ? { data: { k: 'v' } } : {}),
  };
}

/** What the engine's binding for that template looks like (detect-template's bindingObject, the parts judged). */
function engineBinding(template: KubeObject, labels: Record<string, string>, clusters: string[]): ResourceBinding {
  const namespace = template.metadata.namespace;
  return {
    apiVersion: 'work.karmada.io/v1alpha2', kind: namespace ? 'ResourceBinding' : 'ClusterResourceBinding',
    metadata: {
      name: namespace ? `${template.metadata.name ?? ''}-x` : `${template.metadata.name ?? ''}-x`, uid: UID_A, ...(namespace ? { namespace } : {}),
      // The policy-claim labels are the engine's; the tenant's forged ones are kept beside them to show they steer nothing.
      labels: { ...labels, [TENANT_LABEL]: A },
    },
    spec: { resource: { apiVersion: template.apiVersion ?? '', kind: template.kind ?? '', name: template.metadata.name ?? '', ...(namespace ? { namespace } : {}) }, clusters: clusters.map((name) => ({ name })) },
  };
}

function existingObject(template: KubeObject, e: { labels: Record<string, string>; pick: string }): KubeObject {
  const marks: Record<string, Record<string, string>> = {
    'forged': {},
    'b-copy': { [TENANT_LABEL]: B, [PID]: UID_B, [MANAGED]: 'true' },
    'a-copy': { [TENANT_LABEL]: A, [PID]: UID_A, [MANAGED]: 'true' },
    'a-old': { [TENANT_LABEL]: A, [PID]: 'uid-a-old', [MANAGED]: 'true' },
  };
  return {
    apiVersion: template.apiVersion ?? '', kind: template.kind ?? '',
    metadata: { name: template.metadata.name ?? '', ...(template.metadata.namespace ? { namespace: template.metadata.namespace } : {}), uid: 'existing', labels: { ...marks[e.pick], ...e.labels } },
  };
}

const isOwnCopy = (labels: Record<string, string>): boolean => labels[TENANT_LABEL] === A && labels[PID] === UID_A && labels[MANAGED] === 'true';
/** Marks the engine reads as "a binding's copy": whoever's they are, they are A's only with A's label. */
const carriesBindingMarks = (labels: Record<string, string>): boolean => labels[PID] !== undefined || labels[CPID] !== undefined || labels[MANAGED] !== undefined;

/** A's own policies: one PropagationPolicy selecting the ConfigMap by name, one ClusterPropagationPolicy by kind. */
const policy = (kind: string, name: string, namespace: string | undefined, selector: Record<string, string>): PropagationPolicy => ({
  apiVersion: 'policy.karmada.io/v1alpha1', kind, metadata: { name, ...(namespace ? { namespace } : {}) },
  spec: { resourceSelectors: [selector as never], placement: { clusterAffinity: { clusterNames: ['member2'] } } },
});

describe('templates and policies crafted to steer the engine', () => {
  it('property: member writes and deletes, and the binding\'s Works, are decided by the engine\'s marks alone', async () => {
    const seen = { claims: 0, writes: 0, updates: 0, refusedUpdates: 0, deletes: 0, slots: 0 };
    await fc.assert(fc.asyncProperty(arbScenario, async (s) => {
      const template = upstreamTemplate(s);
      const binding = engineBinding(template, s.labels, s.clusters);
      const verdict = judgeBinding(A, binding, s.row);
      assert.ok(verdict.ok, `the engine's own binding for ${JSON.stringify(template.metadata)} is judged A's: ${verdict.ok ? '' : verdict.reason}`);
      const tctx = { id: A };
      const pruned = pruneTemplate(tctx, template);
      assert.ok(pruned);
      // The claim (which policy binds the template) is the same whatever the template says under the engine's keys:
      // a label naming B's policy, or a claim label of A's other policy, chooses nothing.
      const nsPolicies = [policy('PropagationPolicy', 'mine', s.namespace, { apiVersion: 'v1', kind: 'ConfigMap', name: 'web' })];
      const clusterPolicies = [policy('ClusterPropagationPolicy', 'cluster-mine', undefined, { apiVersion: template.apiVersion ?? '', kind: s.row.kind })];
      const plain = { ...pruned, metadata: { ...pruned.metadata, labels: withoutEngineKeys(pruned.metadata.labels) ?? {} } };
      const claim = claimOf(pruned, nsPolicies, clusterPolicies, undefined);
      assert.deepEqual(claim, claimOf(plain, nsPolicies, clusterPolicies, undefined), `the claim of ${JSON.stringify(pruned.metadata)}`);
      // (None only for what Karmada never propagates: a Namespace named like an execution space.)
      if (claim) seen.claims++;
      assert.ok(claim === undefined || claim.policyName === 'mine' || claim.policyName === 'cluster-mine', `claimed by A's own policy: ${claim?.policyName ?? 'none'}`);
      const namespace = binding.metadata.namespace ?? '';
      const marks = bindingMarks({ namespace, name: binding.metadata.name ?? '', uid: UID_A, tenantNamespace: namespace ? s.namespace : '' });
      const plan = { tctx, resource: s.row, marks, tenant: tenantA, workName: 'slot', pruned };
      const existing = s.existing ? existingObject(template, s.existing) : undefined;
      const stored: Stored[] = existing ? [{ row: s.row, obj: existing }] : [];

      const { allowed } = splitTargets(binding.spec.clusters ?? [], ALLOWED);
      for (const target of allowed) {
        assert.ok(ALLOWED.has(target.name), `a write planned on ${target.name}`);
        const { manifest } = manifestFor(pruned, target, member(target.name), false, [], s.override ? [overridePolicy(s.override)] : []);
        const copy = memberCopyFor(plan, target.name, manifest);
        if (!copy.ok || !inTenantSpace(A, s.row, copy.obj, verdict.address)) continue; // refused: nothing is written
        const { member: m, applied } = fakeMember(stored);
        await applyToMember(m, s.row, copy.obj, { tenantId: A, existing: 'unknown', overwrite: s.overwrite }).catch((err: unknown) => {
          if (!(err instanceof ConflictError)) throw err;
          seen.refusedUpdates++;
        });
        for (const w of applied) {
          seen.writes++;
          const labels = w.body.metadata.labels ?? {};
          assert.ok(isOwnCopy(labels), `written with A's marks: ${JSON.stringify(labels)}`);
          assert.ok(inTenantSpace(A, s.row, w.body, verdict.address), `written at ${w.path}, in A's space`);
          const engineLabels: Record<string, string> = { ...marks.labels, [TENANT_LABEL]: A };
          const engineAnnotations: Record<string, string> = {
            ...marks.annotations, 'work.karmada.io/name': 'slot', 'work.karmada.io/namespace': `karmada-es-${target.name}`, 'resourcetemplate.karmada.io/generation': '2',
          };
          for (const [map, engine] of [[labels, engineLabels], [w.body.metadata.annotations ?? {}, engineAnnotations]] as const) {
            for (const [key, value] of Object.entries(map)) {
              if (RESERVED.test(key)) assert.equal(value, engine[key], `${w.path}: ${key}=${value} is the engine's (${engine[key] ?? 'absent'}), not the template's`);
            }
          }
          if (!w.before) continue;
          seen.updates++;
          const before = w.before.metadata.labels ?? {};
          assert.notEqual(before[TENANT_LABEL], B, `updated B's object ${JSON.stringify(before)}`);
          if (carriesBindingMarks(before)) assert.equal(before[TENANT_LABEL], A, `updated a copy of a binding not A's: ${JSON.stringify(before)}`);
          const namespaceOfA = s.row.kind === 'Namespace' && before[TENANT_LABEL] === A;
          assert.ok(isOwnCopy(before) || s.overwrite || namespaceOfA, `updated ${JSON.stringify(before)} without Overwrite, not this binding's copy`);
        }
      }
      // Every cluster the binding does not keep loses its copy; judged against what the member holds.
      for (const cluster of CLUSTERS.filter((c) => !allowed.some((t) => t.name === c))) {
        const { member: m, deleted } = fakeMember(stored);
        await deleteFromMember(m, s.row, { tenantId: A, bindingUid: UID_A, address: verdict.address });
        for (const d of deleted) {
          seen.deletes++;
          assert.ok(isOwnCopy(d.obj.metadata.labels ?? {}), `${cluster}: deleted ${JSON.stringify(d.obj.metadata)}`);
          assert.ok(inTenantSpace(A, s.row, d.obj, verdict.address));
        }
      }
      // Which Works are the binding's (its removal deletes them): never one in B's space, or without the creator mark.
      for (const w of s.works) {
        const labels = { ...(w.engine ? { [TENANT_LABEL]: A, [PID]: UID_A, [MANAGED]: 'true' } : {}), ...w.labels };
        const annotations = { ...(w.engine ? { 'propagation.warren.dev/binding-uid': UID_A } : {}), ...w.annotations };
        const work = { apiVersion: 'work.karmada.io/v1alpha1', kind: 'Work', metadata: { name: w.name, namespace: w.namespace, uid: 'w', labels, annotations }, specHash: '' } as WorkView;
        if (!isSlotOf({ uid: UID_A, tenantId: A, workName: 'slot' }, work)) continue;
        seen.slots++;
        assert.equal(annotations['propagation.warren.dev/binding-uid'], UID_A);
        assert.equal(labels[TENANT_LABEL], A);
        assert.equal(w.name, 'slot');
        assert.match(w.namespace, new RegExp(`^${A}-karmada-es-`));
      }
    }), { numRuns: 1500 });
    // Both sides of every rule are reached, so the property is not vacuous.
    for (const [what, count] of Object.entries(seen)) assert.ok(count > 5, `${what}: ${count}`);
  });
});
