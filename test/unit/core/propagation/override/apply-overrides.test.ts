import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import YAML from 'yaml';
import { ApiError } from '../../../../../src/core/api-error.ts';
import { applyOverrides } from '../../../../../src/core/propagation/override/index.ts';
import type { Cluster, OverridePolicy, OverrideSpec } from '../../../../../src/core/propagation/karmada-types.ts';
import type { KubeObject } from '../../../../../src/core/types.ts';

const member1: Cluster = { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'member1', labels: { env: 'prod' } }, spec: { region: 'eu' } };
const member2: Cluster = { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'member2' }, spec: { region: 'us' } };

function deployment(): KubeObject {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: 'nginx', namespace: 'default', labels: { app: 'nginx' } },
    spec: {
      replicas: 2,
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: {
          initContainers: [{ name: 'init', image: 'busybox' }],
          containers: [
            { name: 'nginx', image: 'nginx:1.25', args: ['-g', 'daemon off;'], env: [{ name: 'A', value: '1' }] },
            { name: 'sidecar', image: 'a.io/side:v1' },
          ],
        },
      },
    },
  };
}

function op(name: string, spec: OverrideSpec, namespace?: string): OverridePolicy {
  const metadata: OverridePolicy['metadata'] = { name };
  if (namespace) metadata.namespace = namespace;
  return { apiVersion: 'policy.karmada.io/v1alpha1', kind: namespace ? 'OverridePolicy' : 'ClusterOverridePolicy', metadata, spec };
}
const sel = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' }];
const containers = (m: KubeObject): Array<Record<string, unknown>> => (m as any).spec.template.spec.containers;

describe('applyOverrides', () => {
  it("Karmada quick start: nginx:test on member1 only", () => {
    const p = op('example', { resourceSelectors: sel, overrideRules: [{ targetCluster: { clusterNames: ['member1'] }, overriders: { imageOverrider: [{ component: 'Tag', operator: 'replace', value: 'test' }] } }] }, 'default');
    const m1 = applyOverrides(deployment(), member1, [p], []);
    assert.deepEqual(containers(m1.manifest).map((c) => c.image), ['nginx:test', 'a.io/side:test']);
    assert.equal((m1.manifest as any).spec.template.spec.initContainers[0].image, 'busybox', 'init containers untouched, as in Karmada');
    assert.deepEqual(m1.applied, [{ policy: 'example', namespaced: true }]);
    const m2 = applyOverrides(deployment(), member2, [p], []);
    assert.equal(containers(m2.manifest)[0]?.image, 'nginx:1.25');
    assert.deepEqual(m2.applied, []);
  });

  it('does not mutate its input', () => {
    const d = deployment();
    const before = structuredClone(d);
    applyOverrides(d, member1, [op('x', { overrideRules: [{ overriders: { plaintext: [{ path: '/spec/replicas', operator: 'replace', value: 9 }] } }] }, 'default')], []);
    assert.deepEqual(d, before);
  });

  it('cluster policies apply first, then namespaced; most specific last (wins)', () => {
    const set = (v: number) => ({ overrideRules: [{ overriders: { plaintext: [{ path: '/spec/replicas', operator: 'replace' as const, value: v }] } }] });
    const policies = [
      op('b-name', { resourceSelectors: sel, ...set(3) }, 'default'),
      op('a-kind', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], ...set(2) }, 'default'),
      op('c-label', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { app: 'nginx' } } }], ...set(4) }, 'default'),
      op('z-all', { ...set(1) }, 'default'),
    ];
    const cluster = [op('cop', { resourceSelectors: sel, ...set(100) })];
    const r = applyOverrides(deployment(), member1, policies, cluster);
    assert.deepEqual(r.applied.map((a) => `${a.namespaced ? 'ns' : 'c'}/${a.policy}`), ['c/cop', 'ns/a-kind', 'ns/z-all', 'ns/c-label', 'ns/b-name']);
    assert.equal((r.manifest as any).spec.replicas, 3);
  });

  it('namespaced policies never touch cluster-scoped resources; other namespaces ignored', () => {
    const ns: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } };
    const p = op('p', { overrideRules: [{ overriders: { labelsOverrider: [{ operator: 'add', value: { a: 'b' } }] } }] }, 'default');
    assert.deepEqual(applyOverrides(ns, member1, [p], []).applied, []);
    const other = op('p', { overrideRules: [{ overriders: { labelsOverrider: [{ operator: 'add', value: { a: 'b' } }] } }] }, 'prod');
    assert.deepEqual(applyOverrides(deployment(), member1, [other], []).applied, []);
  });

  it('within a rule plaintext runs last, after the image overrider', () => {
    const p = op('p', { overrideRules: [{ overriders: {
      plaintext: [{ path: '/spec/template/spec/containers/0/image', operator: 'replace', value: 'custom:1' }],
      imageOverrider: [{ component: 'Tag', operator: 'replace', value: 'x' }],
    } }] }, 'default');
    assert.equal(containers(applyOverrides(deployment(), member1, [p], []).manifest)[0]?.image, 'custom:1');
  });

  it('deprecated top-level targetCluster + overriders', () => {
    const p = op('old', { resourceSelectors: sel, targetCluster: { labelSelector: { matchLabels: { env: 'prod' } } }, overriders: { annotationsOverrider: [{ operator: 'add', value: { 'x/y': 'z' } }] } }, 'default');
    assert.deepEqual(applyOverrides(deployment(), member1, [p], []).manifest.metadata.annotations, { 'x/y': 'z' });
    assert.equal(applyOverrides(deployment(), member2, [p], []).manifest.metadata.annotations, undefined);
  });

  it('command and args by container name', () => {
    const p = op('p', { overrideRules: [{ overriders: {
      commandOverrider: [{ containerName: 'nginx', operator: 'add', value: ['nginx'] }, { containerName: 'sidecar', operator: 'remove', value: ['x'] }],
      argsOverrider: [{ containerName: 'nginx', operator: 'remove', value: ['-g'] }, { containerName: 'nginx', operator: 'add', value: ['--v'] }],
    } }] }, 'default');
    const c = containers(applyOverrides(deployment(), member1, [p], []).manifest);
    assert.deepEqual(c[0]?.command, ['nginx']);
    assert.deepEqual(c[0]?.args, ['daemon off;', '--v']);
    assert.deepEqual(c[1]?.command, [], 'remove on a missing command leaves an empty list, as Karmada does');
  });

  it('labels and annotations: add creates, replace/remove skip missing keys', () => {
    const p = op('p', { overrideRules: [{ overriders: { labelsOverrider: [
      { operator: 'add', value: { 'app.kubernetes.io/name': 'web' } },
      { operator: 'replace', value: { app: 'web', missing: 'x' } },
      { operator: 'remove', value: { gone: '' } },
    ], annotationsOverrider: [{ operator: 'remove', value: { nope: '' } }] } }] }, 'default');
    const m = applyOverrides(deployment(), member1, [p], []).manifest;
    assert.deepEqual(m.metadata.labels, { app: 'web', 'app.kubernetes.io/name': 'web' });
    assert.equal(m.metadata.annotations, undefined);
  });

  it('fieldOverrider patches JSON and YAML held in strings', () => {
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'default' },
      data: { 'db.yaml': 'db:\n  host: a\n  port: 1\n', 'app.json': '{"log":"info","n":1}' } };
    const p = op('p', { overrideRules: [{ overriders: { fieldOverrider: [
      { fieldPath: '/data/db.yaml', yaml: [{ subPath: '/db/host', operator: 'replace', value: 'b' }, { subPath: '/db/tls', operator: 'add', value: true }] },
      { fieldPath: '/data/app.json', json: [{ subPath: '/log', operator: 'replace', value: 'debug' }, { subPath: '/n', operator: 'remove' }] },
    ] } }] }, 'default');
    const m = applyOverrides(cm, member1, [p], []).manifest as any;
    assert.deepEqual(YAML.parse(m.data['db.yaml']), { db: { host: 'b', port: 1, tls: true } });
    assert.equal(m.data['app.json'], '{"log":"debug"}');
  });

  it('envOverrider: add upserts, replace only existing, remove by name', () => {
    const p = op('p', { overrideRules: [{ overriders: { envOverrider: [
      { containerName: 'nginx', operator: 'add', value: [{ name: 'B', value: '2' }, { name: 'A', value: '9' }] },
      { containerName: 'nginx', operator: 'replace', value: [{ name: 'C', value: '3' }] },
      { containerName: 'init', operator: 'add', value: [{ name: 'I', value: 'i' }] },
      { containerName: 'sidecar', operator: 'remove', value: [{ name: 'A' }] },
    ] } }] }, 'default');
    const m = applyOverrides(deployment(), member1, [p], []).manifest as any;
    assert.deepEqual(m.spec.template.spec.containers[0].env, [{ name: 'A', value: '9' }, { name: 'B', value: '2' }]);
    assert.deepEqual(m.spec.template.spec.initContainers[0].env, [{ name: 'I', value: 'i' }]);
    assert.deepEqual(m.spec.template.spec.containers[1].env, []);
  });

  it('empty targetCluster object matches every cluster', () => {
    const p = op('p', { overrideRules: [{ targetCluster: {}, overriders: { labelsOverrider: [{ operator: 'add', value: { a: 'b' } }] } }] }, 'default');
    assert.equal(applyOverrides(deployment(), member2, [p], []).applied.length, 1);
  });

  const failures: Array<[string, OverrideSpec, string, RegExp]> = [
    ['plaintext path without a leading slash', { overrideRules: [{ overriders: { plaintext: [{ path: 'spec/replicas', operator: 'replace', value: 1 }] } }] },
      'spec.overrideRules[0].overriders.plaintext[0].path', /must start with/],
    ['plaintext replace of a missing path', { overrideRules: [{ overriders: { plaintext: [{ path: '/spec/replicas', operator: 'add', value: 1 }, { path: '/spec/nothing/here', operator: 'replace', value: 1 }] } }] },
      'spec.overrideRules[0].overriders.plaintext[1]', /missing path/],
    ['fieldPath not a string', { overrideRules: [{ overriders: { fieldOverrider: [{ fieldPath: '/spec/replicas', json: [{ subPath: '/a', operator: 'remove' }] }] } }] },
      'spec.overrideRules[0].overriders.fieldOverrider[0].fieldPath', /is not string/],
    ['image that does not parse', { overrideRules: [{ overriders: { imageOverrider: [{ predicate: { path: '/metadata/name' }, component: 'Tag', operator: 'replace', value: 'x' }] } }] },
      '', /./],
  ];
  for (const [name, spec, field, message] of failures) {
    it(`fails with 422 on ${name}`, () => {
      const d = deployment();
      if (name.startsWith('image')) d.metadata.name = 'Not_An_Image';
      assert.throws(() => applyOverrides(d, member1, [op('bad', spec, 'default')], []), (err: unknown) => {
        assert.ok(err instanceof ApiError);
        assert.equal(err.code, 422);
        assert.match(err.message, /^OverridePolicy\.policy\.karmada\.io "bad" is invalid/);
        assert.match(err.message, message);
        if (field) assert.equal(err.details?.causes?.[0]?.field, field);
        return true;
      });
    });
  }

  it('a ClusterOverridePolicy failure names the cluster-scoped kind', () => {
    const bad = op('cbad', { overrideRules: [{ overriders: { plaintext: [{ path: '/nope/x', operator: 'remove' }] } }] });
    assert.throws(() => applyOverrides(deployment(), member1, [], [bad]), /ClusterOverridePolicy\.policy\.karmada\.io "cbad" is invalid/);
  });
});
