// Tenant-wide cpu/memory/storage quota (Tenant.spec.quota.{cpu,memory,storage})
// through a real gateway and real kubectl: refusals in kube's ResourceQuota
// words with nothing written, scale checked, deletes free quota, concurrent
// creates cannot overshoot, and a tenant's own ResourceQuota still works.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { kubectl } from '../../helpers/kubectl.ts';
import type { KubeHttp } from '../../helpers/kube-http.ts';

const NS = 'shop';

function deployment(name: string, replicas: number, cpu: string): object {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: NS },
    spec: {
      replicas, selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu, memory: '64Mi' } } }] } },
    },
  };
}

function pod(name: string, resources: object): object {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: NS }, spec: { containers: [{ name: 'c', image: 'nginx', resources }] } };
}

function pvc(name: string, storage: string): object {
  return { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: NS }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } };
}

describe('gateway: tenant-wide cpu, memory and storage quota', { timeout: 180_000 }, () => {
  let h: GatewayHarness;
  let a: KubeHttp;
  const kc = (args: string[], input?: string) => kubectl('1.33', args, { kubeconfigPath: h.kubeconfigPath('acme', 'admin'), ...(input === undefined ? {} : { input }) });

  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    a = h.http('acme', 'admin');
    assert.equal((await a.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status, 201);
    await h.patchTenant('acme', { spec: { quota: { cpu: '2', memory: '1Gi', storage: '10Gi' } } }, (info) => info?.quota?.cpu === '2');
  });
  after(async () => { await h?.stop(); });

  it('a create under quota passes; over quota it is refused 403 in kube\'s words and nothing is written', async () => {
    const ok = await kc(['apply', '-f', '-'], JSON.stringify(deployment('web', 2, '500m')));
    assert.equal(ok.code, 0, ok.stderr);
    const over = await kc(['create', '-f', '-'], JSON.stringify(deployment('big', 3, '500m')));
    assert.notEqual(over.code, 0);
    assert.match(over.stderr, /\(Forbidden\).*deployments\.apps "big" is forbidden: exceeded quota: tenant-quota, requested: requests\.cpu=1500m, used: requests\.cpu=1, limited: requests\.cpu=2/);
    assert.doesNotMatch(over.stderr, new RegExp(`${h.idOf('acme')}-`), 'no tenant prefix in the message');
    assert.equal((await a.get(`/apis/apps/v1/namespaces/${NS}/deployments/big`)).status, 404, 'nothing written');
  });

  it('the raw answer is a Forbidden Status', async () => {
    const r = await a.post(`/api/v1/namespaces/${NS}/pods`, pod('huge', { requests: { cpu: '4' } }));
    assert.equal(r.status, 403, r.text);
    assert.equal(r.body.reason, 'Forbidden');
    assert.equal(r.body.message, 'pods "huge" is forbidden: exceeded quota: tenant-quota, requested: requests.cpu=4, used: requests.cpu=1, limited: requests.cpu=2');
  });

  it('scale (kubectl scale, and a patch of spec.replicas) over quota is refused; up to the limit and down pass', async () => {
    const over = await kc(['scale', '-n', NS, 'deployment/web', '--replicas=5']);
    assert.notEqual(over.code, 0);
    assert.match(over.stderr, /exceeded quota: tenant-quota, requested: requests\.cpu=1500m, used: requests\.cpu=1, limited: requests\.cpu=2/);
    const patched = await kc(['patch', '-n', NS, 'deployment/web', '-p', '{"spec":{"replicas":6}}']);
    assert.notEqual(patched.code, 0);
    assert.match(patched.stderr, /requested: requests\.cpu=2, used: requests\.cpu=1, limited: requests\.cpu=2/);
    const scale = await a.get(`/apis/apps/v1/namespaces/${NS}/deployments/web/scale`);
    assert.equal(scale.body.spec.replicas, 2, 'nothing written');
    assert.equal((await kc(['scale', '-n', NS, 'deployment/web', '--replicas=4'])).code, 0, 'exactly the limit is allowed');
    assert.equal((await kc(['scale', '-n', NS, 'deployment/web', '--replicas=1'])).code, 0);
  });

  it('a container with limits and no requests counts its limits', async () => {
    // used 500m: a pod limited to 2 cpu asks for 2 (kube defaults requests to limits).
    const r = await a.post(`/api/v1/namespaces/${NS}/pods`, pod('limited', { limits: { cpu: '2' } }));
    assert.equal(r.status, 403, r.text);
    assert.match(r.body.message, /requested: requests\.cpu=2, used: requests\.cpu=500m, limited: requests\.cpu=2$/);
  });

  it('memory and storage are limited too, printed in the limit\'s format', async () => {
    const mem = await a.post(`/api/v1/namespaces/${NS}/pods`, pod('fat', { requests: { memory: '1Gi' } }));
    assert.equal(mem.status, 403, mem.text);
    assert.match(mem.body.message, /requested: requests\.memory=1Gi, used: requests\.memory=64Mi, limited: requests\.memory=1Gi$/);
    assert.equal((await a.post(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, pvc('data', '8Gi'))).status, 201);
    const disk = await a.post(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, pvc('more', '4Gi'));
    assert.equal(disk.status, 403, disk.text);
    assert.equal(disk.body.message, 'persistentvolumeclaims "more" is forbidden: exceeded quota: tenant-quota, requested: requests.storage=4Gi, used: requests.storage=8Gi, limited: requests.storage=10Gi');
  });

  it('deleting frees quota at once', async () => {
    const refused = await a.post(`/api/v1/namespaces/${NS}/pods`, pod('p1', { requests: { cpu: '2' } }));
    assert.equal(refused.status, 403, refused.text);
    const del = await kc(['delete', '-n', NS, 'deployment/web']);
    assert.equal(del.code, 0, del.stderr);
    const ok = await a.post(`/api/v1/namespaces/${NS}/pods`, pod('p1', { requests: { cpu: '2' } }));
    assert.equal(ok.status, 201, ok.text);
    assert.equal((await a.delete(`/api/v1/namespaces/${NS}/pods/p1`)).status, 200);
  });

  it('concurrent creates cannot together overshoot', async () => {
    // Nothing uses cpu now: eight creates of 500m race for 2 cpu; exactly four may win.
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => a.post(`/api/v1/namespaces/${NS}/pods`, pod(`race-${i}`, { requests: { cpu: '500m' } }))));
    const codes = answers.map((r) => r.status).sort();
    assert.deepEqual(codes, [201, 201, 201, 201, 403, 403, 403, 403], answers.map((r) => r.text).join('\n'));
    const pods = (await a.get(`/api/v1/namespaces/${NS}/pods`)).body.items as Array<{ metadata: { name: string } }>;
    assert.equal(pods.filter((p) => p.metadata.name.startsWith('race-')).length, 4);
  });

  it('the other tenant has no such limit', async () => {
    const g = h.http('globex', 'admin');
    assert.equal((await g.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status, 201);
    assert.equal((await g.post(`/api/v1/namespaces/${NS}/pods`, pod('huge', { requests: { cpu: '64' } }))).status, 201);
  });

  it('a ResourceQuota the tenant creates in its own namespace still works, in tenant terms', async () => {
    const g = h.http('globex', 'admin');
    const rq = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'small', namespace: NS }, spec: { hard: { pods: '1' } } };
    assert.equal((await g.post(`/api/v1/namespaces/${NS}/resourcequotas`, rq)).status, 201);
    const second = await g.post(`/api/v1/namespaces/${NS}/pods`, pod('two', {}));
    assert.equal(second.status, 403, second.text);
    assert.match(second.body.message, /^pods "two" is forbidden: exceeded quota: small, requested: pods=1, used: pods=1, limited: pods=1$/);
    assert.doesNotMatch(second.text, new RegExp(`${h.idOf('globex')}-`));
  });
});
