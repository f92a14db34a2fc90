// Upstream error text through `warren serve` on a real kube-apiserver 1.20
// (issue 13): real 1.20's PUT with another uid answers 409 whose message holds
// the etcd storage key with the UPSTREAM namespace
// (`StorageError: invalid object, Code: 4, Key: /registry/configmaps/<id>-shop/x, ...`).
// The tenant must get kube's 409 without the key, the prefix or any host layout.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { KubeHttp } from '../helpers/kube-http.ts';
import { realKubeSkipReason, startRealWarren, type RealWarren } from '../helpers/real-warren.ts';

const skip = realKubeSkipReason();

describe('upstream messages in tenant terms on a real kube-apiserver 1.20', { timeout: 600_000, ...(skip ? { skip } : {}) }, () => {
  let w: RealWarren | undefined;
  let acme: KubeHttp;
  let ids: string[] = [];
  before(async () => {
    w = await startRealWarren({ controllerManager: false });
    acme = new KubeHttp(readFileSync(await w.kubeconfigOf('acme'), 'utf8'));
    ids = [await w.tenantId('acme'), await w.tenantId('globex')];
  });
  after(async () => { await w?.stop(); });

  it('a PUT with another uid: 409 Conflict, no storage key, no prefix', async () => {
    assert.equal((await acme.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } })).status, 201);
    const made = await acme.post('/api/v1/namespaces/shop/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: '1' } });
    assert.equal(made.status, 201, made.text);
    const put = await acme.put('/api/v1/namespaces/shop/configmaps/x', {
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', uid: '00000000-0000-0000-0000-000000000001' }, data: { a: '2' },
    });
    process.stderr.write(`real 1.20 uid-409 through the gateway: ${put.text}\n`);
    assert.equal(put.status, 409, put.text);
    assert.equal(put.body.reason, 'Conflict');
    assert.match(put.body.message, /^Operation cannot be fulfilled on configmaps "x"/);
    assert.doesNotMatch(put.text, /\/registry|Key: \//, 'no storage key');
    for (const id of ids) assert.ok(!put.text.includes(`${id}-`), `no prefix ${id}- in ${put.text}`);
    const direct = await w!.hostHttp.put(`/api/v1/namespaces/${ids[0]}-shop/configmaps/x`, {
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: `${ids[0]}-shop`, uid: '00000000-0000-0000-0000-000000000001' }, data: { a: '2' },
    });
    process.stderr.write(`real 1.20 uid-409 straight from the host: ${direct.text}\n`);
    assert.match(direct.text, /Key: \/registry\/configmaps\//, 'the host itself names the key: the case this test is about still exists');
  });
});
