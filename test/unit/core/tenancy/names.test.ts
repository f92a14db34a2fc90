import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  toTenantApiVersion, toTenantClusterName, toTenantCrdName, toTenantGroup, toTenantNamespace,
  toUpstreamApiVersion, toUpstreamClusterName, toUpstreamCrdName, toUpstreamGroup, toUpstreamNamespace,
} from '../../../../src/core/tenancy/names.ts';
import { toTenantUser, toTenantUserGroup, toUpstreamUser, toUpstreamUserGroup } from '../../../../src/core/tenancy/user-names.ts';
import { isTenantId } from '../../../../src/core/tenancy/tenant-id.ts';
import { NAMESPACE_BUDGET } from '../../../../src/core/tenancy/namespace-budget.ts';
import { checkPrefixedName } from '../../../../src/core/tenancy/prefixed-name-check.ts';
import { dnsLabelArb, tenantIdArb } from './name-arbitraries.ts';

/** A namespace as the tenant wrote it, checked as the gateway checks every prefixed Namespace. */
const checkNamespaceName = (name: string) => checkPrefixedName('label', { kind: 'Namespace', group: '', name });

const groupArb = fc.array(dnsLabelArb, { minLength: 2, maxLength: 4 }).map((parts) => parts.join('.'));
const A = 'aaaaaa';
const B = 'bbbbbb';

describe('tenant ids', () => {
  const cases = [
    { id: 'abc123', ok: true }, { id: 'a00000', ok: true }, { id: '1abcde', ok: false },
    { id: 'abcde', ok: false }, { id: 'abcdefg', ok: false }, { id: 'Abcdef', ok: false }, { id: 'abc-de', ok: false },
  ];
  for (const c of cases) it(`${c.id} is ${c.ok ? 'valid' : 'invalid'}`, () => assert.equal(isTenantId(c.id), c.ok));
});

describe('name mappings', () => {
  const cases = [
    { name: 'namespace', up: toUpstreamNamespace(A, 'dev'), want: 'aaaaaa-dev' },
    { name: 'cluster name', up: toUpstreamClusterName(A, 'view'), want: 'aaaaaa-view' },
    { name: 'group', up: toUpstreamGroup(A, 'a.com'), want: 'aaaaaa-a.com' },
    { name: 'crd name', up: toUpstreamCrdName(A, 'foos.a.com'), want: 'foos.aaaaaa-a.com' },
    { name: 'apiVersion', up: toUpstreamApiVersion(A, 'a.com/v1'), want: 'aaaaaa-a.com/v1' },
    { name: 'core apiVersion untouched', up: toUpstreamApiVersion(A, 'v1'), want: 'v1' },
    { name: "B's prefix spelled in a namespace is just a name", up: toUpstreamNamespace(A, 'bbbbbb-prod'), want: 'aaaaaa-bbbbbb-prod' },
    { name: 'user', up: toUpstreamUser(A, 'alice'), want: 'warren:aaaaaa:alice' },
    { name: 'system user is namespaced too', up: toUpstreamUser(A, 'system:admin'), want: 'warren:aaaaaa:system:admin' },
    // ADR 0028: a ServiceAccount user is the tenant's too, never the host ServiceAccount behind it.
    { name: 'service account user', up: toUpstreamUser(A, 'system:serviceaccount:dev:bot'), want: 'warren:aaaaaa:system:serviceaccount:dev:bot' },
    { name: 'group', up: toUpstreamUserGroup(A, 'system:authenticated'), want: 'warren:aaaaaa:system:authenticated' },
    { name: 'service account group', up: toUpstreamUserGroup(A, 'system:serviceaccounts:dev'), want: 'warren:aaaaaa:system:serviceaccounts:dev' },
    { name: 'all service accounts is per tenant', up: toUpstreamUserGroup(A, 'system:serviceaccounts'), want: 'warren:aaaaaa:system:serviceaccounts' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(c.up, c.want));

  const foreign = [
    { name: "B's namespace", got: toTenantNamespace(A, 'bbbbbb-dev') },
    { name: 'unprefixed namespace', got: toTenantNamespace(A, 'kube-system') },
    { name: 'bare prefix', got: toTenantNamespace(A, 'aaaaaa-') },
    { name: 'prefix without dash', got: toTenantNamespace(A, 'aaaaaadev') },
    { name: "B's group", got: toTenantGroup(A, 'bbbbbb-a.com') },
    { name: "B's CRD", got: toTenantCrdName(A, 'foos.bbbbbb-a.com') },
    { name: 'core apiVersion is no tenant group', got: toTenantApiVersion(A, 'v1') },
    { name: "B's user", got: toTenantUser(A, 'warren:bbbbbb:alice') },
    { name: 'real upstream user', got: toTenantUser(A, 'system:admin') },
    { name: "B's service account", got: toTenantUser(A, 'system:serviceaccount:bbbbbb-dev:bot') },
    { name: "B's group", got: toTenantUserGroup(A, 'warren:bbbbbb:devs') },
    { name: 'A embedded after B', got: toTenantClusterName(A, `${B}-${A}-x`) },
  ];
  for (const c of foreign) it(`inverse refuses ${c.name}`, () => assert.equal(c.got, undefined));
});

describe('name mapping round trips', () => {
  const pairs: Array<{ name: string; arb: fc.Arbitrary<string>; up: (id: string, v: string) => string; down: (id: string, v: string) => string | undefined }> = [
    { name: 'namespace', arb: dnsLabelArb, up: toUpstreamNamespace, down: toTenantNamespace },
    { name: 'cluster name', arb: fc.string({ minLength: 1 }), up: toUpstreamClusterName, down: toTenantClusterName },
    { name: 'group', arb: groupArb, up: toUpstreamGroup, down: toTenantGroup },
    { name: 'crd name', arb: fc.tuple(dnsLabelArb, groupArb).map(([p, g]) => `${p}.${g}`), up: toUpstreamCrdName, down: toTenantCrdName },
    { name: 'apiVersion', arb: fc.tuple(groupArb, dnsLabelArb).map(([g, v]) => `${g}/${v}`), up: toUpstreamApiVersion, down: toTenantApiVersion },
    { name: 'user', arb: fc.oneof(fc.string({ minLength: 1 }), fc.tuple(dnsLabelArb, dnsLabelArb).map(([n, s]) => `system:serviceaccount:${n}:${s}`)), up: toUpstreamUser, down: toTenantUser },
    { name: 'user group', arb: fc.oneof(fc.string({ minLength: 1 }), dnsLabelArb.map((n) => `system:serviceaccounts:${n}`)), up: toUpstreamUserGroup, down: toTenantUserGroup },
  ];
  for (const p of pairs) {
    it(`${p.name}: inverse undoes forward`, () => {
      fc.assert(fc.property(tenantIdArb, p.arb, (id, v) => p.down(id, p.up(id, v)) === v));
    });
    it(`${p.name}: another tenant never gets it back`, () => {
      fc.assert(fc.property(tenantIdArb, tenantIdArb, p.arb, (id, other, v) => id === other || p.down(other, p.up(id, v)) === undefined));
    });
  }
});

describe('namespace budget', () => {
  it('accepts 56 characters', () => assert.equal(checkNamespaceName('a'.repeat(NAMESPACE_BUDGET)), null));
  it('refuses 57 with 422 in tenant terms', () => {
    const err = checkNamespaceName('a'.repeat(57));
    assert.ok(err);
    const status = err.toStatus();
    assert.equal(status.code, 422);
    assert.equal(status.reason, 'Invalid');
    assert.equal(status.details?.name, 'a'.repeat(57));
    assert.equal(status.details?.causes?.[0]?.field, 'metadata.name');
    assert.match(status.message ?? '', /must be no more than 56 characters/);
  });
  it('refuses a name that is a DNS label only once prefixed (leading "-"), in tenant terms', () => {
    const err = checkNamespaceName('-shop');
    assert.ok(err, '`<id>--shop` is a valid upstream label; `-shop` is not a namespace name in kube');
    const status = err.toStatus();
    assert.equal(status.code, 422);
    assert.match(status.message ?? '', /^Namespace "-shop" is invalid: metadata\.name: Invalid value: "-shop": a lowercase RFC 1123 label/);
  });
  it('accepts exactly the DNS labels kube accepts, within the budget (property)', () => {
    const kubeLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
    const chars = fc.constantFrom(...'ab0-.A_\u00e9'.split(''));
    fc.assert(fc.property(fc.array(chars, { minLength: 1, maxLength: 70 }).map((c) => c.join('')), (name) => {
      const accepted = checkNamespaceName(name) === null;
      assert.equal(accepted, kubeLabel.test(name) && name.length <= NAMESPACE_BUDGET, `${JSON.stringify(name)}: accepted=${accepted}`);
    }));
  });
});
