// The informer against a real embedded apiserver over TLS: paging, live events,
// watch resumption, relist after 410, and recovery from an upstream restart.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type RunningApiServer } from '../../../src/apiserver/server.ts';
import { createUpstream } from '../../../src/kube/upstream-client.ts';
import { startInformer, type InformerEventType } from '../../../src/kube/informer.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';
import type { KubeObject } from '../../../src/core/types.ts';
import type { ResourceDef } from '../../../src/core/resources/resource-def.ts';
import { eventually } from '../../helpers/poll.ts';
import { startTcpRelay, viaRelay } from './tcp-relay.ts';

/** Passes every call through to the real upstream and remembers the paths, so tests can count LISTs and WATCHes. */
function recording(upstream: Upstream): Upstream & { lists: string[]; watches: string[] } {
  const lists: string[] = [];
  const watches: string[] = [];
  return {
    server: upstream.server,
    requestOptions: () => upstream.requestOptions(),
    request: (method, path, body, headers) => {
      if (method === 'GET') lists.push(path);
      return upstream.request(method, path, body, headers);
    },
    stream: (path, headers) => {
      watches.push(path);
      return upstream.stream(path, headers);
    },
    close: () => upstream.close(),
    lists,
    watches,
  };
}

// Every namespace also gets kube-root-ca.crt (as on a real cluster): informers select the test's own objects.
const labelSelector = 'test=informer';

function configMap(name: string, data: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { test: 'informer' } }, data };
}

interface Seen { type: InformerEventType; name: string; old?: string }

describe('informer against the embedded apiserver', () => {
  let server: RunningApiServer;
  let cms: ResourceDef;
  before(async () => {
    server = await startApiServer({ port: 0 });
    cms = server.api.lookup('', 'v1', 'configmaps')!;
  });
  after(async () => {
    await server.stop();
  });

  const namespace = (name: string): void => {
    server.api.create(server.api.lookup('', 'v1', 'namespaces')!, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  };

  it('lists 1,200 objects in pages of 500 and delivers them as ADDED', async () => {
    namespace('paging');
    for (let i = 0; i < 1200; i++) server.api.create(cms, 'paging', configMap(`cm-${i}`));
    const upstream = recording(createUpstream({ yaml: server.kubeconfig }));
    let added = 0;
    const informer = startInformer({ upstream, labelSelector, listPath: '/api/v1/namespaces/paging/configmaps', pageSize: 500, onEvent: (t) => { if (t === 'ADDED') added++; } });
    try {
      await informer.synced();
      assert.equal(informer.store.size, 1200);
      assert.equal(added, 1200);
      assert.equal(upstream.lists.length, 3);
      assert.match(upstream.lists[0]!, /limit=500/);
      assert.match(upstream.lists[1]!, /continue=/);
      const cm = informer.store.get('paging/cm-7');
      assert.equal(cm?.kind, 'ConfigMap');
      assert.equal(cm?.apiVersion, 'v1');
      assert.ok(informer.lastSyncResourceVersion() !== '');
    } finally {
      informer.stop();
      upstream.close();
    }
  });

  it('keeps only what `keep` accepts: never stored nor reported, and DELETED once an object stops passing', async () => {
    namespace('keep');
    server.api.create(cms, 'keep', configMap('wanted', { keep: 'yes' }));
    server.api.create(cms, 'keep', configMap('unwanted', { keep: 'no' }));
    const upstream = createUpstream({ yaml: server.kubeconfig });
    const seen: Seen[] = [];
    const informer = startInformer<KubeObject>({
      upstream, labelSelector, listPath: '/api/v1/namespaces/keep/configmaps',
      keep: (o) => (o.data as Record<string, string> | undefined)?.keep === 'yes',
      onEvent: (type, obj) => seen.push({ type, name: obj.metadata.name! }),
    });
    try {
      await informer.synced();
      assert.deepEqual([...informer.store.keys()], ['keep/wanted']);
      server.api.create(cms, 'keep', configMap('late', { keep: 'no' }));
      server.api.patch(cms, 'keep', 'wanted', 'merge', { data: { keep: 'no' } });
      await eventually(async () => !informer.store.has('keep/wanted'), 'wanted dropped once it stops passing');
      assert.deepEqual(seen.map((e) => `${e.type} ${e.name}`), ['ADDED wanted', 'DELETED wanted']);
      assert.equal(informer.store.size, 0);
    } finally {
      informer.stop();
      upstream.close();
    }
  });

  it('stores and reports what `transform` returns, from the LIST, live events and deletes alike', async () => {
    namespace('shape');
    server.api.create(cms, 'shape', configMap('listed', { big: 'x'.repeat(1000) }));
    const upstream = createUpstream({ yaml: server.kubeconfig });
    const seen: Array<{ type: InformerEventType; obj: KubeObject; old: KubeObject | undefined }> = [];
    const informer = startInformer<KubeObject>({
      upstream, labelSelector, listPath: '/api/v1/namespaces/shape/configmaps',
      // Keeps the identity and one derived field, as a consumer that reads nothing else would.
      transform: (o) => ({ metadata: { name: o.metadata.name, namespace: o.metadata.namespace, resourceVersion: o.metadata.resourceVersion }, size: JSON.stringify(o.data ?? {}).length }),
      onEvent: (type, obj, old) => seen.push({ type, obj, old }),
    });
    const shaped = (o: KubeObject | undefined): string => JSON.stringify(o && { ...o, metadata: { ...o.metadata, resourceVersion: 'rv' } });
    try {
      await informer.synced();
      assert.equal(shaped(informer.store.get('shape/listed')), JSON.stringify({ metadata: { name: 'listed', namespace: 'shape', resourceVersion: 'rv' }, size: 1010 }));
      server.api.create(cms, 'shape', configMap('live', { a: 'b' }));
      await eventually(async () => informer.store.has('shape/live'), 'live object stored');
      assert.equal(informer.store.get('shape/live')?.data, undefined, 'the raw object is not what is stored');
      server.api.patch(cms, 'shape', 'live', 'merge', { data: { a: 'bb' } });
      await eventually(async () => informer.store.get('shape/live')?.size === 10, 'modified object reshaped');
      server.api.delete(cms, 'shape', 'live');
      await eventually(async () => !informer.store.has('shape/live'), 'deleted');
      assert.deepEqual(seen.map((e) => `${e.type} ${e.obj.metadata.name} ${String(e.obj.size)} ${e.old ? String(e.old.size) : '-'}`),
        ['ADDED listed 1010 -', 'ADDED live 9 -', 'MODIFIED live 10 9', 'DELETED live 10 10']);
      assert.ok(seen.every((e) => e.obj.data === undefined && e.obj.metadata.managedFields === undefined), 'no event carries the raw object');
    } finally {
      informer.stop();
      upstream.close();
    }
  });

  it('delivers live ADDED, MODIFIED and DELETED events with the old object, and keeps indexes current', async () => {
    namespace('live');
    const upstream = createUpstream({ yaml: server.kubeconfig });
    const seen: Seen[] = [];
    const informer = startInformer<KubeObject>({
      upstream,
      labelSelector, listPath: '/api/v1/namespaces/live/configmaps',
      onEvent: (type, obj, old) => seen.push({ type, name: obj.metadata.name!, old: old?.metadata.resourceVersion }),
    });
    informer.addIndex('color', (o) => [String((o.data as Record<string, string> | undefined)?.color ?? '')]);
    try {
      await informer.synced();
      const created = server.api.create(cms, 'live', configMap('a', { color: 'red' }));
      await eventually(async () => informer.store.has('live/a'), 'ADDED');
      assert.deepEqual(informer.byIndex('color', 'red').map((o) => o.metadata.name), ['a']);
      server.api.patch(cms, 'live', 'a', 'merge', { data: { color: 'blue' } });
      await eventually(async () => informer.byIndex('color', 'blue').length === 1, 'MODIFIED');
      assert.deepEqual(informer.byIndex('color', 'red'), []);
      server.api.delete(cms, 'live', 'a');
      await eventually(async () => !informer.store.has('live/a'), 'DELETED');
      assert.deepEqual(seen.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED']);
      assert.equal(seen[1]!.old, created.metadata.resourceVersion);
      assert.deepEqual(informer.byIndex('color', 'blue'), []);
    } finally {
      informer.stop();
      upstream.close();
    }
  });

  it('handles large watch events (parsed in slices, ADR 0026) and small ones written right after them in order', async () => {
    namespace('large');
    const upstream = createUpstream({ yaml: server.kubeconfig });
    const seen: string[] = [];
    const informer = startInformer<KubeObject>({
      upstream,
      labelSelector, listPath: '/api/v1/namespaces/large/configmaps',
      onEvent: (type, obj) => seen.push(`${type} ${obj.metadata.name!} ${String((obj.data as Record<string, string> | undefined)?.v ?? '')}`),
    });
    const big = (v: string): Record<string, string> => {
      const data: Record<string, string> = { v };
      for (let i = 0; i < 9_000; i++) data[`d${i.toString(36)}`] = 'x'.repeat(100);
      return data;
    };
    try {
      await informer.synced();
      // Written back to back: the small events reach the informer while the large one before them is parsed.
      server.api.create(cms, 'large', configMap('big', big('1')));
      server.api.create(cms, 'large', configMap('small', { v: '1' }));
      server.api.update(cms, 'large', 'big', configMap('big', big('2')));
      server.api.patch(cms, 'large', 'small', 'merge', { data: { v: '2' } });
      const last = server.api.patch(cms, 'large', 'big', 'merge', { data: { v: '3' } });
      server.api.delete(cms, 'large', 'small');
      await eventually(async () => seen.length >= 6, 'six events');
      assert.deepEqual(seen, ['ADDED big 1', 'ADDED small 1', 'MODIFIED big 2', 'MODIFIED small 2', 'MODIFIED big 3', 'DELETED small 2']);
      assert.equal(informer.store.get('large/big')?.metadata.resourceVersion, last.metadata.resourceVersion);
      assert.equal(informer.store.has('large/small'), false);
    } finally {
      informer.stop();
      upstream.close();
    }
  });

  it('resumes from the last resourceVersion when the server ends the watch, without relisting', async () => {
    namespace('resume');
    const upstream = recording(createUpstream({ yaml: server.kubeconfig }));
    const informer = startInformer({ upstream, labelSelector, listPath: '/api/v1/namespaces/resume/configmaps', watchTimeoutSeconds: 1 });
    try {
      await informer.synced();
      server.api.create(cms, 'resume', configMap('before'));
      await eventually(async () => informer.store.has('resume/before'), 'first event');
      const rvAfterFirst = informer.lastSyncResourceVersion();
      await eventually(async () => upstream.watches.length >= 2, 'a second watch', { timeoutMs: 10_000 });
      const resumed = new URLSearchParams(upstream.watches[1]!.split('?')[1]);
      assert.equal(resumed.get('resourceVersion'), rvAfterFirst);
      assert.equal(resumed.get('allowWatchBookmarks'), 'true');
      server.api.create(cms, 'resume', configMap('after'));
      await eventually(async () => informer.store.has('resume/after'), 'event on the resumed watch');
      assert.equal(upstream.lists.length, 1, 'no relist');
    } finally {
      informer.stop();
      upstream.close();
    }
  });

  it('relists after 410 Expired and synthesizes DELETED for objects gone meanwhile', async () => {
    namespace('expire');
    server.api.create(cms, 'expire', configMap('stays'));
    server.api.create(cms, 'expire', configMap('goes'));
    const relay = await startTcpRelay(server.port);
    const upstream = recording(createUpstream({ yaml: viaRelay(server.kubeconfig, server.url, relay.port) }));
    const seen: Seen[] = [];
    const informer = startInformer<KubeObject>({
      upstream,
      labelSelector, listPath: '/api/v1/namespaces/expire/configmaps',
      backoff: { initialMs: 50, maxMs: 200 },
      onEvent: (type, obj) => seen.push({ type, name: obj.metadata.name! }),
    });
    try {
      await informer.synced();
      await eventually(async () => upstream.watches.length >= 1, 'watch open');
      relay.cut();
      server.api.delete(cms, 'expire', 'goes');
      server.api.create(cms, 'expire', configMap('new'));
      // More writes than the server's event history keeps (10,000): the informer's resourceVersion is compacted away.
      server.api.create(cms, 'expire', configMap('churn'));
      for (let i = 0; i < 10_050; i++) server.api.patch(cms, 'expire', 'churn', 'merge', { data: { i: String(i) } });
      relay.resume();
      await eventually(async () => upstream.lists.length >= 2 && informer.store.has('expire/new') && !informer.store.has('expire/goes'), 'relist', { timeoutMs: 15_000 });
      assert.deepEqual([...informer.store.keys()].sort(), ['expire/churn', 'expire/new', 'expire/stays']);
      assert.deepEqual(seen.slice(2).map((e) => `${e.type} ${e.name}`).sort(), ['ADDED churn', 'ADDED new', 'DELETED goes']);
    } finally {
      informer.stop();
      upstream.close();
      await relay.close();
    }
  });

  it('request() answers 503 without naming the upstream when it is unreachable, and 504 when it hangs', async () => {
    const relay = await startTcpRelay(server.port);
    const kubeconfig = viaRelay(server.kubeconfig, server.url, relay.port);
    const upstream = createUpstream({ yaml: kubeconfig }, { timeoutMs: 300 });
    try {
      relay.cut();
      const down = await upstream.request('GET', '/api/v1/namespaces').then(() => undefined, (e: unknown) => e);
      assert.equal((down as { code?: number }).code, 503);
      assert.equal((down as Error).message, 'the upstream apiserver is unavailable');
      relay.blackhole();
      const hung = await upstream.request('GET', '/api/v1/namespaces').then(() => undefined, (e: unknown) => e);
      assert.equal((hung as { code?: number }).code, 504);
      assert.doesNotMatch((hung as Error).message, /127\.0\.0\.1|\d{4,5}/);
      const hungStream = await upstream.stream('/api/v1/namespaces?watch=1').then(() => undefined, (e: unknown) => e);
      assert.equal((hungStream as { code?: number }).code, 504);
      relay.resume();
      const ok = await upstream.request<{ kind: string }>('GET', '/api/v1/namespaces');
      assert.equal(ok.status, 200);
      assert.equal(ok.body.kind, 'NamespaceList');
    } finally {
      upstream.close();
      await relay.close();
    }
  });

  it('request() returns non-2xx answers as they are', async () => {
    const upstream = createUpstream({ yaml: server.kubeconfig });
    try {
      const res = await upstream.request<{ reason: string }>('GET', '/api/v1/namespaces/nope/configmaps/nope');
      assert.equal(res.status, 404);
      assert.equal(res.body.reason, 'NotFound');
      const created = await upstream.request<KubeObject>('POST', '/api/v1/namespaces/default/configmaps', configMap('posted', { k: 'v' }));
      assert.equal(created.status, 201);
      assert.equal(created.body.metadata.name, 'posted');
    } finally {
      upstream.close();
    }
  });
});

describe('informer across an upstream restart', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'warren-informer-'));
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps its store through the outage and picks up writes made after the restart', async () => {
    let server = await startApiServer({ port: 0, dataDir });
    const port = server.port;
    const cms = server.api.lookup('', 'v1', 'configmaps')!;
    server.api.create(cms, 'default', configMap('one'));
    const upstream = createUpstream({ yaml: server.kubeconfig });
    const informer = startInformer({ upstream, labelSelector, listPath: '/api/v1/namespaces/default/configmaps', backoff: { initialMs: 50, maxMs: 300 } });
    try {
      await informer.synced();
      assert.ok(informer.store.has('default/one'));
      await server.stop();
      const down = await upstream.request('GET', '/api/v1/namespaces').then(() => undefined, (e: unknown) => e);
      assert.equal((down as { code?: number }).code, 503);
      assert.ok(informer.store.has('default/one'), 'the cache survives the outage');
      server = await startApiServer({ port, dataDir });
      server.api.create(server.api.lookup('', 'v1', 'configmaps')!, 'default', configMap('two'));
      await eventually(async () => informer.store.has('default/two'), 'the write after restart', { timeoutMs: 15_000 });
      assert.ok(informer.store.has('default/one'));
    } finally {
      informer.stop();
      upstream.close();
      await server.stop();
    }
  });
});
