import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { prefixOwner, tenantOwnerOf } from '../../../../src/gateway/cache/tenant-owner.ts';
import { TENANT_LABEL } from '../../../../src/core/tenancy/tenant-id.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

const obj = (meta: KubeObject['metadata']): KubeObject => ({ metadata: meta });
const plain = { crdNames: false };
const crds = { crdNames: true };

describe('tenantOwnerOf', () => {
  const cases: { name: string; obj: KubeObject; rule?: { crdNames: boolean }; want: string | undefined }[] = [
    { name: 'namespaced object in a tenant namespace, no label (an Event)', obj: obj({ namespace: 'abc123-web', name: 'x.1' }), want: 'abc123' },
    { name: 'namespaced object with a foreign label still follows its namespace', obj: obj({ namespace: 'abc123-web', name: 'x', labels: { [TENANT_LABEL]: 'zzz999' } }), want: 'abc123' },
    { name: 'kube-system belongs to nobody', obj: obj({ namespace: 'kube-system', name: 'x' }), want: undefined },
    { name: 'default belongs to nobody', obj: obj({ namespace: 'default', name: 'x' }), want: undefined },
    { name: 'a bare prefix is no tenant namespace', obj: obj({ namespace: 'abc123-', name: 'x' }), want: undefined },
    { name: 'an id cannot start with a digit', obj: obj({ namespace: '1bc123-web', name: 'x' }), want: undefined },
    { name: 'cluster-scoped, prefixed and labelled', obj: obj({ name: 'abc123-web', labels: { [TENANT_LABEL]: 'abc123' } }), want: 'abc123' },
    { name: 'cluster-scoped, prefixed but not labelled (an upstream look-alike)', obj: obj({ name: 'system-critical' }), want: undefined },
    { name: 'cluster-scoped, label of another tenant', obj: obj({ name: 'abc123-web', labels: { [TENANT_LABEL]: 'def456' } }), want: undefined },
    { name: 'cluster-scoped, labelled but not prefixed', obj: obj({ name: 'web', labels: { [TENANT_LABEL]: 'abc123' } }), want: undefined },
    { name: 'CRD: the prefix is on the group', obj: obj({ name: 'foos.abc123-a.com', labels: { [TENANT_LABEL]: 'abc123' } }), rule: crds, want: 'abc123' },
    { name: 'CRD of the platform', obj: obj({ name: 'tenants.tenancy.warren.dev' }), rule: crds, want: undefined },
  ];
  for (const c of cases) it(c.name, () => assert.equal(tenantOwnerOf(c.obj, c.rule ?? plain), c.want));

  it('finds the id of any prefixed value (property)', () => {
    const id = fc.stringMatching(/^[a-z][a-z0-9]{5}$/);
    const rest = fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,40}$/);
    fc.assert(fc.property(id, rest, (i, r) => prefixOwner(`${i}-${r}`) === i
      && tenantOwnerOf(obj({ namespace: `${i}-${r}`, name: 'n' }), plain) === i));
  });
});
