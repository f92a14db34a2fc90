// The provisioning API's checks, before anything is written: the name (422),
// strict decoding (400 for unknown fields, as kube's fieldValidation=Strict),
// the spec (422), the precondition (If-Match / resourceVersion) and list paging.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../../../src/core/api-error.ts';
import { decodePut, ifMatchVersion, listQuery } from '../../../../src/gateway/portal/portal-request.ts';
import { checkTenantName } from '../../../../src/tenants/tenant-name.ts';
import { unknownFields } from '../../../../src/gateway/portal/strict-fields.ts';
import { tenantSchema } from '../../../../src/tenants/tenant-crd.ts';

function refusal(fn: () => unknown): { code: number; reason: string; message: string } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ApiError, String(err));
    return { code: err.code, reason: err.reason, message: err.message };
  }
  assert.fail('not refused');
}

const ok = { spec: { users: [{ name: 'alice', admin: true }] } };

describe('provisioning API requests', () => {
  it('a bad name is 422 Invalid on metadata.name, not 404', () => {
    const r = refusal(() => checkTenantName('Bad_Name'));
    assert.equal(r.code, 422);
    assert.equal(r.reason, 'Invalid');
    assert.match(r.message, /^Tenant\.tenancy\.warren\.dev "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 label/);
    assert.equal(refusal(() => checkTenantName('a'.repeat(64))).code, 422);
    checkTenantName('acme-2');
  });

  it('unknown fields anywhere are a 400 strict decoding error naming each', () => {
    const r = refusal(() => decodePut('acme', { metadata: {}, spec: { bogus: 1, users: [{ name: 'a', admin: true, role: 'x' }] } } as never, undefined));
    assert.deepEqual(r, { code: 400, reason: 'BadRequest', message: 'strict decoding error: unknown field "spec.bogus", unknown field "spec.users[0].role"' });
    assert.match(refusal(() => decodePut('acme', { ...ok, status: {}, metadata: { labels: {} } } as never, undefined)).message, /unknown field "status", unknown field "metadata.labels"/);
  });

  it('a spec the controller would refuse is 422 with its causes, before anything is written', () => {
    const r = refusal(() => decodePut('acme', { metadata: {}, spec: { users: [{ name: 'a' }, { name: 'a' }], credentials: { certificateLifetime: '1s' } } } as never, undefined));
    assert.equal(r.code, 422);
    assert.match(r.message, /spec\.users\[1\]\.name: duplicate user "a"/);
    assert.match(r.message, /spec\.credentials\.certificateLifetime: must be at least/);
    assert.equal(refusal(() => decodePut('acme', { metadata: {}, spec: { id: 'NOPE' } } as never, undefined)).code, 422);
  });

  it('the name in the body must match the URL; apiVersion and kind, if given, must be the Tenant\'s', () => {
    assert.equal(refusal(() => decodePut('acme', { ...ok, metadata: { name: 'other' } } as never, undefined)).code, 400);
    assert.equal(refusal(() => decodePut('acme', { ...ok, metadata: {}, kind: 'Pod' } as never, undefined)).code, 400);
    assert.deepEqual(decodePut('acme', { ...ok, apiVersion: 'tenancy.warren.dev/v1alpha1', kind: 'Tenant', metadata: { name: 'acme' } } as never, undefined), { spec: ok.spec });
  });

  it('precondition: If-Match or metadata.resourceVersion; both must agree', () => {
    assert.equal(decodePut('acme', { ...ok, metadata: {} } as never, '"42"').resourceVersion, '42');
    assert.equal(decodePut('acme', { ...ok, metadata: { resourceVersion: '42' } } as never, undefined).resourceVersion, '42');
    assert.equal(refusal(() => decodePut('acme', { ...ok, metadata: { resourceVersion: '41' } } as never, '"42"')).code, 400);
    assert.equal(ifMatchVersion('W/"7"'), '7');
    assert.equal(ifMatchVersion('*'), undefined);
    assert.equal(refusal(() => ifMatchVersion('7')).code, 400);
  });

  it('list paging: limit and continue only', () => {
    assert.deepEqual(listQuery(new URLSearchParams('limit=2&continue=abc')), { limit: 2, continue: 'abc' });
    assert.deepEqual(listQuery(new URLSearchParams('limit=0')), {});
    assert.equal(refusal(() => listQuery(new URLSearchParams('limit=-1'))).code, 400);
    assert.equal(refusal(() => listQuery(new URLSearchParams('labelSelector=x'))).code, 400);
  });

  it('property: a field name the Tenant spec schema does not define is always reported, wherever it is added', () => {
    const spec = (tenantSchema().properties as { spec: Record<string, unknown> }).spec;
    const known = new Set(Object.keys(spec.properties as object));
    fc.assert(fc.property(fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9]{0,12}$/).filter((k) => !known.has(k) && k !== '__proto__'), fc.constantFrom('', 'quota', 'users[0]'), (key, where) => {
      const value: Record<string, unknown> = { users: [{ name: 'a', admin: true }], quota: { namespaces: 3 } };
      if (where === '') value[key] = 1;
      else if (where === 'quota') (value.quota as Record<string, unknown>)[key] = 1;
      else ((value.users as Array<Record<string, unknown>>)[0]!)[key === 'name' || key === 'admin' || key === 'groups' ? `${key}X` : key] = 1;
      assert.equal(unknownFields(spec, value, 'spec').length, 1);
    }));
    assert.deepEqual(unknownFields(spec, { users: [{ name: 'a', admin: true }], quota: { namespaces: 3 }, clusters: { labelSelector: { matchLabels: { any: 'thing' } } } }, 'spec'), []);
  });
});
