// Server-owned metadata is copied key by key (no delete); these properties pin
// the result, key order included (it shows in responses), to the plain
// spread-then-delete definition.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { prepareCreateMeta, prepareUpdateMeta, specChanged } from '../../../../src/apiserver/registry/object-meta.ts';
import type { ObjectMeta } from '../../../../src/core/types.ts';
import type { ResourceDef } from '../../../../src/core/resources/resource-def.ts';

const NOW = new Date('2026-01-02T03:04:05.678Z');

function referenceCreate(def: { namespaced: boolean; generation?: boolean }, meta: ObjectMeta, namespace: string, uid: string): ObjectMeta {
  const out: ObjectMeta = { ...meta };
  if (!out.name && out.generateName) out.name = `${out.generateName}xxxxx`;
  if (def.namespaced) out.namespace = namespace;
  else delete out.namespace;
  out.uid = uid;
  out.creationTimestamp = '2026-01-02T03:04:05Z';
  delete out.resourceVersion;
  delete out.deletionTimestamp;
  delete out.deletionGracePeriodSeconds;
  if (def.generation) out.generation = 1;
  else delete out.generation;
  delete out.selfLink;
  return out;
}

function referenceUpdate(meta: ObjectMeta, old: ObjectMeta): ObjectMeta {
  const out: ObjectMeta = { ...meta };
  out.uid = old.uid;
  out.creationTimestamp = old.creationTimestamp;
  if (old.namespace !== undefined) out.namespace = old.namespace;
  if (old.deletionTimestamp) out.deletionTimestamp = old.deletionTimestamp;
  else delete out.deletionTimestamp;
  if (old.deletionGracePeriodSeconds !== undefined) out.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
  else delete out.deletionGracePeriodSeconds;
  if (old.generation !== undefined) out.generation = old.generation;
  else delete out.generation;
  delete out.selfLink;
  return out;
}

const KEYS = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp',
  'deletionGracePeriodSeconds', 'labels', 'annotations', 'finalizers', 'selfLink', 'ownerReferences'] as const;
const value = fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: 0, max: 9 }), fc.constant({ a: 'b' }));
// Any subset of the keys, in any order.
const meta = fc.shuffledSubarray([...KEYS]).chain((keys) => fc.tuple(...keys.map(() => value)).map((vals) =>
  Object.fromEntries(keys.map((k, i) => [k, vals[i]])) as ObjectMeta));

/** Key order and values, with the random parts (uid, generated name suffix) made comparable. */
const shape = (m: ObjectMeta): Array<[string, unknown]> => Object.entries(m).map(([k, v]) =>
  [k, k === 'uid' ? 'UID' : k === 'name' && typeof v === 'string' && m.generateName && v.startsWith(String(m.generateName)) ? 'GENERATED' : v]);

describe('server-owned metadata', () => {
  it('create: same keys, values and order as spread-then-delete', () => {
    fc.assert(fc.property(meta, fc.boolean(), fc.boolean(), (m, namespaced, generation) => {
      const def = { namespaced, generation } as unknown as ResourceDef;
      const got = prepareCreateMeta(def, m, 'ns', NOW);
      const want = referenceCreate({ namespaced, generation }, m, 'ns', 'UID');
      assert.deepEqual(shape(got), shape(want));
      assert.match(String(got.uid), /^[0-9a-f-]{36}$/);
    }), { numRuns: 500 });
  });
  it('update: same keys, values and order as spread-then-delete', () => {
    fc.assert(fc.property(meta, meta, (m, old) => {
      assert.deepEqual(Object.entries(prepareUpdateMeta(m, old)), Object.entries(referenceUpdate(m, old)));
    }), { numRuns: 500 });
  });
});

describe('specChanged', () => {
  it('specChanged looks past metadata, status, apiVersion and kind only', () => {
    const base = { apiVersion: 'v1', kind: 'X', metadata: { name: 'a' }, spec: { n: 1 }, data: { k: 'v' } };
    assert.equal(specChanged({ ...base, metadata: { name: 'a', labels: { l: '1' } }, status: { ok: true } }, base), false);
    assert.equal(specChanged({ ...base, apiVersion: 'v2' }, base), false);
    assert.equal(specChanged({ ...base, spec: { n: 2 } }, base), true);
    assert.equal(specChanged({ ...base, data: { k: 'w' } }, base), true);
    assert.equal(specChanged({ ...base, extra: 1 }, base), true);
  });
});
