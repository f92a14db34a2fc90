import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyCrdDefaults } from '../../../../src/apiserver/crd/crd-defaults.ts';
import { crdResourceDefs } from '../../../../src/apiserver/crd/crd-resource-defs.ts';
import { crdStatus } from '../../../../src/apiserver/crd/crd-status.ts';
import { convertCustomResource } from '../../../../src/apiserver/crd/convert-custom-resource.ts';
import { formatLabelSelector, readScale, writeScale } from '../../../../src/apiserver/crd/scale.ts';
import { widgetCrd } from './fixtures.ts';

const NOW = new Date('2026-01-02T03:04:05.678Z');

describe('applyCrdDefaults', () => {
  it('defaults conversion, singular and listKind without mutating the input', () => {
    const crd = widgetCrd((c) => { delete c.spec.names!.singular; });
    const out = applyCrdDefaults(crd);
    assert.deepEqual(out.spec.conversion, { strategy: 'None' });
    assert.equal(out.spec.names?.singular, 'widget');
    assert.equal(out.spec.names?.listKind, 'WidgetList');
    assert.equal(crd.spec.conversion, undefined);
  });
});

describe('crdResourceDefs', () => {
  it('one def per served version with subresources and names', () => {
    const crd = widgetCrd((c) => { c.spec.versions!.push({ name: 'v2', served: false, storage: false, schema: c.spec.versions![0]!.schema }); });
    assert.deepEqual(crdResourceDefs(crd), [{
      group: 'example.com', version: 'v1', resource: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', namespaced: true,
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], generation: true, shortNames: ['wd'], categories: ['all'],
      subresources: { status: true, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
    }]);
  });
  it('cluster scope and no subresources', () => {
    const [def] = crdResourceDefs(widgetCrd((c) => { c.spec.scope = 'Cluster'; delete c.spec.versions![0]!.subresources; }));
    assert.equal(def?.namespaced, false);
    assert.equal(def?.subresources, undefined);
  });
});

describe('crdStatus', () => {
  it('accepts names and establishes a fresh CRD', () => {
    const s = crdStatus(widgetCrd(), NOW, []);
    assert.deepEqual(s.conditions, [
      { type: 'NamesAccepted', status: 'True', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'NoConflicts', message: 'no conflicts found' },
      { type: 'Established', status: 'True', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
    ]);
    assert.deepEqual(s.acceptedNames, { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'], categories: ['all'] });
    assert.deepEqual(s.storedVersions, ['v1']);
  });

  const other = widgetCrd((c) => {
    c.metadata.name = 'gadgets.example.com';
    c.status = { acceptedNames: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList', shortNames: ['wd'] } };
  });
  const conflicts = [
    { name: 'short name in use', crd: widgetCrd(), reason: 'ShortNamesConflict', message: '"wd" is already in use' },
    { name: 'plural in use', crd: widgetCrd((c) => { c.spec.names!.plural = 'gadget'; c.spec.names!.shortNames = []; }), reason: 'PluralConflict', message: '"gadget" is already in use' },
    { name: 'kind in use', crd: widgetCrd((c) => { c.spec.names!.kind = 'Gadget'; c.spec.names!.listKind = 'WidgetList'; c.spec.names!.shortNames = []; }), reason: 'KindConflict', message: '"Gadget" is already in use' },
  ];
  for (const c of conflicts) {
    it(`NamesAccepted False: ${c.name}`, () => {
      const s = crdStatus(c.crd, NOW, [other]);
      assert.equal(s.conditions?.[0]?.status, 'False');
      assert.equal(s.conditions?.[0]?.reason, c.reason);
      assert.equal(s.conditions?.[0]?.message, c.message);
      assert.deepEqual(s.conditions?.[1], { type: 'Established', status: 'False', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'NotAccepted', message: 'not all names are accepted' });
    });
  }
  it('ignores other groups and itself', () => {
    const elsewhere = widgetCrd((c) => { c.spec.group = 'other.io'; c.metadata.name = 'widgets.other.io'; c.status = crdStatus(c, NOW); });
    const self = widgetCrd((c) => { c.status = crdStatus(c, NOW); });
    assert.equal(crdStatus(widgetCrd(), NOW, [elsewhere, self]).conditions?.[0]?.status, 'True');
  });
  it('keeps lastTransitionTime when nothing changed', () => {
    const crd = widgetCrd((c) => { c.status = crdStatus(c, NOW); });
    const later = crdStatus(crd, new Date('2027-01-01T00:00:00Z'));
    assert.equal(later.conditions?.[1]?.lastTransitionTime, '2026-01-02T03:04:05Z');
  });
});

describe('convertCustomResource', () => {
  it('rewrites only apiVersion', () => {
    const obj = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { a: 1 } };
    assert.deepEqual(convertCustomResource(obj, 'v2'), { ...obj, apiVersion: 'example.com/v2' });
  });
  it('round-trips for any version pair', () => {
    fc.assert(fc.property(fc.stringMatching(/^v[0-9]+(alpha|beta)?[0-9]*$/), fc.stringMatching(/^v[0-9]+$/), (a, b) => {
      const obj = { apiVersion: `example.com/${a}`, kind: 'Widget', metadata: {}, spec: { x: 1 } };
      assert.deepEqual(convertCustomResource(convertCustomResource(obj, b), a), obj);
    }));
  });
});

describe('scale', () => {
  const paths = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };
  const obj = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns', uid: 'u', resourceVersion: '7', labels: { a: 'b' } }, spec: { replicas: 3 }, status: { replicas: 2, selector: 'app=w' } };
  const cases = [
    { name: 'reads replicas and selector', obj, want: { spec: { replicas: 3 }, status: { replicas: 2, selector: 'app=w' } } },
    { name: 'missing replicas read as 0', obj: { ...obj, spec: {}, status: {} }, want: { spec: { replicas: 0 }, status: { replicas: 0 } } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = readScale(paths, c.obj);
      assert.deepEqual(s, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'w', namespace: 'ns', uid: 'u', resourceVersion: '7' }, ...c.want });
    });
  }
  it('formats a LabelSelector object (as for deployments .spec.selector)', () => {
    const s = readScale({ ...paths, labelSelectorPath: '.spec.selector' }, { ...obj, spec: { replicas: 1, selector: { matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'c', operator: 'In', values: ['y', 'x'] }, { key: 'd', operator: 'DoesNotExist' }] } } });
    assert.equal(s.status.selector, 'a=1,b=2,c in (x,y),!d');
    assert.equal(formatLabelSelector({}), '');
  });
  it('writes replicas into a copy, creating parents', () => {
    const written = writeScale({ specReplicasPath: '.spec.scaling.replicas', statusReplicasPath: '.status.replicas' }, obj, 5);
    assert.deepEqual(written.spec, { replicas: 3, scaling: { replicas: 5 } });
    assert.deepEqual(obj.spec, { replicas: 3 });
  });
  it('a non-integer replicas value is an internal error', () => {
    assert.throws(() => readScale(paths, { ...obj, spec: { replicas: 'x' } }), /accessor error/);
  });
});
