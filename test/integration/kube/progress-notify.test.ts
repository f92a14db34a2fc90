// Warren's prompt-progress extension, end to end over TLS: an informer that asks
// for progress bookmarks (x-warren-progress-notify) learns that the embedded
// apiserver honours it, and after any request carrying x-warren-progress-request
// is answered, the informer's version reaches the apiserver's current one even
// though the writes that moved it were to another resource. Without either
// header nothing changes: plain watches get no extra bookmarks.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer, type RunningApiServer } from '../../../src/apiserver/server.ts';
import { createUpstream } from '../../../src/kube/upstream-client.ts';
import { startInformer, type Informer } from '../../../src/kube/informer.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';
import type { KubeObject } from '../../../src/core/types.ts';
import { PROGRESS_REQUEST_HEADER } from '../../../src/core/progress-headers.ts';
import { eventually } from '../../helpers/poll.ts';

describe('prompt progress bookmarks (embedded apiserver + informer)', { timeout: 60_000 }, () => {
  let api: RunningApiServer;
  let upstream: Upstream;
  const informers: Informer<KubeObject>[] = [];
  before(async () => {
    api = await startApiServer({ port: 0 });
    upstream = createUpstream({ yaml: api.kubeconfig });
  });
  after(async () => {
    for (const informer of informers) informer.stop();
    upstream?.close();
    await api?.stop();
  });

  const watchSecrets = async (progressNotify: boolean): Promise<{ informer: Informer<KubeObject>; bookmarks: () => number }> => {
    let bookmarks = 0;
    const informer = startInformer<KubeObject>({ upstream, listPath: '/api/v1/secrets', progressNotify, onProgress: () => { bookmarks++; } });
    informers.push(informer);
    await informer.synced();
    // The watch opens just after the LIST: wait for its answer's headers.
    if (progressNotify) await eventually(async () => informer.notifiesProgress(), 'the watch to be answered with the echo header', { timeoutMs: 5_000, intervalMs: 10 });
    return { informer, bookmarks: () => bookmarks };
  };
  const writeConfigMap = async (name: string): Promise<number> => {
    const res = await upstream.request<KubeObject>('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
    assert.equal(res.status, 201);
    return Number(res.body.metadata.resourceVersion);
  };

  it('a requested bookmark brings the informer to the current version after writes to another resource', async () => {
    const { informer, bookmarks } = await watchSecrets(true);
    assert.equal(informer.notifiesProgress(), true);
    const before = Number(informer.lastSyncResourceVersion());
    const written = await writeConfigMap('moves-the-version');
    assert.ok(written > before);
    // No secrets event can carry the informer there; a plain read does not ask for progress either.
    assert.equal((await upstream.request('GET', '/api/v1/namespaces/default/configmaps?limit=1')).status, 200);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(Number(informer.lastSyncResourceVersion()), before, 'no bookmark without a progress request');
    const probe = await upstream.request<{ metadata: { resourceVersion: string } }>('GET', '/api/v1/secrets?limit=1', undefined, { [PROGRESS_REQUEST_HEADER]: 'true' });
    assert.equal(probe.status, 200);
    const latest = Number(probe.body.metadata.resourceVersion);
    assert.ok(latest >= written);
    await eventually(async () => Number(informer.lastSyncResourceVersion()) >= latest, 'the bookmark at the probed version', { timeoutMs: 2_000, intervalMs: 5 });
    assert.ok(bookmarks() >= 1);
  });

  it('a watch that did not ask gets neither the echo nor requested bookmarks', async () => {
    const { informer, bookmarks } = await watchSecrets(false);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(informer.notifiesProgress(), false);
    const before = Number(informer.lastSyncResourceVersion());
    await writeConfigMap('moves-it-again');
    assert.equal((await upstream.request('GET', '/api/v1/secrets?limit=1', undefined, { [PROGRESS_REQUEST_HEADER]: 'true' })).status, 200);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(Number(informer.lastSyncResourceVersion()), before);
    assert.equal(bookmarks(), 0);
  });

  it('a bookmark is sent only when the watch is behind: nothing new, no bookmark', async () => {
    const { informer, bookmarks } = await watchSecrets(true);
    const probe = async (): Promise<void> => {
      assert.equal((await upstream.request('GET', '/api/v1/secrets?limit=1', undefined, { [PROGRESS_REQUEST_HEADER]: 'true' })).status, 200);
    };
    await writeConfigMap('behind-once');
    await probe();
    await eventually(async () => bookmarks() === 1, 'one bookmark', { timeoutMs: 2_000, intervalMs: 5 });
    const at = informer.lastSyncResourceVersion();
    await probe();
    await probe();
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(bookmarks(), 1, 'already current: no further bookmark');
    assert.equal(informer.lastSyncResourceVersion(), at);
  });
});
