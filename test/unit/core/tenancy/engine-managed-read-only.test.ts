// ResourceBindings, ClusterResourceBindings and Works are the propagation
// engine's (ADR 19): a tenant reads them and never writes them, by any verb or
// subresource, whatever its RBAC says. The refusal is a 403 in tenant terms.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../../../src/core/api-error.ts';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';
import { translateRequest } from '../../../../src/core/tenancy/request-translation.ts';
import { RESOURCE_CLASS_ROWS } from '../../../../src/core/tenancy/resource-classes.ts';
import type { TenantContext } from '../../../../src/core/tenancy/tenant-context.ts';

const ctx: TenantContext = { id: 'aaaaaa', user: 'alice' };

const COLLECTIONS = {
  resourcebindings: '/apis/work.karmada.io/v1alpha2/namespaces/dev/resourcebindings',
  clusterresourcebindings: '/apis/work.karmada.io/v1alpha2/clusterresourcebindings',
  works: '/apis/work.karmada.io/v1alpha1/namespaces/karmada-es-member1/works',
} as const;

function attempt(method: string, path: string, query = ''): unknown {
  const q = new URLSearchParams(query);
  try {
    return translateRequest(ctx, parseRequestInfo(method, path, q), q);
  } catch (err) {
    return err;
  }
}

describe('engine-managed resources are read-only to tenants', () => {
  it('the table marks exactly the bindings and Works read-only', () => {
    const readOnly = RESOURCE_CLASS_ROWS.filter((r) => r.readOnly).map((r) => `${r.group}/${r.resource}`).sort();
    assert.deepEqual(readOnly, ['work.karmada.io/clusterresourcebindings', 'work.karmada.io/resourcebindings', 'work.karmada.io/works']);
  });

  for (const [resource, collection] of Object.entries(COLLECTIONS)) {
    it(`${resource}: get, list and watch are forwarded`, () => {
      for (const [method, path, query] of [['GET', collection, ''], ['GET', `${collection}/x`, ''], ['GET', collection, 'watch=true']] as const) {
        const out = attempt(method, path, query);
        assert.ok(!(out instanceof Error), `${method} ${path}?${query}: ${String(out)}`);
      }
    });

    it(`${resource}: every write is 403, in tenant terms, saying the engine manages it`, () => {
      const writes: Array<[string, string]> = [
        ['POST', collection], ['PUT', `${collection}/x`], ['PATCH', `${collection}/x`], ['DELETE', `${collection}/x`],
        ['DELETE', collection], ['PUT', `${collection}/x/status`], ['PATCH', `${collection}/x/status`],
      ];
      for (const [method, path] of writes) {
        const err = attempt(method, path);
        assert.ok(err instanceof ApiError, `${method} ${path} was not refused`);
        assert.equal(err.code, 403);
        assert.equal(err.reason, 'Forbidden');
        assert.match(err.message, /managed by the propagation engine and is read-only to tenants/);
        assert.doesNotMatch(err.message, /aaaaaa-/, 'no upstream prefix in the message');
      }
    });
  }

  it('the refusal names the resource and namespace as the tenant wrote them', () => {
    const err = attempt('DELETE', '/apis/work.karmada.io/v1alpha2/namespaces/dev/resourcebindings/web-deployment');
    assert.ok(err instanceof ApiError);
    assert.match(err.message, /^resourcebindings\.work\.karmada\.io "web-deployment" is forbidden: User "alice" cannot delete resource "resourcebindings" in API group "work\.karmada\.io" in the namespace "dev"/);
  });

  it('property: no verb but get/list/watch ever reaches upstream for these resources', () => {
    const methods = fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE', 'GET');
    const resource = fc.constantFrom(...Object.values(COLLECTIONS));
    const tail = fc.constantFrom('', '/x', '/x/status', '/x/scale', '/x/anything');
    const query = fc.constantFrom('', 'watch=true', 'dryRun=All', 'fieldManager=kubectl');
    fc.assert(fc.property(methods, resource, tail, query, (method, collection, suffix, q) => {
      const out = attempt(method, `${collection}${suffix}`, q) as { action?: string; verb?: string } | Error;
      if (out instanceof Error) return;
      assert.ok(['get', 'list', 'watch'].includes(out.verb ?? ''), `${method} ${collection}${suffix}?${q} forwarded as ${out.verb}`);
    }), { numRuns: 500 });
  });
});
