// The embedded apiserver's quota admission lists a namespace's objects only when
// a quota key concerns the created object. Issue 18: every tenant namespace holds
// Warren's tenant-quota view (keys no evaluator counts), and listing the whole
// collection on each create made a tenant create cost the host O(namespace).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { ResourceDef } from '../../../../src/core/resources/resource-def.ts';
import type { Store } from '../../../../src/apiserver/store/store.ts';
import { admitAgainstQuotas } from '../../../../src/apiserver/registry/resource-quota.ts';

/** A quota its controller has seen: status.hard as spec.hard (what admission enforces), every figure in status.used. */
const quota = (hard: Record<string, string>): KubeObject => ({
  apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'ns' }, spec: { hard },
  status: { hard, used: Object.fromEntries(Object.keys(hard).map((k) => [k, '0'])) },
});
const configMap = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' } });
const def = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true } as unknown as ResourceDef;

/** A store holding one quota and some ConfigMaps, recording which collections were listed. */
function storeWith(q: KubeObject, stored: number): { store: Store; listed: string[] } {
  const listed: string[] = [];
  const items: Record<string, KubeObject[]> = { resourcequotas: [q], configmaps: Array.from({ length: stored }, (_, i) => configMap(`cm-${i}`)) };
  const store = { list: (key: string) => { listed.push(key); return { items: items[key] ?? [], revision: 1 }; } } as unknown as Store;
  return { store, listed };
}

describe('embedded quota admission', () => {
  it('a quota that counts nothing of the kind does not list the collection', () => {
    const { store, listed } = storeWith(quota({ 'tenancy.warren.dev/objects-per-resource': '10', pods: '5' }), 3);
    admitAgainstQuotas(store, (d) => d.resource, def, configMap('new'), 'ns');
    assert.deepEqual(listed, ['resourcequotas']);
  });

  it('a quota that counts the kind still lists it and refuses past the limit', () => {
    const { store, listed } = storeWith(quota({ configmaps: '3' }), 3);
    assert.throws(() => admitAgainstQuotas(store, (d) => d.resource, def, configMap('new'), 'ns'), /exceeded quota: q, requested: configmaps=1, used: configmaps=3, limited: configmaps=3/);
    assert.deepEqual(listed, ['resourcequotas', 'configmaps']);
    const below = storeWith(quota({ configmaps: '4', 'count/configmaps': '10' }), 3);
    admitAgainstQuotas(below.store, (d) => d.resource, def, configMap('new'), 'ns');
    assert.deepEqual(below.listed, ['resourcequotas', 'configmaps'], 'listed once for both keys');
  });

  it('a quota enforces its status.hard: nothing before its controller has filled it, a key without used is "status unknown"', () => {
    const unfilled = storeWith({ ...quota({ configmaps: '0' }), status: {} }, 3);
    admitAgainstQuotas(unfilled.store, (d) => d.resource, def, configMap('new'), 'ns');
    const stale = storeWith({ ...quota({ configmaps: '0' }), status: { hard: { configmaps: '10', pods: '1' } } }, 3);
    assert.throws(() => admitAgainstQuotas(stale.store, (d) => d.resource, def, configMap('new'), 'ns'), /^ApiError: configmaps "new" is forbidden: status unknown for quota: q, resources: configmaps$/);
    const wider = storeWith({ ...quota({ configmaps: '0' }), status: { hard: { configmaps: '10' }, used: { configmaps: '3' } } }, 3);
    admitAgainstQuotas(wider.store, (d) => d.resource, def, configMap('new'), 'ns');
  });
});
