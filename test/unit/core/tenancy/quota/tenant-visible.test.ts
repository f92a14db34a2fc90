// The quota counts what the tenant can see (issue 14, item 3): never an object
// in a namespace outside its space (its kubeconfig Secret in warren-system,
// another tenant's namespace), whatever label it carries.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { visibleToTenant } from '../../../../../src/core/tenancy/quota/tenant-visible.ts';

const ID = 'acme01';
const obj = (metadata: Record<string, unknown>): never => ({ metadata }) as never;

describe('visibleToTenant', () => {
  it('table', () => {
    const cases: Array<[string, Record<string, unknown>, boolean, boolean?]> = [
      ['secret in a tenant namespace', { namespace: `${ID}-default`, name: 's' }, true],
      ['its kubeconfig Secret in warren-system', { namespace: 'warren-system', name: `${ID}-kubeconfig` }, false],
      ['another tenant\'s namespace', { namespace: 'glob02-default', name: 's' }, false],
      ['a namespace of the tenant', { name: `${ID}-apps` }, true],
      ['a cluster-scoped object of another', { name: 'glob02-apps' }, false],
      ['an unprefixed cluster-scoped object', { name: 'system:basic-user' }, false],
      ['a CRD of the tenant', { name: `foos.${ID}-a.com` }, true, true],
      ['a CRD of another', { name: 'foos.glob02-a.com' }, false, true],
      ['no name', {}, false],
    ];
    for (const [what, metadata, expected, crd] of cases) assert.equal(visibleToTenant(ID, obj(metadata), { crd: crd === true }), expected, what);
  });

  it('property: a namespaced object counts exactly when its namespace carries the tenant prefix', () => {
    fc.assert(fc.property(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), fc.boolean(), (ns, ours) => {
      const namespace = ours ? `${ID}-${ns}` : ns;
      return visibleToTenant(ID, obj({ namespace, name: 'x' })) === namespace.startsWith(`${ID}-`);
    }));
  });
});
