import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyOutcome, manifestFiles, parseManifests, targetOf } from '../../../src/cli/apply-command.ts';
import type { KubeObject } from '../../../src/core/types.ts';

test('parseManifests: every document, List items unpacked, empty documents dropped', () => {
  const text = [
    'apiVersion: tenancy.warren.dev/v1alpha1\nkind: Tenant\nmetadata: {name: a}',
    '',
    '# only a comment',
    'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: tenancy.warren.dev/v1alpha1, kind: Tenant, metadata: {name: b}}\n- {apiVersion: cluster.karmada.io/v1alpha1, kind: Cluster, metadata: {name: m1}}',
  ].join('\n---\n');
  const got = parseManifests(text, 'x.yaml');
  assert.deepEqual(got.map((m) => `${m.source}:${m.object.kind}/${m.object.metadata.name}`), ['x.yaml:Tenant/a', 'x.yaml:Tenant/b', 'x.yaml:Cluster/m1']);
  assert.deepEqual(parseManifests('{"apiVersion":"tenancy.warren.dev/v1alpha1","kind":"Tenant","metadata":{"name":"j"}}', 'j.json').map((m) => m.object.metadata.name), ['j']);
});

test('parseManifests: broken YAML and non-objects name the file', () => {
  assert.throws(() => parseManifests('a: [1,\n', 'bad.yaml'), /^Error: bad\.yaml: /);
  assert.throws(() => parseManifests('- 1\n- 2\n', 'list.yaml'), /list\.yaml: a document is not an object/);
});

const obj = (apiVersion: string, kind: string, name?: string): KubeObject => ({ apiVersion, kind, metadata: name ? { name } : {} });

const targets: Array<[string, KubeObject, ReturnType<typeof targetOf>]> = [
  ['Tenant', obj('tenancy.warren.dev/v1alpha1', 'Tenant', 'acme'), { path: '/apis/tenancy.warren.dev/v1alpha1/tenants/acme', ref: 'tenant/acme', kind: 'Tenant' }],
  ['Karmada Cluster', obj('cluster.karmada.io/v1alpha1', 'Cluster', 'member1'), { path: '/apis/cluster.karmada.io/v1alpha1/clusters/member1', ref: 'cluster/member1', kind: 'Cluster' }],
  ['Tenant without a name', obj('tenancy.warren.dev/v1alpha1', 'Tenant'), 'a Tenant has no metadata.name'],
  ['Tenant of another version', obj('tenancy.warren.dev/v1', 'Tenant', 'acme'), 'Tenant tenancy.warren.dev/v1 "acme": warren apply takes Tenants and Karmada Clusters; use kubectl apply for anything else'],
  ['a Deployment', obj('apps/v1', 'Deployment', 'web'), 'Deployment apps/v1 "web": warren apply takes Tenants and Karmada Clusters; use kubectl apply for anything else'],
];
for (const [name, input, want] of targets) {
  test(`targetOf: ${name}`, () => assert.deepEqual(targetOf(input), want));
}

test('applyOutcome: kubectl words from the resourceVersion before and after', () => {
  assert.equal(applyOutcome(undefined, '5'), 'created');
  assert.equal(applyOutcome('5', '5'), 'unchanged');
  assert.equal(applyOutcome('5', '6'), 'configured');
});

test('manifestFiles: a folder gives its manifest files in name order, not recursing; a file is itself', () => {
  const dir = mkdtempSync(join(tmpdir(), 'warren-apply-'));
  for (const f of ['b.yaml', 'a.yml', 'c.json', 'notes.md']) writeFileSync(join(dir, f), '');
  mkdirSync(join(dir, 'sub.yaml'));
  writeFileSync(join(dir, 'sub.yaml', 'deep.yaml'), '');
  const single = join(dir, 'notes.md');
  assert.deepEqual(manifestFiles([dir, single]), [join(dir, 'a.yml'), join(dir, 'b.yaml'), join(dir, 'c.json'), single]);
});
