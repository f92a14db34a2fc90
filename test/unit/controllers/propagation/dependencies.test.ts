// propagateDeps bookkeeping over map-backed stores and an upstream fake that
// writes into them: attached bindings made, shared by two parents, kept while
// anyone needs them, deleted when nobody does unless a policy placed them; the
// reverse index that wakes parents; and the executor's cluster union.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { ResourceBinding, ResourceBindingSpec } from '../../../../src/core/propagation/karmada-types.ts';
import { IndexedStore } from '../../../../src/kube/indexed-store.ts';
import type { Informer } from '../../../../src/kube/informer.ts';
import type { EngineContext } from '../../../../src/controllers/propagation/engine-context.ts';
import type { EngineInformers } from '../../../../src/controllers/propagation/engine-informers.ts';
import { TEMPLATE_RESOURCES } from '../../../../src/controllers/propagation/template-resources.ts';
import {
  bindingsDependingOn, bindingsRequiring, clustersToPropagate, DEPENDENCIES_ANNOTATION, syncDependencies,
} from '../../../../src/controllers/propagation/dependencies.ts';

const NS = 'abc123-default';

type FakeInformer<T extends KubeObject> = Informer<T> & { put(obj: T): void; remove(key: string): void };
function fakeInformer<T extends KubeObject>(): FakeInformer<T> {
  const store = new IndexedStore<T>();
  const key = (o: T): string => `${o.metadata.namespace}/${o.metadata.name}`;
  const fake: Omit<FakeInformer<T>, 'synced' | 'stop' | 'lastSyncResourceVersion' | 'notifiesProgress'> = {
    store: store.items,
    addIndex: (n: string, fn: (obj: T) => string[]) => store.addIndex(n, fn),
    byIndex: (n: string, v: string) => store.byIndex(n, v),
    put: (obj: T) => { store.set(key(obj), obj); },
    remove: (k: string) => { store.delete(k); },
  };
  return { ...fake, synced: async () => undefined, stop: () => undefined, lastSyncResourceVersion: () => '', notifiesProgress: () => false };
}

function world() {
  const bindings = fakeInformer<ResourceBinding>();
  const templates = new Map(TEMPLATE_RESOURCES.map((r) => [r, fakeInformer<KubeObject>()]));
  const byKind = (kind: string) => templates.get(TEMPLATE_RESOURCES.find((r) => r.kind === kind)!)!;
  const writes: string[] = [];
  let rv = 0;
  const upstream = {
    async request(method: string, path: string, body?: unknown) {
      const m = /\/namespaces\/([^/]+)\/resourcebindings(?:\/([^/]+))?$/.exec(path);
      assert.ok(m, `unexpected path ${path}`);
      writes.push(`${method} ${m[2] ?? (body as ResourceBinding).metadata.name}`);
      if (method === 'DELETE') { bindings.remove(`${m[1]}/${m[2]}`); return { status: 200, headers: {}, body: {} }; }
      const obj = structuredClone(body as ResourceBinding);
      obj.metadata.resourceVersion = String(++rv);
      obj.metadata.uid ??= `uid-${obj.metadata.name}`;
      bindings.put(obj);
      return { status: method === 'POST' ? 201 : 200, headers: {}, body: obj };
    },
  };
  const ctx = { upstream, informers: { bindings, templates } as unknown as EngineInformers } as unknown as EngineContext;
  const template = (kind: string, name: string, extra: Partial<KubeObject> = {}): KubeObject => {
    const apiVersion = kind === 'Deployment' ? 'apps/v1' : 'v1';
    const obj: KubeObject = { apiVersion, kind, metadata: { name, namespace: NS, uid: `uid-${name}`, resourceVersion: '7' }, ...extra };
    byKind(kind).put(obj);
    return obj;
  };
  const deployment = (name: string, configMaps: string[]): KubeObject => template('Deployment', name, {
    spec: { template: { spec: { containers: [{ name: 'c', envFrom: configMaps.map((c) => ({ configMapRef: { name: c } })) }] } } },
  });
  const parent = (name: string, spec: Partial<ResourceBindingSpec>): ResourceBinding => {
    const b: ResourceBinding = {
      apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding',
      metadata: { name: `${name}-deployment`, namespace: NS, uid: `uid-${name}-deployment`, resourceVersion: '1' },
      spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: NS, name }, propagateDeps: true, ...spec },
    };
    bindings.put(b);
    return b;
  };
  const sync = async (name: string): Promise<void> => {
    const key = `${NS}/${name}-deployment`;
    await syncDependencies(ctx, 'abc123', NS, `${name}-deployment`, bindings.store.get(key));
  };
  const binding = (name: string): ResourceBinding | undefined => bindings.store.get(`${NS}/${name}`);
  return { ctx, bindings, byKind, writes, template, deployment, parent, sync, binding };
}

describe('clustersToPropagate', () => {
  const table: Array<[string, ResourceBindingSpec, string[]]> = [
    ['own clusters only', { resource: { apiVersion: 'v1', kind: 'ConfigMap', name: 'x' }, clusters: [{ name: 'a' }] }, ['a']],
    ['requiredBy only', { resource: { apiVersion: 'v1', kind: 'ConfigMap', name: 'x' }, requiredBy: [{ name: 'p', clusters: [{ name: 'b' }, { name: 'a' }] }] }, ['b', 'a']],
    ['union without repeats, own first', { resource: { apiVersion: 'v1', kind: 'ConfigMap', name: 'x' }, clusters: [{ name: 'a', replicas: 2 }],
      requiredBy: [{ name: 'p', clusters: [{ name: 'a', replicas: 9 }, { name: 'c' }] }, { name: 'q', clusters: [{ name: 'c' }, { name: 'd' }] }] }, ['a', 'c', 'd']],
    ['nothing', { resource: { apiVersion: 'v1', kind: 'ConfigMap', name: 'x' } }, []],
  ];
  for (const [name, spec, want] of table) {
    it(name, () => assert.deepEqual(clustersToPropagate(spec).map((c) => c.name), want));
  }
  it('keeps the binding\'s own replicas for a cluster both name', () => {
    assert.equal(clustersToPropagate(table[2]![1])[0]?.replicas, 2);
  });
});

describe('syncDependencies', () => {
  it('records the dependencies in tenant terms and makes an attached binding for each that exists', async () => {
    const w = world();
    w.deployment('web', ['cfg', 'missing']);
    w.template('ConfigMap', 'cfg');
    w.parent('web', { clusters: [{ name: 'm1' }, { name: 'm2' }] });
    await w.sync('web');
    const parent = w.binding('web-deployment')!;
    assert.deepEqual(JSON.parse(parent.metadata.annotations?.[DEPENDENCIES_ANNOTATION] ?? ''), [
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'cfg' },
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'missing' },
    ]);
    const attached = w.binding('cfg-configmap')!;
    assert.deepEqual(attached.spec, {
      resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: NS, name: 'cfg', uid: 'uid-cfg', resourceVersion: '7' },
      requiredBy: [{ namespace: 'default', name: 'web-deployment', clusters: [{ name: 'm1' }, { name: 'm2' }] }],
    });
    assert.equal(attached.metadata.labels?.['tenancy.warren.dev/tenant'], 'abc123');
    assert.deepEqual(attached.metadata.ownerReferences?.map((o) => `${o.kind}/${o.name}/${o.uid}/${o.controller}`), ['ConfigMap/cfg/uid-cfg/true']);
    assert.equal(w.binding('missing-configmap'), undefined);
    // Nothing changed: a second pass writes nothing.
    const before = w.writes.length;
    await w.sync('web');
    assert.equal(w.writes.length, before);
  });

  it('shares one attached binding between two parents and deletes it only when neither needs it', async () => {
    const w = world();
    w.deployment('a', ['cfg']);
    w.deployment('b', ['cfg']);
    w.template('ConfigMap', 'cfg');
    w.parent('a', { clusters: [{ name: 'm1' }] });
    w.parent('b', { clusters: [{ name: 'm2' }] });
    await w.sync('a');
    await w.sync('b');
    assert.deepEqual(w.binding('cfg-configmap')!.spec.requiredBy?.map((r) => r.name), ['a-deployment', 'b-deployment']);
    assert.deepEqual(clustersToPropagate(w.binding('cfg-configmap')!.spec).map((c) => c.name), ['m1', 'm2']);

    w.bindings.remove(`${NS}/a-deployment`); // parent a gone
    await w.sync('a');
    assert.deepEqual(w.binding('cfg-configmap')!.spec.requiredBy?.map((r) => r.name), ['b-deployment']);

    w.parent('b', { propagateDeps: false, clusters: [{ name: 'm2' }] }); // propagateDeps turned off
    await w.sync('b');
    assert.equal(w.binding('cfg-configmap'), undefined);
    assert.equal(w.writes.at(-1), 'DELETE cfg-configmap');
  });

  it('follows the parent\'s clusters, and drops a dependency whose reference was removed', async () => {
    const w = world();
    w.deployment('web', ['one', 'two']);
    w.template('ConfigMap', 'one');
    w.template('ConfigMap', 'two');
    w.parent('web', { clusters: [{ name: 'm1' }] });
    await w.sync('web');
    w.parent('web', { clusters: [{ name: 'm3' }] });
    w.deployment('web', ['one']);
    await w.sync('web');
    assert.deepEqual(w.binding('one-configmap')!.spec.requiredBy?.[0]?.clusters, [{ name: 'm3' }]);
    assert.equal(w.binding('two-configmap'), undefined);
  });

  it('adds requiredBy to a policy-made binding without touching the rest, and never deletes it', async () => {
    const w = world();
    w.deployment('web', ['cfg']);
    w.template('ConfigMap', 'cfg');
    const own: ResourceBinding = {
      apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding',
      metadata: { name: 'cfg-configmap', namespace: NS, uid: 'uid-own', resourceVersion: '3' },
      spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: NS, name: 'cfg', uid: 'uid-cfg', resourceVersion: '6' }, placement: { clusterAffinity: { clusterNames: ['m1'] } }, clusters: [{ name: 'm1' }] },
    };
    w.bindings.put(own);
    w.parent('web', { clusters: [{ name: 'm2' }] });
    await w.sync('web');
    const after = w.binding('cfg-configmap')!;
    assert.deepEqual(after.spec, { ...own.spec, requiredBy: [{ namespace: 'default', name: 'web-deployment', clusters: [{ name: 'm2' }] }] });
    w.bindings.remove(`${NS}/web-deployment`);
    await w.sync('web');
    assert.deepEqual(w.binding('cfg-configmap')!.spec, own.spec);
  });

  it('the reverse indexes find the parents of a dependency, and the parents an attached binding names', async () => {
    const w = world();
    w.deployment('web', ['cfg']);
    const cfg = w.template('ConfigMap', 'cfg');
    w.parent('web', { clusters: [{ name: 'm1' }] });
    await w.sync('web');
    const informers = w.ctx.informers;
    assert.deepEqual(bindingsDependingOn(informers, cfg).map((b) => b.metadata.name), ['web-deployment']);
    assert.deepEqual(bindingsDependingOn(informers, { ...cfg, kind: 'Secret' }).map((b) => b.metadata.name), []);
    assert.deepEqual(bindingsDependingOn(informers, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { namespace: NS, name: 'cfg' } }), []);
    assert.deepEqual(bindingsRequiring(informers, w.binding('cfg-configmap')!).map((b) => b.metadata.name), ['web-deployment']);
  });
});
