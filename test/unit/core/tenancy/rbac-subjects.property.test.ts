// Subject translation, both directions, over every subject shape (ADR 0028):
// every kind, namespaces present or absent, names that forge `warren:`
// prefixes, other tenants' ids, host identities, ServiceAccount user and group
// names. Upstream, a tenant's binding names only identities in its own
// `warren:<id>:` space (never a host identity, its own ServiceAccounts' included);
// the way back returns what the tenant wrote, and never to another tenant.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { toUpstreamSubjects } from '../../../../src/core/tenancy/rbac-subjects.ts';
import { toTenantSubject, toUpstreamSubject, type Subject } from '../../../../src/core/tenancy/references.ts';
import { ApiError } from '../../../../src/core/api-error.ts';
import { dnsLabelArb, tenantIdArb } from './name-arbitraries.ts';

const RBAC = 'rbac.authorization.k8s.io';
const twoTenants = fc.tuple(tenantIdArb, tenantIdArb).filter(([a, b]) => a !== b);

/** Names a hostile tenant may write, built around the other tenant's id. */
const nameArb = (other: string): fc.Arbitrary<string> => fc.oneof(
  fc.string({ minLength: 1, maxLength: 30 }),
  dnsLabelArb,
  fc.constantFrom('system:masters', 'system:authenticated', 'system:serviceaccounts', 'system:anonymous', 'admin', 'system:kube-controller-manager'),
  dnsLabelArb.map((n) => `warren:${other}:${n}`),
  fc.tuple(dnsLabelArb, dnsLabelArb).map(([ns, sa]) => `system:serviceaccount:${ns}:${sa}`),
  fc.tuple(dnsLabelArb, dnsLabelArb).map(([ns, sa]) => `system:serviceaccount:${other}-${ns}:${sa}`),
  dnsLabelArb.map((ns) => `system:serviceaccounts:${ns}`),
  dnsLabelArb.map((ns) => `system:serviceaccounts:${other}-${ns}`),
  dnsLabelArb.map((n) => `warren:${other}:system:serviceaccount:${n}:x`),
);
const namespaceArb = (other: string): fc.Arbitrary<string | undefined> => fc.oneof(
  fc.constant(undefined), dnsLabelArb, dnsLabelArb.map((n) => `${other}-${n}`), fc.constantFrom('kube-system', 'default', `warren:${other}:x`),
);
const subjectArb = (other: string): fc.Arbitrary<Subject> => fc.oneof(
  fc.record({ kind: fc.constant('ServiceAccount'), name: dnsLabelArb, namespace: namespaceArb(other) }).map(({ namespace, ...s }) => (namespace === undefined ? s : { ...s, namespace })),
  fc.record({ kind: fc.constantFrom('User', 'Group'), apiGroup: fc.constant(RBAC), name: nameArb(other) }),
);
const bindingArb = fc.oneof(
  dnsLabelArb.map((namespace) => ({ kind: 'RoleBinding' as const, name: 'b', namespace })),
  fc.constant({ kind: 'ClusterRoleBinding' as const, name: 'b', namespace: undefined as string | undefined }),
);

/** What the tenant reads back for what it wrote: kube's meaning, in kube's spelling. */
function expected(s: Subject, bindingNamespace: string | undefined): Subject {
  if (s.kind === 'ServiceAccount') return { kind: 'ServiceAccount', name: s.name, namespace: s.namespace || (bindingNamespace ?? '') };
  const sa = s.kind === 'User' ? /^system:serviceaccount:(.+):([^:]+)$/.exec(s.name) : null;
  return sa ? { kind: 'ServiceAccount', name: sa[2] ?? '', namespace: sa[1] ?? '' } : { ...s };
}

describe('RBAC subjects, tenant → upstream → tenant', () => {
  it('upstream, every subject is a user or group of the tenant\'s own warren:<id>: space, and reads back as written', () => {
    fc.assert(fc.property(twoTenants.chain(([a, b]) => fc.tuple(fc.constant(a), fc.constant(b), fc.array(subjectArb(b), { maxLength: 6 }), bindingArb)), ([a, b, subjects, binding]) => {
      let up: Subject[];
      try {
        up = toUpstreamSubjects({ id: a }, subjects.map((s) => ({ ...s })), binding);
      } catch (err) {
        // Only kube's own refusal: a ServiceAccount without a namespace in a ClusterRoleBinding.
        assert.ok(err instanceof ApiError && err.code === 422, String(err));
        assert.ok(binding.kind === 'ClusterRoleBinding' && subjects.some((s) => s.kind === 'ServiceAccount' && !s.namespace));
        assert.doesNotMatch(err.message, new RegExp(`${a}-|warren:`));
        return;
      }
      assert.equal(up.length, subjects.length);
      up.forEach((u, i) => {
        const s = subjects[i] as Subject;
        assert.ok(u.kind === 'User' || u.kind === 'Group', `kind ${u.kind}`);
        assert.ok(u.name.startsWith(`warren:${a}:`) && u.name.length > `warren:${a}:`.length, `upstream name ${u.name}`);
        assert.equal(u.namespace, undefined);
        assert.deepEqual(toTenantSubject({ id: a }, u), expected(s, binding.namespace), `round trip of ${JSON.stringify(s)}`);
        assert.equal(toTenantSubject({ id: b }, u), undefined, 'another tenant never reads it as its own');
      });
    }));
  });

  it('a ServiceAccount name kube would refuse is refused (422), in tenant terms', () => {
    fc.assert(fc.property(tenantIdArb, fc.constantFrom('Bad_Name', 'a:b', '', 'x'.repeat(254), '-a'), bindingArb, (a, name, binding) => {
      assert.throws(() => toUpstreamSubjects({ id: a }, [{ kind: 'ServiceAccount', name, namespace: 'ns' }], binding),
        (err: unknown) => err instanceof ApiError && err.code === 422 && !err.message.includes(`${a}-`));
    }));
  });
});

describe('RBAC subjects, upstream → tenant → upstream', () => {
  const upstreamArb = (a: string, b: string): fc.Arbitrary<Subject> => fc.oneof(
    subjectArb(b),
    subjectArb(a),
    fc.record({ kind: fc.constantFrom('User', 'Group'), apiGroup: fc.constant(RBAC), name: nameArb(b).map((n) => `warren:${a}:${n}`) }),
    fc.record({ kind: fc.constant('ServiceAccount'), name: dnsLabelArb, namespace: dnsLabelArb.map((n) => `${a}-${n}`) }),
  );

  it('whatever the host holds, the tenant reads only its own, and writing it back names only its own space', () => {
    fc.assert(fc.property(twoTenants.chain(([a, b]) => fc.tuple(fc.constant(a), fc.constant(b), upstreamArb(a, b))), ([a, b, u]) => {
      const mine = toTenantSubject({ id: a }, u);
      const theirs = toTenantSubject({ id: b }, u);
      // A ServiceAccount without a namespace is the binding's own namespace's: the binding decides whose it is.
      if (u.kind !== 'ServiceAccount' || u.namespace) assert.ok(mine === undefined || theirs === undefined, `both tenants read ${JSON.stringify(u)}`);
      if (mine === undefined) return;
      // What the tenant sees came from its own space (today's) or its own namespaces (legacy host identities).
      const own = u.name.startsWith(`warren:${a}:`) || (u.namespace ?? '').startsWith(`${a}-`) || new RegExp(`^system:serviceaccounts?:${a}-`).test(u.name)
        || (u.kind === 'ServiceAccount' && !u.namespace);
      assert.ok(own, `tenant ${a} reads ${JSON.stringify(u)} as ${JSON.stringify(mine)}`);
      const back = toUpstreamSubject({ id: a }, mine, 'ns');
      assert.ok((back.kind === 'User' || back.kind === 'Group') && back.name.startsWith(`warren:${a}:`), `written back as ${JSON.stringify(back)}`);
    }));
  });
});
