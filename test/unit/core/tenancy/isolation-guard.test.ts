import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { guardUpstreamRequest } from '../../../../src/core/tenancy/isolation-guard.ts';
import { translateRequest } from '../../../../src/core/tenancy/request-translation.ts';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';

const A = 'aaaaaa';
// A written Namespace as the translator sends it: the guard judges whole objects (kind, tenant label, Pod Security labels).
const PSA = Object.fromEntries(['enforce', 'audit', 'warn'].map((m) => [`pod-security.kubernetes.io/${m}`, 'baseline']));
const namespaceBody = (meta: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { ...meta, labels: { 'tenancy.warren.dev/tenant': A, ...PSA } } });
const q = (s = ''): URLSearchParams => new URLSearchParams(s);

describe('isolation guard refuses deliberately wrong translations', () => {
  const wrong = [
    { name: 'namespace left unprefixed', method: 'GET', path: '/api/v1/namespaces/dev/secrets' },
    { name: "another tenant's namespace", method: 'GET', path: '/api/v1/namespaces/bbbbbb-dev/secrets/s' },
    { name: 'prefix without its dash', method: 'GET', path: '/api/v1/namespaces/aaaaaadev/secrets' },
    { name: 'bare prefix as namespace', method: 'GET', path: '/api/v1/namespaces/aaaaaa-/secrets' },
    { name: 'prefix in the middle', method: 'GET', path: '/api/v1/namespaces/bbbbbb-aaaaaa-dev/pods' },
    { name: 'cluster role unprefixed', method: 'DELETE', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles/cluster-admin' },
    { name: "B's cluster role", method: 'GET', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles/bbbbbb-view' },
    { name: 'CRD of B', method: 'GET', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.bbbbbb-a.com' },
    { name: 'CRD named with the prefix but not in its group', method: 'GET', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/aaaaaa-foos.a.com' },
    { name: 'all-namespaces list without the label', method: 'GET', path: '/api/v1/secrets' },
    { name: 'all-namespaces list for B', method: 'GET', path: '/api/v1/secrets', query: 'labelSelector=tenancy.warren.dev/tenant%3Dbbbbbb' },
    { name: 'all-namespaces list with a looser label requirement', method: 'GET', path: '/api/v1/secrets', query: 'labelSelector=tenancy.warren.dev/tenant' },
    { name: 'label value that only starts with the id', method: 'GET', path: '/api/v1/secrets', query: 'labelSelector=tenancy.warren.dev/tenant%3Daaaaaa1' },
    { name: 'namespace list without the label', method: 'GET', path: '/api/v1/namespaces' },
    { name: 'write to a shared resource', method: 'DELETE', path: '/apis/storage.k8s.io/v1/storageclasses/standard' },
    { name: 'create of an unprefixed cluster object', method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'dev' } } },
    { name: 'create of a cluster object without a body', method: 'POST', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles' },
    { name: 'body namespace of B in A\'s path', method: 'POST', path: '/api/v1/namespaces/aaaaaa-dev/pods', body: { metadata: { namespace: 'bbbbbb-dev', name: 'p' } } },
    { name: 'node read (not shared)', method: 'GET', path: '/api/v1/nodes/n1' },
    { name: 'non-resource path', method: 'GET', path: '/metrics' },
    { name: 'discovery write', method: 'POST', path: '/apis' },
    { name: 'dot-dot out of a tenant namespace', method: 'GET', path: '/api/v1/namespaces/aaaaaa-dev/../../namespaces/bbbbbb-dev/secrets' },
    { name: 'encoded dot-dot', method: 'GET', path: '/api/v1/namespaces/aaaaaa-dev/%2e%2e/secrets' },
    { name: 'malformed tenant id', method: 'GET', path: '/api/v1/namespaces/-dev/secrets', tenant: '' },
  ];
  for (const c of wrong) {
    it(c.name, () => {
      const err = guardUpstreamRequest(c.tenant ?? A, { method: c.method, path: c.path, query: q(c.query), body: c.body });
      assert.ok(err, 'refused');
      assert.equal(err.code, 403);
    });
  }
});

describe('isolation guard allows what belongs to the tenant', () => {
  const right = [
    { name: 'tenant namespace', method: 'DELETE', path: '/api/v1/namespaces/aaaaaa-dev/pods/p' },
    { name: 'tenant namespace object', method: 'GET', path: '/api/v1/namespaces/aaaaaa-dev' },
    { name: 'tenant cluster role', method: 'PUT', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles/aaaaaa-view' },
    { name: 'tenant CRD', method: 'GET', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.aaaaaa-a.com' },
    { name: 'create of a tenant namespace', method: 'POST', path: '/api/v1/namespaces', body: namespaceBody({ name: 'aaaaaa-dev' }) },
    { name: 'create with generateName', method: 'POST', path: '/api/v1/namespaces', body: namespaceBody({ generateName: 'aaaaaa-x-' }) },
    { name: 'shared read', method: 'GET', path: '/apis/storage.k8s.io/v1/storageclasses' },
    { name: 'labelled list', method: 'GET', path: '/api/v1/pods', query: 'labelSelector=app%3Dx,tenancy.warren.dev/tenant%3Daaaaaa' },
    { name: 'discovery', method: 'GET', path: '/apis/apps/v1' },
    { name: 'openapi', method: 'GET', path: '/openapi/v3/apis/apps/v1' },
  ];
  for (const c of right) {
    it(c.name, () => assert.equal(guardUpstreamRequest(A, { method: c.method, path: c.path, query: q(c.query), body: c.body }), null));
  }
});

describe('guard and translator agree', () => {
  const seg = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
  const resources = ['pods', 'secrets', 'configmaps'];
  it('every namespaced request the translator forwards passes the guard, and no other tenant\'s guard', () => {
    fc.assert(fc.property(seg, seg, fc.constantFrom(...resources), fc.constantFrom('GET', 'PUT', 'DELETE'), (ns, name, resource, method) => {
      const path = `/api/v1/namespaces/${ns}/${resource}/${name}`;
      const out = translateRequest({ id: A }, parseRequestInfo(method, path, q()), q());
      if (out.action !== 'forward') return false;
      return guardUpstreamRequest(A, { method, path: out.path, query: out.query }) === null
        && guardUpstreamRequest('bbbbbb', { method, path: out.path, query: out.query }) !== null;
    }));
  });
  it('every cluster-scoped request the translator forwards passes the guard', () => {
    fc.assert(fc.property(seg, fc.constantFrom('namespaces', 'clusterroles', 'clusterrolebindings'), (name, resource) => {
      const base = resource === 'namespaces' ? '/api/v1' : '/apis/rbac.authorization.k8s.io/v1';
      const path = `${base}/${resource}/${name}`;
      const out = translateRequest({ id: A }, parseRequestInfo('GET', path, q()), q());
      return out.action === 'forward' && guardUpstreamRequest(A, { method: 'GET', path: out.path, query: out.query }) === null;
    }));
  });
});
