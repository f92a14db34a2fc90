// ADR 0028: a host-issued ServiceAccount token never reaches a tenant, in any
// response shape, and a tenant cannot write a token Secret for the host to fill.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { toTenantObject, toUpstreamObject } from '../../../../src/core/tenancy/object-translation.ts';
import { toTenantList, toTenantTable, toTenantWatchEvent } from '../../../../src/core/tenancy/response-translation.ts';
import { ApiError } from '../../../../src/core/api-error.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import { SERVICE_ACCOUNT_TOKEN_TYPE } from '../../../../src/core/tenancy/service-account-tokens.ts';

const ctx = { id: 'aaaaaa' };
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const HOST_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.host-signed.payload';

/** A token Secret as a 1.20 host stores it in a tenant namespace. */
function hostTokenSecret(overrides: Partial<KubeObject> = {}): KubeObject {
  return {
    apiVersion: 'v1', kind: 'Secret',
    metadata: {
      name: 'default-token-mvr9q', namespace: 'aaaaaa-app',
      labels: { 'tenancy.warren.dev/tenant': 'aaaaaa' },
      annotations: { 'kubernetes.io/service-account.name': 'default', 'kubernetes.io/service-account.uid': 'fec40a65' },
    },
    type: SERVICE_ACCOUNT_TOKEN_TYPE,
    data: { token: b64(HOST_TOKEN), 'ca.crt': b64('-----BEGIN CERTIFICATE-----host'), namespace: b64('aaaaaa-app') },
    ...overrides,
  };
}

describe('host ServiceAccount tokens on the way out', () => {
  it('a token Secret keeps its name, type and annotations, loses token and ca.crt, and names the tenant namespace', () => {
    const view = toTenantObject(ctx, hostTokenSecret());
    assert.ok(view);
    assert.equal(view.metadata.namespace, 'app');
    assert.equal(view.type, SERVICE_ACCOUNT_TOKEN_TYPE);
    assert.deepEqual(view.data, { namespace: b64('app') });
    assert.equal(view.metadata.annotations?.['kubernetes.io/service-account.name'], 'default');
  });

  it('list items without kind or apiVersion (a real apiserver sends them so) are redacted too', () => {
    const item = hostTokenSecret();
    delete item.kind;
    delete item.apiVersion;
    const list = toTenantList(ctx, { apiVersion: 'v1', kind: 'SecretList', metadata: {}, items: [item] });
    assert.equal(JSON.stringify(list).includes(b64(HOST_TOKEN)), false);
    assert.deepEqual(list.items[0]?.data, { namespace: b64('app') });
  });

  it('watch events and Table rows with objects are redacted', () => {
    const event = toTenantWatchEvent(ctx, { type: 'MODIFIED', object: hostTokenSecret() });
    assert.equal(JSON.stringify(event).includes(b64(HOST_TOKEN)), false);
    const table = toTenantTable(ctx, {
      apiVersion: 'meta.k8s.io/v1', kind: 'Table', metadata: {},
      columnDefinitions: [{ name: 'Name', format: 'name' }, { name: 'Type' }],
      rows: [{ cells: ['default-token-mvr9q', SERVICE_ACCOUNT_TOKEN_TYPE], object: hostTokenSecret() }],
    });
    assert.equal(JSON.stringify(table).includes(b64(HOST_TOKEN)), false);
  });

  it('an Opaque Secret with a key named token is the tenant\'s own data and is kept', () => {
    const view = toTenantObject(ctx, hostTokenSecret({ type: 'Opaque', data: { token: b64('mine') } }));
    assert.deepEqual(view?.data, { token: b64('mine') });
  });

  it('property: whatever else the object holds, no host token or CA survives translation out', () => {
    const key = fc.stringMatching(/^[a-zA-Z0-9._-]{1,20}$/);
    fc.assert(fc.property(
      fc.dictionary(key, fc.string()), fc.boolean(), fc.boolean(), fc.constantFrom('list', 'watch', 'object', 'table'),
      (extra, withKind, withString, shape) => {
        const secret = hostTokenSecret({ data: { ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, b64(v)])), token: b64(HOST_TOKEN), 'ca.crt': b64('HOSTCA') } });
        if (withString) secret.stringData = { token: HOST_TOKEN };
        if (!withKind) { delete secret.kind; delete secret.apiVersion; }
        let out: unknown;
        if (shape === 'list') out = toTenantList(ctx, { apiVersion: 'v1', kind: 'SecretList', metadata: {}, items: [secret] });
        else if (shape === 'watch') out = toTenantWatchEvent(ctx, { type: 'ADDED', object: secret });
        else if (shape === 'table') out = toTenantTable(ctx, { apiVersion: 'meta.k8s.io/v1', kind: 'Table', metadata: {}, rows: [{ cells: ['x'], object: secret }] });
        else out = toTenantObject(ctx, secret);
        const text = JSON.stringify(out);
        return !text.includes(b64(HOST_TOKEN)) && !text.includes(HOST_TOKEN) && !text.includes(b64('HOSTCA')) && !text.includes('aaaaaa-app');
      },
    ));
  });
});

describe('tenants cannot write token Secrets', () => {
  const write = (obj: unknown, kind = 'Secret'): unknown => toUpstreamObject(ctx, structuredClone(obj) as KubeObject, { type: { group: '', kind } });

  it('a token Secret naming a ServiceAccount is refused with 422 on type, in tenant terms', () => {
    assert.throws(() => write({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'mine', namespace: 'app', annotations: { 'kubernetes.io/service-account.name': 'default' } }, type: SERVICE_ACCOUNT_TOKEN_TYPE }),
      (err: unknown) => err instanceof ApiError && err.code === 422 && /type: Forbidden/.test(err.message) && !err.message.includes('aaaaaa'));
  });

  it('the URL decides: a body without kind or apiVersion is refused the same', () => {
    assert.throws(() => write({ metadata: { name: 'mine', namespace: 'app' }, type: SERVICE_ACCOUNT_TOKEN_TYPE }), (err: unknown) => err instanceof ApiError && err.code === 422);
  });

  it('other Secret types are written as before', () => {
    const up = write({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'app' }, type: 'Opaque', data: { token: b64('x') } }) as KubeObject;
    assert.equal(up.metadata.namespace, 'aaaaaa-app');
  });
});
