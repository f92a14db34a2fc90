// The directory keeps only a Tenant's identity once its TenantInfo is made:
// the id index and pickTenant must decide exactly as on the whole object.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { pickTenant, shrinkToIdentity } from '../../../src/tenants/tenant-info.ts';
import type { Tenant } from '../../../src/tenants/tenant-crd.ts';

const full = (name: string, created: string, specId?: string, statusId?: string): Tenant => ({
  apiVersion: 'tenancy.warren.dev/v1alpha1',
  kind: 'Tenant',
  metadata: { name, uid: `uid-${name}`, resourceVersion: '7', creationTimestamp: created, generation: 3, labels: { a: 'b' }, managedFields: [{ manager: 'x', fieldsV1: { 'f:spec': {} } }] },
  spec: { ...(specId ? { id: specId } : {}), users: [{ name: 'al', admin: true }], suspended: true, quota: { namespaces: 3 } },
  status: { ...(statusId ? { id: statusId } : {}), phase: 'Ready', conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: '', lastTransitionTime: created }] },
}) as Tenant;

const shrunk = (t: Tenant): Tenant => {
  const copy = structuredClone(t);
  shrinkToIdentity(copy);
  return copy;
};

describe('shrinkToIdentity', () => {
  it('keeps name, uid, resourceVersion, creationTimestamp and the ids; drops the rest', () => {
    assert.deepEqual(shrunk(full('acme', '2025-01-01T00:00:00Z', 'abc123', 'abc123')), {
      apiVersion: 'tenancy.warren.dev/v1alpha1',
      kind: 'Tenant',
      metadata: { name: 'acme', uid: 'uid-acme', resourceVersion: '7', creationTimestamp: '2025-01-01T00:00:00Z' },
      spec: { id: 'abc123' },
      status: { id: 'abc123' },
    });
    const pending = shrunk(full('new', '2025-01-01T00:00:00Z'));
    assert.equal(pending.spec, undefined);
    assert.equal(pending.status, undefined);
  });

  it('pickTenant and the id index decide the same on shrunk Tenants (property)', () => {
    const ids = fc.constantFrom('aaaaaa', 'bbbbbb', undefined);
    const tenant = fc.record({ name: fc.constantFrom('t1', 't2', 't3', 't4'), day: fc.integer({ min: 1, max: 3 }), specId: ids, statusId: ids });
    fc.assert(fc.property(fc.uniqueArray(tenant, { selector: (t) => t.name, minLength: 1, maxLength: 4 }), (rows) => {
      const tenants = rows.map((r) => full(r.name, `2025-01-0${r.day}T00:00:00Z`, r.specId, r.statusId));
      const small = tenants.map(shrunk);
      const indexOf = (t: Tenant): string | undefined => t.status?.id || t.spec?.id;
      assert.deepEqual(small.map(indexOf), tenants.map(indexOf));
      for (const id of ['aaaaaa', 'bbbbbb']) {
        const claim = (list: Tenant[]): string | undefined => pickTenant(list.filter((t) => indexOf(t) === id), id)?.metadata.name;
        assert.equal(claim(small), claim(tenants));
      }
    }));
  });
});
