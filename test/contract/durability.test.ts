// Durability of the embedded server's data dir: objects written before a
// SIGKILL are there after a restart. Warren-only, so skipped against a real server.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXTERNAL_KUBECONFIG } from '../helpers/contract-server.ts';
import { startWarrenApiserver, type WarrenProcess } from '../helpers/warren-process.ts';
import { testNamespaces } from '../helpers/test-namespace.ts';
import { configMap, deployment } from '../fixtures/objects.ts';

describe('durability', { skip: EXTERNAL_KUBECONFIG ? 'needs a data dir of its own' : false, timeout: 120_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'warren-durable-'));
  let proc: WarrenProcess | undefined;
  after(async () => {
    await proc?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes acknowledged before SIGKILL survive a restart on the same data dir', async () => {
    proc = await startWarrenApiserver(dataDir);
    const ns = await testNamespaces(proc.http).create('dur');
    const cm = (await proc.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('kept', { a: '1' }))).body;
    const dep = (await proc.http.post(`/apis/apps/v1/namespaces/${ns}/deployments`, deployment('kept'))).body;
    const upd = (await proc.http.put(`/api/v1/namespaces/${ns}/configmaps/kept`, { ...cm, data: { a: '2' } })).body;
    assert.equal((await proc.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('gone'))).status, 201);
    assert.equal((await proc.http.delete(`/api/v1/namespaces/${ns}/configmaps/gone`)).status, 200);
    const port = proc.port;
    await proc.kill('SIGKILL');

    proc = await startWarrenApiserver(dataDir, { port });
    const back = await proc.http.get(`/api/v1/namespaces/${ns}/configmaps/kept`);
    assert.equal(back.status, 200);
    assert.deepEqual(back.body.data, { a: '2' });
    assert.equal(back.body.metadata.uid, cm.metadata.uid);
    assert.equal(back.body.metadata.resourceVersion, upd.metadata.resourceVersion);
    const d = await proc.http.get(`/apis/apps/v1/namespaces/${ns}/deployments/kept`);
    assert.equal(d.body.metadata.uid, dep.metadata.uid);
    assert.equal((await proc.http.get(`/api/v1/namespaces/${ns}/configmaps/gone`)).status, 404);
    assert.equal((await proc.http.get(`/api/v1/namespaces/${ns}`)).status, 200);
    // resourceVersions keep increasing after the restart.
    const next = await proc.http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('after'));
    assert.ok(Number(next.body.metadata.resourceVersion) > Number(upd.metadata.resourceVersion));
  });
});
