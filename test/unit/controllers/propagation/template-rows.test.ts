import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTemplateRows, slimCrd } from '../../../../src/controllers/propagation/template-rows.ts';
import { resourceId, templateResourceOf } from '../../../../src/controllers/propagation/template-resources.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

const crd = (versions: Array<{ name: string; served: boolean }>, scope = 'Namespaced'): KubeObject => slimCrd({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.abc123-example.com', uid: 'u1' },
  spec: { group: 'abc123-example.com', scope, names: { plural: 'widgets', kind: 'Widget' }, versions: versions.map((v) => ({ ...v, schema: { openAPIV3Schema: { type: 'object' } } })) },
});

describe('template rows', () => {
  it('the slim CRD view keeps what names a kind, not the schema', () => {
    const view = crd([{ name: 'v1', served: true }]);
    assert.deepEqual(view.spec, { group: 'abc123-example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true }] });
  });

  it('built-in rows first; a custom kind from its CRD, made once and then the same object', () => {
    let crds = [crd([{ name: 'v1', served: true }])];
    const rows = createTemplateRows(() => crds);
    assert.equal(rows.resourceOf('apps/v1', 'Deployment'), templateResourceOf('apps/v1', 'Deployment'));
    const widget = rows.resourceOf('abc123-example.com/v1', 'Widget');
    assert.deepEqual(widget, { group: 'abc123-example.com', version: 'v1', resource: 'widgets', kind: 'Widget', hasStatus: false, custom: true });
    assert.equal(rows.resourceOf('abc123-example.com/v1', 'Widget'), widget);
    assert.equal(rows.resourceById(resourceId(widget!)), widget);
    assert.equal(rows.resourceOf('abc123-example.com/v2', 'Widget'), undefined, 'a version the CRD does not serve');
    // The CRD gone: the row stays known (a binding being deleted still needs its paths).
    crds = [];
    assert.equal(rows.resourceOf('abc123-example.com/v1', 'Widget'), widget);
  });
});
