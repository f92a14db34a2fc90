import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildAuditEvent } from '../../../../src/gateway/observability/audit-event.ts';
import { metricVerbOf } from '../../../../src/gateway/observability/metric-verb.ts';
import { tenantViewUri } from '../../../../src/gateway/observability/request-observer.ts';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';

const at = new Date('2025-01-02T03:04:05.678Z');

describe('buildAuditEvent', () => {
  it('builds a Metadata-level ResponseComplete event in the tenant view', () => {
    const info = parseRequestInfo('DELETE', '/apis/apps/v1/namespaces/web/deployments/api', new URLSearchParams());
    const event = buildAuditEvent({
      auditID: 'id-1', requestURI: '/apis/apps/v1/namespaces/web/deployments/api', method: 'DELETE', info, code: 200,
      user: { tenantId: 'acme01', name: 'alice', groups: ['devs'] }, sourceIP: '10.0.0.1', userAgent: 'kubectl/v1.33', received: at, completed: at,
    });
    assert.deepEqual(event, {
      kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: 'id-1', stage: 'ResponseComplete',
      requestURI: '/apis/apps/v1/namespaces/web/deployments/api', verb: 'delete',
      user: { username: 'alice', groups: ['devs'], extra: { 'warren.dev/tenant': ['acme01'] } },
      sourceIPs: ['10.0.0.1'], userAgent: 'kubectl/v1.33',
      objectRef: { resource: 'deployments', namespace: 'web', name: 'api', apiGroup: 'apps', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 200 },
      requestReceivedTimestamp: '2025-01-02T03:04:05.678000Z', stageTimestamp: '2025-01-02T03:04:05.678000Z',
    });
  });

  it('an impersonated request names who asked (user) and who it ran as (impersonatedUser), as kube does', () => {
    const event = buildAuditEvent({
      auditID: 'x', requestURI: '/api/v1/namespaces/web/pods', method: 'GET', info: undefined, code: 200, sourceIP: undefined, userAgent: undefined, received: at, completed: at,
      user: { tenantId: 'acme01', name: 'viewer', groups: ['system:authenticated'], impersonatedBy: { user: 'dev', groups: ['devs'] } },
    });
    assert.deepEqual(event.user, { username: 'dev', groups: ['devs'], extra: { 'warren.dev/tenant': ['acme01'] } });
    assert.deepEqual(event.impersonatedUser, { username: 'viewer', groups: ['system:authenticated'], extra: { 'warren.dev/tenant': ['acme01'] } });
  });

  it('an unauthenticated request is system:anonymous, a non-resource one has no objectRef', () => {
    const event = buildAuditEvent({ auditID: 'x', requestURI: '/api', method: 'GET', info: undefined, code: 401, user: undefined, sourceIP: undefined, userAgent: undefined, received: at, completed: at });
    assert.deepEqual(event.user, { username: 'system:anonymous', groups: ['system:unauthenticated'] });
    assert.equal(event.objectRef, undefined);
    assert.equal(event.verb, 'get');
    assert.deepEqual(event.responseStatus, { metadata: {}, code: 401, status: 'Failure' });
  });
});

describe('tenantViewUri', () => {
  const cases: Array<[string, string]> = [
    ['/tenants/acme01/api/v1/namespaces/web/pods?watch=1', '/api/v1/namespaces/web/pods?watch=1'],
    ['/api/v1/pods?limit=500', '/api/v1/pods?limit=500'],
  ];
  for (const [raw, want] of cases) it(raw, () => assert.equal(tenantViewUri(raw), want));
});

describe('metricVerbOf', () => {
  // Kubernetes request verbs (issue 19: was kube-apiserver's upper-case metric verb, GET/LIST/POST/APPLY).
  const q = new URLSearchParams();
  const cases: Array<[string, string, string]> = [
    ['GET', '/api/v1/pods', 'list'],
    ['GET', '/api/v1/namespaces/a/pods/b', 'get'],
    ['GET', '/api/v1/watch/pods', 'watch'],
    ['GET', '/api/v1/pods?watch=true', 'watch'],
    ['POST', '/api/v1/namespaces/a/pods', 'create'],
    ['PUT', '/api/v1/namespaces/a/pods/b', 'update'],
    ['PATCH', '/api/v1/namespaces/a/pods/b', 'patch'],
    ['DELETE', '/api/v1/namespaces/a/pods/b', 'delete'],
    ['DELETE', '/api/v1/namespaces/a/pods', 'deletecollection'],
    ['POST', '/api/v1/namespaces/a/pods/b/exec', 'connect'],
    ['GET', '/version', 'get'],
    ['POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', 'create'],
  ];
  for (const [method, path, want] of cases) {
    it(`${method} ${path} → ${want}`, () => {
      const [pathname, search] = path.split('?') as [string, string | undefined];
      assert.equal(metricVerbOf(method, parseRequestInfo(method, pathname, search ? new URLSearchParams(search) : q)), want);
    });
  }
});
