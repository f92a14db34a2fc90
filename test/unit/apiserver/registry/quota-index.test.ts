// The quota index answers from the store's watch, and says "behind" (the caller lists) when a write
// made inside another watcher's listener has not reached it yet: it never answers from an older state.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../../../../src/apiserver/store/memory-store.ts';
import { QuotaIndex } from '../../../../src/apiserver/registry/quota-index.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

const quota = (namespace: string, name: string, hard: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace }, spec: { hard } });
const configMap = (namespace: string, name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace } });
const names = (objects: KubeObject[] | undefined): string[] | undefined => objects?.map((o) => o.metadata.name ?? '').sort();

describe('quota index', () => {
  it('follows quotas created, changed and deleted, and what each counts', () => {
    const store = new MemoryStore();
    store.create({ resource: 'resourcequotas', namespace: 'a', name: 'old' }, quota('a', 'old', { pods: '1' }));
    const index = new QuotaIndex(store);
    try {
      assert.deepEqual(names(index.quotasIn('a')), ['old']);
      assert.deepEqual(index.quotasIn('b'), []);
      store.create({ resource: 'resourcequotas', namespace: 'a', name: 'q' }, quota('a', 'q', { 'count/configmaps': '2' }));
      assert.deepEqual(names(index.quotasIn('a')), ['old', 'q']);
      assert.equal(index.counts('a', 'configmaps'), true);
      assert.equal(index.counts('a', 'secrets'), false);
      const current = store.get({ resource: 'resourcequotas', namespace: 'a', name: 'q' });
      assert.ok(current);
      store.update({ resource: 'resourcequotas', namespace: 'a', name: 'q' }, { ...current, spec: { hard: { secrets: '1' } } });
      assert.equal(index.counts('a', 'configmaps'), false);
      assert.equal(index.counts('a', 'secrets'), true);
      store.delete({ resource: 'resourcequotas', namespace: 'a', name: 'q' });
      store.delete({ resource: 'resourcequotas', namespace: 'a', name: 'old' });
      assert.deepEqual(index.quotasIn('a'), []);
      assert.equal(index.hasQuotas('a'), false);
    } finally {
      index.stop();
    }
  });

  it('is behind, not wrong, while a listener served before it writes a quota', () => {
    const store = new MemoryStore();
    const seenInside: Array<string[] | undefined> = [];
    // Registered before the index, so the store's pump serves it first.
    const stop = store.watch('configmaps', store.revision(), (event) => {
      store.create({ resource: 'resourcequotas', namespace: event.namespace, name: 'late' }, quota(event.namespace, 'late', { configmaps: '0' }));
      seenInside.push(names(index.quotasIn(event.namespace)));
    });
    const index = new QuotaIndex(store);
    try {
      store.create({ resource: 'configmaps', namespace: 'a', name: 'trigger' }, configMap('a', 'trigger'));
      assert.deepEqual(seenInside, [undefined], 'the index had not seen the nested quota yet and said so');
      assert.deepEqual(names(index.quotasIn('a')), ['late'], 'caught up once the pump reached it');
    } finally {
      stop();
      index.stop();
    }
  });
});
