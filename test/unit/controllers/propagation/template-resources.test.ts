import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { allNamespacesPath, namespacedPath, resourceId, storeKey, TEMPLATE_RESOURCES, templateResourceOf, type TemplateResource } from '../../../../src/controllers/propagation/template-resources.ts';
import { parseKey, templateKey } from '../../../../src/controllers/propagation/engine-keys.ts';

describe('template rows: cluster-scoped and custom', () => {
  it('ClusterRole, ClusterRoleBinding, CustomResourceDefinition and Namespace are cluster-scoped rows; the namespaced ones are not', () => {
    const scoped = TEMPLATE_RESOURCES.filter((r) => r.clusterScoped).map((r) => r.kind).sort();
    assert.deepEqual(scoped, ['ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'Namespace']);
    assert.equal(templateResourceOf('apps/v1', 'Deployment')?.clusterScoped, undefined);
  });

  it('a cluster-scoped row\'s paths have no namespace segment, whatever namespace is passed', () => {
    const role = templateResourceOf('rbac.authorization.k8s.io/v1', 'ClusterRole')!;
    assert.equal(namespacedPath(role, ''), '/apis/rbac.authorization.k8s.io/v1/clusterroles');
    assert.equal(namespacedPath(role, 'ignored'), '/apis/rbac.authorization.k8s.io/v1/clusterroles');
    assert.equal(namespacedPath(templateResourceOf('v1', 'ConfigMap')!, 'abc123-default'), '/api/v1/namespaces/abc123-default/configmaps');
  });

  it('store keys follow client-go (name alone when cluster-scoped)', () => {
    assert.equal(storeKey('', 'abc123-reader'), 'abc123-reader');
    assert.equal(storeKey('abc123-default', 'nginx'), 'abc123-default/nginx');
  });

  it('queue keys of cluster-scoped and custom templates round-trip through the engine\'s lookup', () => {
    const role = templateResourceOf('rbac.authorization.k8s.io/v1', 'ClusterRole')!;
    assert.deepEqual(parseKey(templateKey('abc123', role, '', 'abc123-reader')), { type: 'template', tenant: 'abc123', resource: role, namespace: '', name: 'abc123-reader' });
    const widget: TemplateResource = { group: 'abc123-example.com', version: 'v1', resource: 'widgets', kind: 'Widget', hasStatus: false, custom: true };
    const key = templateKey('abc123', widget, 'abc123-default', 'w1');
    assert.equal(parseKey(key), undefined, 'a custom row is unknown to the built-in lookup');
    const lookup = (id: string): TemplateResource | undefined => (id === resourceId(widget) ? widget : undefined);
    assert.deepEqual(parseKey(key, lookup), { type: 'template', tenant: 'abc123', resource: widget, namespace: 'abc123-default', name: 'w1' });
    assert.equal(allNamespacesPath(widget), '/apis/abc123-example.com/v1/widgets');
  });
});
