// parseRequestInfo against kube-apiserver's RequestInfoFactory semantics.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo } from '../../../src/core/request-info.ts';

type Expect = Partial<ReturnType<typeof parseRequestInfo>>;

const cases: Array<{ method: string; path: string; query?: string; want: Expect }> = [
  { method: 'GET', path: '/api', want: { isResourceRequest: false, apiPrefix: 'api' } },
  { method: 'GET', path: '/apis/apps', want: { isResourceRequest: false, apiPrefix: 'apis', apiGroup: '' } },
  { method: 'GET', path: '/apis/apps/v1', want: { isResourceRequest: false, apiGroup: 'apps', apiVersion: 'v1' } },
  { method: 'GET', path: '/version', want: { isResourceRequest: false, apiPrefix: '' } },
  { method: 'GET', path: '/api/v1/pods', want: { isResourceRequest: true, verb: 'list', resource: 'pods', namespace: '' } },
  { method: 'GET', path: '/api/v1/namespaces/ns/pods', want: { verb: 'list', namespace: 'ns', resource: 'pods', name: '' } },
  { method: 'GET', path: '/api/v1/namespaces/ns/pods', query: 'watch=true', want: { verb: 'watch', namespace: 'ns', resource: 'pods' } },
  { method: 'GET', path: '/api/v1/namespaces/ns/pods', query: 'watch=1', want: { verb: 'watch' } },
  { method: 'GET', path: '/api/v1/namespaces/ns/pods/p', want: { verb: 'get', name: 'p' } },
  { method: 'GET', path: '/api/v1/namespaces/ns/pods/p/log', want: { verb: 'get', name: 'p', subresource: 'log' } },
  { method: 'POST', path: '/api/v1/namespaces/ns/pods', want: { verb: 'create', resource: 'pods' } },
  { method: 'PUT', path: '/api/v1/namespaces/ns/pods/p/status', want: { verb: 'update', subresource: 'status' } },
  { method: 'PATCH', path: '/apis/apps/v1/namespaces/ns/deployments/d/scale', want: { verb: 'patch', apiGroup: 'apps', subresource: 'scale' } },
  { method: 'DELETE', path: '/api/v1/namespaces/ns/pods', want: { verb: 'deletecollection' } },
  { method: 'DELETE', path: '/api/v1/namespaces/ns/pods/p', want: { verb: 'delete', name: 'p' } },
  // The Namespace object itself: namespace is its own name, as kube sets it for RBAC.
  { method: 'GET', path: '/api/v1/namespaces/ns', want: { verb: 'get', resource: 'namespaces', name: 'ns', namespace: 'ns' } },
  { method: 'PUT', path: '/api/v1/namespaces/ns/finalize', want: { verb: 'update', resource: 'namespaces', name: 'ns', subresource: 'finalize' } },
  { method: 'GET', path: '/api/v1/namespaces', want: { verb: 'list', resource: 'namespaces', namespace: '' } },
  // Legacy /watch/ paths.
  { method: 'GET', path: '/api/v1/watch/namespaces/ns/pods', want: { verb: 'watch', namespace: 'ns', resource: 'pods' } },
  { method: 'GET', path: '/api/v1/watch/namespaces/ns/pods/p', want: { verb: 'watch', name: 'p' } },
  { method: 'GET', path: '/api/v1/watch/pods', want: { verb: 'watch', resource: 'pods', namespace: '' } },
  // Percent-encoding is decoded per segment.
  { method: 'GET', path: '/api/v1/namespaces/ns/configmaps/a%3Ab', want: { name: 'a:b' } },
];

describe('parseRequestInfo', () => {
  for (const c of cases) {
    it(`${c.method} ${c.path}${c.query ? `?${c.query}` : ''}`, () => {
      const info = parseRequestInfo(c.method, c.path, new URLSearchParams(c.query ?? ''));
      for (const [key, value] of Object.entries(c.want)) assert.equal(info[key as keyof typeof info], value, key);
    });
  }

  const refused: Array<{ method: string; path: string; reason: string }> = [
    { method: 'GET', path: '/api/v1/namespaces//pods', reason: 'BadRequest' },
    { method: 'GET', path: '/api/v1/namespaces/../pods', reason: 'BadRequest' },
    { method: 'GET', path: '/api/v1/namespaces/./pods', reason: 'BadRequest' },
    { method: 'GET', path: '/api/v1/namespaces/a%2Fb/pods', reason: 'BadRequest' },
    { method: 'GET', path: '/api/v1/namespaces/%E0%A4%A/pods', reason: 'BadRequest' },
    { method: 'GET', path: '/api/v1/namespaces/ns/pods/p/log/extra', reason: 'NotFound' },
    { method: 'DELETE', path: '/api/v1/watch/namespaces/ns/pods', reason: 'MethodNotAllowed' },
    { method: 'POST', path: '/api/v1/watch/pods', reason: 'MethodNotAllowed' },
  ];
  for (const c of refused) {
    it(`refuses ${c.method} ${c.path} with ${c.reason}`, () => {
      assert.throws(() => parseRequestInfo(c.method, c.path, new URLSearchParams()), (err: { reason?: string }) => err.reason === c.reason);
    });
  }
});
