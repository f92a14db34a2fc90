// Session 14 (q1): a tenant's quota cannot be escaped through the pods that
// controllers make. Through a real gateway over TLS, with real kubectl: a
// workload whose containers request nothing of a limited cpu or memory is
// refused in kube's words ("failed quota: ... must specify"), naming the
// container; the pods workloads ask for (replicas, parallelism, a CronJob's Job,
// the scale subresource, a patch) count against objectsPerResource; a DaemonSet
// is refused; nothing refused is written; what fits still works; the other
// tenant, without a quota, is not touched.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { kubectl } from '../../helpers/kubectl.ts';
import type { KubeHttp } from '../../helpers/kube-http.ts';

const NS = 'shop';
const PODS_LIMIT = 12;
const REQUESTS = { requests: { cpu: '10m', memory: '16Mi' } };

const container = (name: string, resources: object | undefined): object => ({ name, image: 'nginx', ...(resources ? { resources } : {}) });
const podSpec = (resources: object | undefined, init?: object | undefined): object =>
  ({ ...(init !== undefined ? { initContainers: [container('setup', init)] } : {}), containers: [container('web', resources)] });
const template = (app: string, spec: object): object => ({ metadata: { labels: { app } }, spec });
const meta = (name: string): object => ({ name, namespace: NS });

const deployment = (name: string, replicas: number, resources: object | undefined = REQUESTS): object => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta(name),
  spec: { replicas, selector: { matchLabels: { app: name } }, template: template(name, podSpec(resources)) },
});
const job = (name: string, parallelism: number): object => ({
  apiVersion: 'batch/v1', kind: 'Job', metadata: meta(name),
  spec: { parallelism, completions: 100, template: { spec: { ...podSpec(REQUESTS), restartPolicy: 'Never' } } },
});
const cronJob = (name: string, parallelism: number, resources: object | undefined = REQUESTS): object => ({
  apiVersion: 'batch/v1', kind: 'CronJob', metadata: meta(name),
  spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { parallelism, template: { spec: { ...podSpec(resources), restartPolicy: 'Never' } } } } },
});
const daemonSet = (name: string): object => ({
  apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: meta(name),
  spec: { selector: { matchLabels: { app: name } }, template: template(name, podSpec(REQUESTS)) },
});

describe('gateway: the quota cannot be escaped through controllers or missing requests', { timeout: 240_000 }, () => {
  let h: GatewayHarness;
  let a: KubeHttp;
  const kc = (args: string[], input?: string) => kubectl('1.33', args, { kubeconfigPath: h.kubeconfigPath('acme', 'admin'), ...(input === undefined ? {} : { input }) });
  const absent = async (path: string): Promise<void> => assert.equal((await a.get(path)).status, 404, `nothing written at ${path}`);

  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    a = h.http('acme', 'admin');
    assert.equal((await a.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status, 201);
    await h.patchTenant('acme', { spec: { quota: { cpu: '8', memory: '16Gi', objectsPerResource: PODS_LIMIT } } }, (info) => info?.quota?.objectsPerResource === PODS_LIMIT);
  });
  after(async () => { await h?.stop(); });

  it('a Deployment of 600 replicas whose container requests nothing is refused in kube\'s words, naming the container; nothing is written', async () => {
    const r = await kc(['create', '-f', '-'], JSON.stringify(deployment('flood', 600, {})));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /\(Forbidden\).*deployments\.apps "flood" is forbidden: failed quota: tenant-quota: must specify requests\.cpu,requests\.memory \(container "web": requests\.cpu,requests\.memory\)/);
    assert.doesNotMatch(r.stderr, new RegExp(`${h.idOf('acme')}-`), 'no upstream prefix');
    await absent(`/apis/apps/v1/namespaces/${NS}/deployments/flood`);
  });

  it('a bare Pod with one request missing, and an init container with none, get a Forbidden Status', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: meta('half'), spec: podSpec({ requests: { cpu: '10m' } }, {}) };
    const r = await a.post(`/api/v1/namespaces/${NS}/pods`, pod);
    assert.equal(r.status, 403, r.text);
    assert.equal(r.body.kind, 'Status');
    assert.equal(r.body.reason, 'Forbidden');
    assert.equal(r.body.message, 'pods "half" is forbidden: failed quota: tenant-quota: must specify requests.cpu,requests.memory (container "setup": requests.cpu,requests.memory; container "web": requests.memory)');
    await absent(`/api/v1/namespaces/${NS}/pods/half`);
  });

  it('a limit stands for the request (kube\'s defaulting); kubectl apply of an ordinary Deployment with requests works', async () => {
    const limited = await kc(['apply', '-f', '-'], JSON.stringify(deployment('limited', 1, { limits: { cpu: '100m', memory: '64Mi' } })));
    assert.equal(limited.code, 0, limited.stderr);
    const web = await kc(['apply', '-f', '-'], JSON.stringify(deployment('web', 3)));
    assert.equal(web.code, 0, web.stderr);
  });

  it('the pods a Deployment asks for count against objectsPerResource: create, scale and patch past it are refused; within it pass', async () => {
    // used: limited 1 + web 3 = 4 pods.
    const big = await kc(['create', '-f', '-'], JSON.stringify(deployment('big', 600)));
    assert.notEqual(big.code, 0);
    assert.match(big.stderr, /deployments\.apps "big" is forbidden: exceeded quota: tenant-quota, requested: count\/pods=600, used: count\/pods=4, limited: count\/pods=12/);
    await absent(`/apis/apps/v1/namespaces/${NS}/deployments/big`);
    const scale = await kc(['scale', '-n', NS, 'deployment/web', '--replicas=20']);
    assert.notEqual(scale.code, 0);
    assert.match(scale.stderr, /exceeded quota: tenant-quota, requested: count\/pods=17, used: count\/pods=4, limited: count\/pods=12/);
    const patch = await kc(['patch', '-n', NS, 'deployment/web', '--type=merge', '-p', '{"spec":{"replicas":50}}']);
    assert.notEqual(patch.code, 0);
    assert.match(patch.stderr, /requested: count\/pods=47/);
    assert.equal((await a.get(`/apis/apps/v1/namespaces/${NS}/deployments/web`)).body.spec.replicas, 3, 'nothing written');
    const within = await kc(['scale', '-n', NS, 'deployment/web', '--replicas=11']);
    assert.equal(within.code, 0, within.stderr);
  });

  it('a Job counts its parallelism and a CronJob one Job of its template; a DaemonSet (one pod per node) is refused', async () => {
    // used: 12 of 12. Scale web down to free 6.
    assert.equal((await kc(['scale', '-n', NS, 'deployment/web', '--replicas=5'])).code, 0);
    const wide = await a.post(`/apis/batch/v1/namespaces/${NS}/jobs`, job('wide', 50));
    assert.equal(wide.status, 403, wide.text);
    assert.equal(wide.body.message, 'jobs.batch "wide" is forbidden: exceeded quota: tenant-quota, requested: count/pods=50, used: count/pods=6, limited: count/pods=12');
    assert.equal((await a.post(`/apis/batch/v1/namespaces/${NS}/jobs`, job('narrow', 2))).status, 201);
    const widen = await kc(['patch', '-n', NS, 'job/narrow', '--type=merge', '-p', '{"spec":{"parallelism":40}}']);
    assert.notEqual(widen.code, 0);
    assert.match(widen.stderr, /jobs\.batch "narrow" is forbidden: exceeded quota: tenant-quota, requested: count\/pods=38/);
    const cron = await a.post(`/apis/batch/v1/namespaces/${NS}/cronjobs`, cronJob('nightly', 30));
    assert.equal(cron.status, 403, cron.text);
    assert.match(cron.body.message, /^cronjobs\.batch "nightly" is forbidden: exceeded quota: tenant-quota, requested: count\/pods=30/);
    const bare = await a.post(`/apis/batch/v1/namespaces/${NS}/cronjobs`, cronJob('bare', 1, {}));
    assert.equal(bare.status, 403, bare.text);
    assert.match(bare.body.message, /failed quota: tenant-quota: must specify requests\.cpu,requests\.memory \(container "web"/);
    assert.equal((await a.post(`/apis/batch/v1/namespaces/${NS}/cronjobs`, cronJob('hourly', 2))).status, 201);
    const ds = await a.post(`/apis/apps/v1/namespaces/${NS}/daemonsets`, daemonSet('agent'));
    assert.equal(ds.status, 403, ds.text);
    assert.match(ds.body.message, /^daemonsets\.apps "agent" is forbidden: failed quota: tenant-quota: a DaemonSet runs one pod on every node/);
    for (const path of [`/apis/batch/v1/namespaces/${NS}/jobs/wide`, `/apis/batch/v1/namespaces/${NS}/cronjobs/nightly`, `/apis/batch/v1/namespaces/${NS}/cronjobs/bare`, `/apis/apps/v1/namespaces/${NS}/daemonsets/agent`]) await absent(path);
  });

  it('with quota.defaultRequest, a container that requests nothing is admitted and counted at the default', async () => {
    // used: web 5 × 10m + limited 100m + narrow 2 × 10m + hourly 2 × 10m = 190m cpu.
    await h.patchTenant('acme', { spec: { quota: { objectsPerResource: 100, defaultRequest: { cpu: '1', memory: '64Mi' } } } }, (info) => info?.quota?.defaultRequest?.cpu === '1');
    const plain = await kc(['create', 'deployment', 'plain', '-n', NS, '--image=nginx']);
    assert.equal(plain.code, 0, plain.stderr);
    const more = await a.post(`/apis/apps/v1/namespaces/${NS}/deployments`, deployment('plain-big', 7, {}));
    assert.equal(more.status, 403, more.text);
    assert.equal(more.body.message, 'deployments.apps "plain-big" is forbidden: exceeded quota: tenant-quota, requested: requests.cpu=7, used: requests.cpu=1190m, limited: requests.cpu=8');
    await absent(`/apis/apps/v1/namespaces/${NS}/deployments/plain-big`);
  });

  it('the other tenant, without a quota, runs what it likes', async () => {
    const g = h.http('globex', 'admin');
    assert.equal((await g.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status, 201);
    assert.equal((await g.post(`/apis/apps/v1/namespaces/${NS}/deployments`, deployment('flood', 600, {}))).status, 201);
    assert.equal((await g.post(`/apis/apps/v1/namespaces/${NS}/daemonsets`, daemonSet('agent'))).status, 201);
  });
});
