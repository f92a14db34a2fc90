import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/core/api-error.ts';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';
import { translateRequest, type ForwardedRequest } from '../../../../src/core/tenancy/request-translation.ts';
import { guardUpstreamRequest } from '../../../../src/core/tenancy/isolation-guard.ts';
import type { TenantContext } from '../../../../src/core/tenancy/tenant-context.ts';

const ctx: TenantContext = { id: 'aaaaaa', user: 'alice' };

// Split by hand: new URL() would resolve '..' before the parser ever saw it.
function split(url: string): { pathname: string; searchParams: URLSearchParams } {
  const q = url.indexOf('?');
  return q < 0 ? { pathname: url, searchParams: new URLSearchParams() } : { pathname: url.slice(0, q), searchParams: new URLSearchParams(url.slice(q + 1)) };
}

function translate(method: string, url: string): ForwardedRequest {
  const u = split(url);
  const out = translateRequest(ctx, parseRequestInfo(method, u.pathname, u.searchParams), u.searchParams);
  assert.equal(out.action, 'forward');
  return out as ForwardedRequest;
}

function refusal(method: string, url: string): ApiError {
  const u = split(url);
  try {
    translateRequest(ctx, parseRequestInfo(method, u.pathname, u.searchParams), u.searchParams);
  } catch (err) {
    assert.ok(err instanceof ApiError);
    return err;
  }
  assert.fail(`${method} ${url} was not refused`);
}

describe('request translation', () => {
  const cases = [
    { name: 'namespaced get', method: 'GET', url: '/api/v1/namespaces/dev/pods/web', path: '/api/v1/namespaces/aaaaaa-dev/pods/web' },
    { name: 'namespaced create', method: 'POST', url: '/apis/apps/v1/namespaces/dev/deployments', path: '/apis/apps/v1/namespaces/aaaaaa-dev/deployments' },
    { name: 'subresource', method: 'GET', url: '/api/v1/namespaces/dev/pods/web/log', path: '/api/v1/namespaces/aaaaaa-dev/pods/web/log' },
    { name: 'namespace object', method: 'GET', url: '/api/v1/namespaces/dev', path: '/api/v1/namespaces/aaaaaa-dev' },
    { name: 'namespace finalize', method: 'PUT', url: '/api/v1/namespaces/dev/finalize', path: '/api/v1/namespaces/aaaaaa-dev/finalize' },
    { name: 'namespace list', method: 'GET', url: '/api/v1/namespaces', path: '/api/v1/namespaces', labelSelector: 'tenancy.warren.dev/tenant=aaaaaa' },
    { name: 'all-namespaces list', method: 'GET', url: '/api/v1/pods?labelSelector=app%3Dweb', path: '/api/v1/pods', labelSelector: 'app=web,tenancy.warren.dev/tenant=aaaaaa' },
    { name: 'cluster role', method: 'DELETE', url: '/apis/rbac.authorization.k8s.io/v1/clusterroles/view', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles/aaaaaa-view' },
    { name: 'crd', method: 'GET', url: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.a.com', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.aaaaaa-a.com' },
    { name: 'namespaced custom resource', method: 'GET', url: '/apis/a.com/v1/namespaces/dev/foos/x', path: '/apis/aaaaaa-a.com/v1/namespaces/aaaaaa-dev/foos/x' },
    { name: 'cluster-scoped custom resource', method: 'GET', url: '/apis/a.com/v1/bars/x', path: '/apis/aaaaaa-a.com/v1/bars/aaaaaa-x' },
    { name: 'karmada policy', method: 'POST', url: '/apis/policy.karmada.io/v1alpha1/namespaces/dev/propagationpolicies', path: '/apis/policy.karmada.io/v1alpha1/namespaces/aaaaaa-dev/propagationpolicies' },
    { name: 'karmada cluster policy', method: 'GET', url: '/apis/policy.karmada.io/v1alpha1/clusterpropagationpolicies/p', path: '/apis/policy.karmada.io/v1alpha1/clusterpropagationpolicies/aaaaaa-p' },
    { name: 'shared read', method: 'GET', url: '/apis/storage.k8s.io/v1/storageclasses/standard', path: '/apis/storage.k8s.io/v1/storageclasses/standard' },
    { name: 'shared list needs no label', method: 'GET', url: '/apis/cluster.karmada.io/v1alpha1/clusters', path: '/apis/cluster.karmada.io/v1alpha1/clusters' },
    { name: 'legacy named watch', method: 'GET', url: '/api/v1/watch/namespaces/dev/pods/web', path: '/api/v1/namespaces/aaaaaa-dev/pods', fieldSelector: 'metadata.name=web' },
    { name: 'field selector on namespace', method: 'GET', url: '/api/v1/pods?fieldSelector=metadata.namespace%3Ddev', path: '/api/v1/pods', fieldSelector: 'metadata.namespace=aaaaaa-dev' },
    { name: 'field selector on namespace name', method: 'GET', url: '/api/v1/namespaces?fieldSelector=metadata.name%3Ddev', path: '/api/v1/namespaces', fieldSelector: 'metadata.name=aaaaaa-dev' },
    { name: 'field selector on pod name untouched', method: 'GET', url: '/api/v1/namespaces/dev/pods?fieldSelector=metadata.name%3Dweb', path: '/api/v1/namespaces/aaaaaa-dev/pods', fieldSelector: 'metadata.name=web' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const out = translate(c.method, c.url);
      assert.equal(out.path, c.path);
      if (c.labelSelector !== undefined) assert.equal(out.query.get('labelSelector'), c.labelSelector);
      if (c.fieldSelector !== undefined) assert.equal(out.query.get('fieldSelector'), c.fieldSelector);
      assert.equal(guardUpstreamRequest(ctx.id, { method: c.method, path: out.path, query: out.query }), null, 'the guard accepts it');
    });
  }

  const refusals = [
    // Nodes are a tenant view now (ADR 30); PersistentVolumes stay denied.
    { name: 'denied resource', method: 'GET', url: '/api/v1/persistentvolumes', code: 403, message: /persistentvolumes is forbidden: User "alice" cannot list resource "persistentvolumes" in API group ""/ },
    { name: 'denied resource named as written', method: 'GET', url: '/apis/certificates.k8s.io/v1/certificatesigningrequests/x', code: 403, message: /certificatesigningrequests\.certificates\.k8s\.io "x" is forbidden/ },
    { name: 'write to shared', method: 'DELETE', url: '/apis/storage.k8s.io/v1/storageclasses/standard', code: 403, message: /read-only/ },
    // TokenRequest is answered by the gateway (ADR 0028); it serves create only, as kube does.
    { name: 'reading a service account token', method: 'GET', url: '/api/v1/namespaces/dev/serviceaccounts/default/token', code: 405, message: /does not allow this method/ },
    { name: 'unknown resource', method: 'GET', url: '/apis/apps/v1/namespaces/dev/widgets', code: 404, message: /could not find/ },
    { name: 'unknown reserved group', method: 'GET', url: '/apis/resource.k8s.io/v1/resourceclaims', code: 404, message: /could not find/ },
    { name: 'namespaced object without namespace', method: 'GET', url: '/api/v1/pods/web', code: 404, message: /could not find/ },
    // kube registers only list and watch at the all-namespaces path of a namespaced resource.
    { name: 'deletecollection across all namespaces', method: 'DELETE', url: '/api/v1/configmaps?labelSelector=team%3Dshared', code: 405, message: /does not allow this method/ },
  ];
  for (const c of refusals) {
    it(`refuses ${c.name}`, () => {
      const err = refusal(c.method, c.url);
      assert.equal(err.code, c.code);
      assert.match(err.message, c.message);
      assert.doesNotMatch(err.message, /aaaaaa/);
    });
  }

  it('answers TokenRequest in the gateway, never forwarding it (a host token would be a host credential)', () => {
    const u = new URL('https://x/api/v1/namespaces/dev/serviceaccounts/default/token');
    const out = translateRequest(ctx, parseRequestInfo('POST', u.pathname, u.searchParams), u.searchParams);
    assert.deepEqual(out, { action: 'answer', verb: 'create', group: '', resource: 'serviceaccounts/token', namespace: 'dev', name: 'default' });
  });

  it('answers self-subject reviews in the gateway', () => {
    const u = new URL('https://x/apis/authorization.k8s.io/v1/selfsubjectaccessreviews');
    const out = translateRequest(ctx, parseRequestInfo('POST', u.pathname, u.searchParams), u.searchParams);
    assert.equal(out.action, 'answer');
  });
});

describe('adversarial requests', () => {
  const cases = [
    { name: "B's prefix spelled in a namespace stays inside A", url: '/api/v1/namespaces/bbbbbb-prod/secrets', path: '/api/v1/namespaces/aaaaaa-bbbbbb-prod/secrets' },
    { name: "B's prefix spelled in a cluster role", url: '/apis/rbac.authorization.k8s.io/v1/clusterroles/bbbbbb-admin', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles/aaaaaa-bbbbbb-admin' },
    { name: "B's CRD group spelled out", url: '/apis/bbbbbb-a.com/v1/namespaces/x/foos', path: '/apis/aaaaaa-bbbbbb-a.com/v1/namespaces/aaaaaa-x/foos' },
    { name: 'encoded slash in a name stays one segment', url: '/api/v1/namespaces/dev/configmaps/a%2Fb', refused: 400 },
    { name: 'dot-dot segment', url: '/api/v1/namespaces/dev/../../bbbbbb-dev/secrets', refused: 400 },
    { name: 'doubled slash', url: '/api/v1/namespaces//secrets', refused: 400 },
    { name: 'field selector for B\'s namespace', url: '/api/v1/secrets?fieldSelector=metadata.namespace%3Dbbbbbb-dev', path: '/api/v1/secrets', fieldSelector: 'metadata.namespace=aaaaaa-bbbbbb-dev' },
    { name: 'field selector != on namespace keeps tenant label', url: '/api/v1/secrets?fieldSelector=metadata.namespace!%3Ddev', path: '/api/v1/secrets', labelSelector: 'tenancy.warren.dev/tenant=aaaaaa' },
    { name: 'label selector asking for B', url: '/api/v1/secrets?labelSelector=tenancy.warren.dev%2Ftenant%3Dbbbbbb', path: '/api/v1/secrets', labelSelector: 'tenancy.warren.dev/tenant=aaaaaa,!tenancy.warren.dev/tenant' },
    { name: 'label selector excluding the label', url: '/api/v1/secrets?labelSelector=!tenancy.warren.dev%2Ftenant', path: '/api/v1/secrets', labelSelector: 'tenancy.warren.dev/tenant=aaaaaa' },
    { name: 'label selector notin the label', url: '/api/v1/namespaces/dev/secrets?labelSelector=tenancy.warren.dev%2Ftenant+notin+(aaaaaa)', path: '/api/v1/namespaces/aaaaaa-dev/secrets', labelSelector: null },
  ];
  for (const c of cases) {
    it(c.name, () => {
      if (c.refused !== undefined) {
        assert.throws(() => translate('GET', c.url), (err: unknown) => err instanceof ApiError && err.code === c.refused);
        return;
      }
      const out = translate('GET', c.url);
      assert.equal(out.path, c.path);
      if (c.labelSelector !== undefined) assert.equal(out.query.get('labelSelector'), c.labelSelector);
      if (c.fieldSelector !== undefined) assert.equal(out.query.get('fieldSelector'), c.fieldSelector);
      assert.equal(guardUpstreamRequest(ctx.id, { method: 'GET', path: out.path, query: out.query }), null);
    });
  }
});
