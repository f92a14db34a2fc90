// The request decides what a written object is: the body's apiVersion and kind
// are filled when absent and refused (kube's 400 words, from a real 1.20
// kube-apiserver) when they disagree; namespace and name likewise.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/core/api-error.ts';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';
import { requestKindOf, settleBodyKind, settleBodyMetadata } from '../../../../src/core/tenancy/request-kind.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

const ctx = { id: 'aaaaaa' };
const kindOf = (method: string, path: string) => requestKindOf(ctx, parseRequestInfo(method, path, new URLSearchParams()));
const refusal = (fn: () => void): ApiError => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ApiError, String(err));
    return err;
  }
  assert.fail('expected a refusal');
};

describe('requestKindOf: the URL decides', () => {
  const table: Array<[string, string, unknown]> = [
    ['POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/web/rolebindings', { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'RoleBinding' }],
    ['POST', '/api/v1/namespaces', { group: '', version: 'v1', kind: 'Namespace' }],
    ['PUT', '/api/v1/namespaces/web/status', { group: '', version: 'v1', kind: 'Namespace' }],
    ['PUT', '/apis/apps/v1/namespaces/web/deployments/d/scale', { group: 'autoscaling', version: 'v1', kind: 'Scale' }],
    ['PUT', '/apis/apps/v1/namespaces/web/deployments/d/status', { group: 'apps', version: 'v1', kind: 'Deployment' }],
    ['POST', '/apis/work.karmada.io/v1alpha2/clusterresourcebindings', { group: 'work.karmada.io', version: 'v1alpha2', kind: 'ClusterResourceBinding' }],
    ['POST', '/apis/a.com/v1/namespaces/web/foos', { group: 'a.com', version: 'v1', kind: undefined }],
  ];
  for (const [method, path, want] of table) it(`${method} ${path}`, () => assert.deepEqual(kindOf(method, path), want));

  it('a write to a subresource it cannot type is refused (405)', () => {
    assert.equal(refusal(() => kindOf('POST', '/api/v1/namespaces/web/pods/p/proxy')).code, 405);
  });
});

describe('settleBodyKind', () => {
  const rb = { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'RoleBinding' };
  const body = (extra: Partial<KubeObject>): KubeObject => ({ metadata: { name: 'x' }, ...extra });

  it('fills what the body leaves out, from the request', () => {
    for (const extra of [{}, { kind: 'RoleBinding' }, { apiVersion: 'rbac.authorization.k8s.io/v1' }, { apiVersion: '', kind: '' }]) {
      const obj = body(extra);
      settleBodyKind(obj, rb);
      assert.equal(obj.apiVersion, 'rbac.authorization.k8s.io/v1');
      assert.equal(obj.kind, 'RoleBinding');
    }
  });

  it('refuses another apiVersion with kube\'s 400', () => {
    const err = refusal(() => settleBodyKind(body({ apiVersion: 'rbac.authorization.k8s.io/v1beta1', kind: 'RoleBinding' }), rb));
    assert.equal(err.code, 400);
    assert.equal(err.reason, 'BadRequest');
    assert.equal(err.message, 'the API version in the data (rbac.authorization.k8s.io/v1beta1) does not match the expected API version (rbac.authorization.k8s.io/v1)');
  });

  it('refuses another kind with kube\'s 400', () => {
    const err = refusal(() => settleBodyKind(body({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role' }), rb));
    assert.equal(err.code, 400);
    assert.equal(err.message, 'Role in version "v1" cannot be handled as a RoleBinding');
  });

  it('a patch that changes the type is a 422 on the patch, as in kube', () => {
    const err = refusal(() => settleBodyKind(body({ apiVersion: 'v1', kind: 'Secret' }), { group: '', version: 'v1', kind: 'ConfigMap' }, 'patch'));
    assert.equal(err.code, 422);
    assert.match(err.message, /Secret in version "v1" cannot be handled as a ConfigMap/);
  });

  it('a custom resource without kind is a 400 (only its CRD knows the kind)', () => {
    assert.equal(refusal(() => settleBodyKind(body({ apiVersion: 'a.com/v1' }), { group: 'a.com', version: 'v1', kind: undefined })).code, 400);
  });

  it('an Eviction may be policy/v1beta1', () => {
    const obj = body({ apiVersion: 'policy/v1beta1', kind: 'Eviction' });
    settleBodyKind(obj, kindOf('POST', '/api/v1/namespaces/web/pods/x/eviction'));
    assert.equal(obj.apiVersion, 'policy/v1beta1');
  });
});

describe('settleBodyMetadata (kube\'s 400s, checked on real 1.20)', () => {
  it('fills the namespace from the URL', () => {
    const obj: KubeObject = { metadata: { name: 'x' } };
    settleBodyMetadata(obj, { namespace: 'web', name: '', verb: 'create' });
    assert.equal(obj.metadata.namespace, 'web');
  });
  it('refuses another namespace on create', () => {
    const err = refusal(() => settleBodyMetadata({ metadata: { namespace: 'other' } }, { namespace: 'web', name: '', verb: 'create' }));
    assert.equal(err.message, 'the namespace of the provided object does not match the namespace sent on the request');
  });
  for (const verb of ['update', 'apply', 'patch'] as const) {
    it(`refuses another namespace on ${verb}`, () => {
      const err = refusal(() => settleBodyMetadata({ metadata: { namespace: 'other', name: 'a' } }, { namespace: 'web', name: 'a', verb }));
      assert.equal(err.code, 400);
      assert.equal(err.message, 'the namespace of the object (other) does not match the namespace on the request (web)');
    });
    it(`refuses another name on ${verb}`, () => {
      const err = refusal(() => settleBodyMetadata({ metadata: { name: 'zz' } }, { namespace: 'web', name: 'a1', verb }));
      assert.equal(err.message, 'the name of the object (zz) does not match the name on the URL (a1)');
    });
  }
  it('an update must name its object; an apply takes the URL\'s name', () => {
    assert.equal(refusal(() => settleBodyMetadata({ metadata: {} }, { namespace: 'web', name: 'a1', verb: 'update' })).message,
      'the name of the object (a1 based on URL) was undeterminable: name must be provided');
    const applied: KubeObject = { metadata: {} };
    settleBodyMetadata(applied, { namespace: 'web', name: 'a1', verb: 'apply' });
    assert.equal(applied.metadata.name, 'a1');
  });
  it('a cluster-scoped object loses any namespace, as in kube', () => {
    const obj: KubeObject = { metadata: { name: 'n', namespace: 'web' } };
    settleBodyMetadata(obj, { namespace: '', name: '', verb: 'create' });
    assert.equal(obj.metadata.namespace, undefined);
  });
});
