// Property (ADR 19): whatever a binding upstream says (forged spec.resource,
// spec.clusters, labels, namespaces) and whatever the members hold (objects with
// forged marks), the engine's member writes land only on clusters the Tenant
// allows and at the binding tenant's own addresses, and its deletes (the real
// deleteFromMember, against a map-backed member) only remove objects carrying
// that tenant's and that binding's marks in that tenant's space.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ResourceBinding } from '../../../../src/core/propagation/karmada-types.ts';
import { judgeBinding, tenantNameOf } from '../../../../src/core/propagation/trust/binding-trust.ts';
import { splitTargets } from '../../../../src/core/propagation/trust/allowed-targets.ts';
import { deleteFromMember } from '../../../../src/controllers/propagation/member-apply.ts';
import { TEMPLATE_RESOURCES, type TemplateResource } from '../../../../src/controllers/propagation/template-resources.ts';
import { fakeMember, type Stored } from './support/fake-member.ts';

const A = 'aaaaaa';
const B = 'bbbbbb';
const UID = 'uid-a';
const ALLOWED = new Set(['member2']);
const CLUSTERS = ['member1', 'member2', 'member3'];
const ROWS: TemplateResource[] = [
  ...TEMPLATE_RESOURCES,
  { group: `${A}-a.com`, version: 'v1', resource: 'foos', kind: 'Foo', hasStatus: false, custom: true, clusterScoped: true },
  { group: `${B}-a.com`, version: 'v1', resource: 'bars', kind: 'Bar', hasStatus: false, custom: true },
];
const NAMESPACES = ['', `${A}-dev`, `${B}-dev`, `${B}-prod`, 'dev', 'kube-system'];
const NAMES = ['web', `${A}-dev`, `${B}-prod`, 'kube-system', `foos.${A}-a.com`, `foos.${B}-a.com`, `${A}-reader`, `${B}-reader`, `${A}-`, '..', 'local'];
const labelValue = <T>(values: T[]) => fc.option(fc.constantFrom(...values), { nil: undefined });

const arbBinding = fc.record({
  namespace: fc.constantFrom(...NAMESPACES),
  name: fc.constantFrom(`${A}-x`, `${B}-x`, 'x'),
  tenant: labelValue([A, B]),
  row: fc.constantFrom(...ROWS),
  resourceName: fc.constantFrom(...NAMES),
  resourceNamespace: fc.option(fc.constantFrom(...NAMESPACES), { nil: undefined }),
  clusters: fc.array(fc.constantFrom(...CLUSTERS, 'ghost'), { maxLength: 5 }),
  /** The member also holds an object at the address the binding names, with tenant A's marks for it (forged or not). */
  markedAtAddress: fc.boolean(),
});

const arbMemberObject = fc.record({
  row: fc.constantFrom(...ROWS),
  namespace: fc.constantFrom(...NAMESPACES),
  name: fc.constantFrom(...NAMES),
  tenant: labelValue([A, B]),
  permanentId: labelValue([UID, 'uid-b']),
  managed: labelValue(['true', 'false']),
});

function inSpaceOf(tenant: string, row: TemplateResource, namespace: string, name: string): boolean {
  return row.clusterScoped ? namespace === '' && tenantNameOf(tenant, row, name) !== undefined : namespace.startsWith(`${tenant}-`) && namespace.length > tenant.length + 1;
}

describe('forged bindings and member objects', () => {
  it('property: writes only to allowed clusters at the tenant\'s addresses; deletes only the binding\'s marked copies', async () => {
    let judgedOk = 0;
    let deletions = 0;
    await fc.assert(fc.asyncProperty(arbBinding, fc.array(arbMemberObject, { maxLength: 12 }), async (b, found) => {
      const binding: ResourceBinding = {
        apiVersion: 'work.karmada.io/v1alpha2', kind: b.namespace ? 'ResourceBinding' : 'ClusterResourceBinding',
        metadata: { name: b.name, uid: UID, ...(b.namespace ? { namespace: b.namespace } : {}), ...(b.tenant ? { labels: { 'tenancy.warren.dev/tenant': b.tenant } } : {}) },
        spec: { resource: { apiVersion: 'v1', kind: b.row.kind, name: b.resourceName, ...(b.resourceNamespace !== undefined ? { namespace: b.resourceNamespace } : {}) }, clusters: b.clusters.map((name) => ({ name })) },
      };
      // The member holds the random objects, plus tenant B's namespace and a member-local ConfigMap in it.
      const stored: Stored[] = found.map((o, i) => ({
        row: o.row,
        obj: { apiVersion: 'v1', kind: o.row.kind, metadata: {
          name: o.name, uid: `obj-${i}`, ...(o.row.clusterScoped || !o.namespace ? {} : { namespace: o.namespace }),
          labels: { ...(o.tenant ? { 'tenancy.warren.dev/tenant': o.tenant } : {}), ...(o.permanentId ? { 'resourcebinding.karmada.io/permanent-id': o.permanentId } : {}), ...(o.managed ? { 'karmada.io/managed': o.managed } : {}) },
        } },
      }));
      if (b.markedAtAddress) {
        stored.push({ row: b.row, obj: { apiVersion: 'v1', kind: b.row.kind, metadata: {
          name: b.resourceName, uid: 'at-address', ...(b.row.clusterScoped ? {} : { namespace: b.namespace || b.resourceNamespace || '' }),
          labels: { 'tenancy.warren.dev/tenant': A, 'resourcebinding.karmada.io/permanent-id': UID, 'karmada.io/managed': 'true' },
        } } });
      }
      const nsRow = ROWS.find((r) => r.kind === 'Namespace')!;
      const cmRow = ROWS.find((r) => r.kind === 'ConfigMap')!;
      stored.push({ row: nsRow, obj: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${B}-prod`, uid: 'b-ns', labels: { 'tenancy.warren.dev/tenant': B } } } });
      stored.push({ row: cmRow, obj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'local', namespace: `${B}-prod`, uid: 'b-cm' } } });

      const verdict = judgeBinding(A, binding, b.row);
      if (!verdict.ok) return; // ignored: no member write at all
      judgedOk++;
      const { allowed } = splitTargets(binding.spec.clusters ?? [], ALLOWED);
      for (const t of allowed) {
        assert.ok(ALLOWED.has(t.name), `apply planned on ${t.name}`);
        assert.ok(inSpaceOf(A, b.row, verdict.address.namespace, verdict.address.name), `apply address ${JSON.stringify(verdict.address)} is tenant A's`);
      }
      // Every other cluster loses the binding's copy: through the real delete, against what the member holds.
      for (const cluster of CLUSTERS.filter((c) => !allowed.some((t) => t.name === c))) {
        const { member, deleted } = fakeMember(stored);
        await deleteFromMember(member, b.row, { tenantId: A, bindingUid: UID, address: verdict.address });
        for (const d of deleted) {
          deletions++;
          const labels = d.obj.metadata.labels ?? {};
          assert.equal(labels['tenancy.warren.dev/tenant'], A, `${cluster}: deleted ${JSON.stringify(d.obj.metadata)} carries tenant A's label`);
          assert.equal(labels['resourcebinding.karmada.io/permanent-id'], UID);
          assert.equal(labels['karmada.io/managed'], 'true');
          assert.ok(inSpaceOf(A, d.row, d.obj.metadata.namespace ?? '', d.obj.metadata.name ?? ''), `deleted ${JSON.stringify(d.obj.metadata)} is in A's space`);
          assert.notEqual(d.obj.metadata.uid, 'b-ns');
          assert.notEqual(d.obj.metadata.uid, 'b-cm');
        }
      }
    }), { numRuns: 2000 });
    // The generators reach both sides of the rules, so the property is not vacuous.
    assert.ok(judgedOk > 20, `bindings judged the tenant's: ${judgedOk}`);
    assert.ok(deletions > 0, `deletions happened: ${deletions}`);
  });
});
