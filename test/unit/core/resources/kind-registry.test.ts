// One registry of kinds (issue 17, item 4). The rows of core/tenancy/resource-classes.ts
// (RESOURCE_CLASS_ROWS: the embedded apiserver's built-ins, core/resources/builtin-resources.ts,
// plus the resources only real apiservers and Karmada serve) are the registry; the class
// table derives from it. The other per-kind tables are keyed three ways (group/Kind,
// resource.group, proto package + message) and cannot all derive from it, so each is held
// to it here: every disagreement is listed, and the known ones are written down with
// their reason. A new row in one table that the others do not know fails this file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BUILTIN_RESOURCES } from '../../../../src/core/resources/builtin-resources.ts';
import { resourceKey } from '../../../../src/core/resources/resource-def.ts';
import { RESOURCE_CLASS_ROWS, rowOfKind, rowOfResource } from '../../../../src/core/tenancy/resource-classes.ts';
import { KIND_CONVERTERS } from '../../../../src/core/tenancy/kind-converters.ts';
import { PRINTED_RESOURCES } from '../../../../src/core/table/printers.ts';
import { BUILTIN_DEFINITIONS } from '../../../../src/core/patch/patch-strategies.ts';
import { PACKAGES } from '../../../../src/core/protobuf/schema/index.ts';
import { defaultClusterRoles } from '../../../../src/core/rbac/default-roles.ts';
import { HELD_KINDS } from '../../../../src/core/propagation/held-kinds.ts';
import { VALIDATED_RESOURCES } from '../../../../src/apiserver/validation/validate.ts';
import { TEMPLATE_RESOURCES } from '../../../../src/controllers/propagation/template-resources.ts';

const sorted = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();
const kindKey = (group: string, kind: string): string => `${group}/${kind}`;
const BUILTIN_KINDS = new Set(BUILTIN_RESOURCES.map((d) => kindKey(d.group, d.kind)));

/** The proto package kube publishes a group/version in (k8s.io.api.<first label of the group>.<version>). */
function protoPackage(group: string, version: string): string {
  return `k8s.io.api.${group === '' ? 'core' : group.split('.')[0]}.${version}`;
}

describe('one registry of kinds: every per-kind table agrees with it', () => {
  it('the registry itself: one row per resource and per kind, scopes as the built-ins say', () => {
    const resources = RESOURCE_CLASS_ROWS.map((r) => resourceKey(r.group, r.resource));
    assert.deepEqual(resources.filter((k, i) => resources.indexOf(k) !== i), [], 'a resource in two rows');
    for (const def of BUILTIN_RESOURCES) {
      assert.equal(rowOfResource(def.group, def.resource)?.namespaced, def.namespaced, resourceKey(def.group, def.resource));
    }
  });

  it('kind converters convert registry kinds a tenant can reach', () => {
    const unknown = [...KIND_CONVERTERS.keys()].filter((k) => {
      const slash = k.lastIndexOf('/');
      return !rowOfKind(k.slice(0, slash), k.slice(slash + 1));
    });
    assert.deepEqual(unknown, [], 'converters for kinds the registry does not know');
    const unreachable = [...KIND_CONVERTERS.keys()].filter((k) => {
      const slash = k.lastIndexOf('/');
      return rowOfKind(k.slice(0, slash), k.slice(slash + 1))?.class === 'denied';
    });
    // PersistentVolume: denied to tenants today; its claimRef converter is kept ready for the day
    // volumes are offered to tenants (the PVC converter's volumeName follows the same switch).
    assert.deepEqual(sorted(unreachable), ['/PersistentVolume']);
  });

  it('table printers print registry resources', () => {
    assert.deepEqual(PRINTED_RESOURCES.filter((key) => !RESOURCE_CLASS_ROWS.some((r) => resourceKey(r.group, r.resource) === key)), []);
  });

  it('kind-specific validation validates built-in resources', () => {
    assert.deepEqual(VALIDATED_RESOURCES.filter((key) => !BUILTIN_RESOURCES.some((d) => resourceKey(d.group, d.resource) === key)), []);
  });

  it('strategic-merge definitions name registry kinds, and every built-in kind that kube patches strategically has one', () => {
    const definitionKinds = Object.keys(BUILTIN_DEFINITIONS).map((gvk) => {
      const parts = gvk.split('/');
      return kindKey(parts.length === 3 ? parts[0] ?? '' : '', parts[parts.length - 1] ?? '');
    });
    assert.deepEqual(definitionKinds.filter((k) => !BUILTIN_KINDS.has(k) && !RESOURCE_CLASS_ROWS.some((r) => kindKey(r.group, r.kind) === k)), []);
    const missing = [...BUILTIN_KINDS].filter((k) => !definitionKinds.includes(k));
    // A new built-in kind without a definition (kube would accept its strategic patches) fails here.
    assert.deepEqual(sorted(missing), sorted(KNOWN_WITHOUT_DEFINITION));
  });

  it('protobuf schemas decode every built-in kind kubectl may send', () => {
    const missing = BUILTIN_RESOURCES.filter((d) => !PACKAGES[protoPackage(d.group, d.version)]?.[d.kind]).map((d) => kindKey(d.group, d.kind));
    assert.deepEqual(sorted(missing), sorted(KNOWN_WITHOUT_PROTO));
  });

  it('the engine\'s template rows and held kinds are tenant kinds of the registry, with the registry\'s scope', () => {
    for (const t of TEMPLATE_RESOURCES) {
      const row = rowOfResource(t.group, t.resource);
      assert.ok(row, `template row ${t.group}/${t.resource} is not in the registry`);
      assert.equal(row.kind, t.kind, `${t.resource}: kind`);
      assert.equal(row.namespaced, !t.clusterScoped, `${t.resource}: scope`);
      assert.match(row.class, /^tenant-/, `${t.resource}: a template must be the tenant's own`);
    }
    for (const h of HELD_KINDS) {
      assert.ok(TEMPLATE_RESOURCES.some((t) => t.group === h.group && t.resource === h.resource && t.kind === h.kind), `held kind ${h.kind} is not a template row`);
    }
  });

  it('default roles name registry resources (kube\'s bootstrap policy aside)', () => {
    const named = defaultClusterRoles().flatMap((role) => (role.rules ?? []).flatMap((rule) =>
      (rule.apiGroups ?? []).flatMap((g) => (rule.resources ?? []).map((res) => ({ group: g, resource: res.split('/')[0] ?? res })))));
    const unknown = named.filter((n) => n.group !== '*' && n.resource !== '*' && !rowOfResource(n.group, n.resource)).map((n) => resourceKey(n.group, n.resource));
    assert.deepEqual(sorted(unknown), sorted(KNOWN_BOOTSTRAP_ONLY));
  });
});

// Built-in kinds without a strategic-merge definition: the create-only reviews (never patched).
const KNOWN_WITHOUT_DEFINITION: string[] = ['authorization.k8s.io/SelfSubjectAccessReview', 'authorization.k8s.io/SelfSubjectRulesReview'];
// Built-in kinds the protobuf tables do not hold.
// CRDs: apiextensions is not in client-go's built-in scheme, so kubectl sends them as JSON.
const KNOWN_WITHOUT_PROTO: string[] = ['apiextensions.k8s.io/CustomResourceDefinition'];
// Resources kube's bootstrap roles name that the registry does not serve (kube keeps them for old clients).
// `bindings` is pods/binding's old top-level form; `extensions` is the group the workloads left in 1.16.
const KNOWN_BOOTSTRAP_ONLY: string[] = [
  'bindings', 'daemonsets.extensions', 'deployments.extensions', 'ingresses.extensions', 'networkpolicies.extensions',
  'replicasets.extensions', 'replicationcontrollers.extensions',
];
