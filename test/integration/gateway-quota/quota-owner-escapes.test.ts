// Session 14 (v2), adversarial review of q1: the quota counts a workload's
// template and, before this, skipped every Pod, ReplicaSet and Job whose
// controller reference named a counting kind, trusting that its controller's
// template already counted it. A controller reference is the tenant's to write
// (the owner only has to be one of its own objects), so a tenant ran pods no
// template counted: a Job claimed by a suspended CronJob, a Job with a
// CronJob's controller reference patched wider, bare Pods claimed by a ReplicaSet of 0 replicas.
// Through a real gateway over TLS, with real kubectl 1.27 and 1.33: each is
// refused with kube's "exceeded quota" Forbidden and nothing is written; the
// ordinary `kubectl create job --from=cronjob` within the quota still works;
// the other tenant, without a quota, is not touched.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { kubectl } from '../../helpers/kubectl.ts';
import type { KubeHttp } from '../../helpers/kube-http.ts';

const NS = 'shop';
const PODS_LIMIT = 12;
const REQUESTS = { requests: { cpu: '10m', memory: '16Mi' } };
const podSpec = { containers: [{ name: 'work', image: 'busybox', resources: REQUESTS }], restartPolicy: 'Never' };
const meta = (name: string, owner?: object): object => ({ name, namespace: NS, ...(owner ? { ownerReferences: [owner] } : {}) });
const controllerRef = (apiVersion: string, kind: string, name: string, uid: string): object => ({ apiVersion, kind, name, uid, controller: true });

const suspendedCronJob = (name: string): object => ({
  apiVersion: 'batch/v1', kind: 'CronJob', metadata: meta(name),
  spec: { schedule: '0 0 1 1 *', suspend: true, jobTemplate: { spec: { completions: 1000, template: { spec: podSpec } } } },
});
const job = (name: string, parallelism: number, owner?: object): object => ({
  apiVersion: 'batch/v1', kind: 'Job', metadata: meta(name, owner), spec: { parallelism, completions: 1000, template: { spec: podSpec } },
});
const replicaSet = (name: string, replicas: number): object => ({
  apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: meta(name),
  spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: podSpec.containers } } },
});
const pod = (name: string, owner: object): object => ({ apiVersion: 'v1', kind: 'Pod', metadata: meta(name, owner), spec: { containers: podSpec.containers } });

describe('gateway: a controller reference does not make pods free', { timeout: 300_000 }, () => {
  let h: GatewayHarness;
  let a: KubeHttp;
  const kc = (version: '1.27' | '1.33', args: string[]) => kubectl(version, args, { kubeconfigPath: h.kubeconfigPath('acme', 'admin') });
  const absent = async (path: string): Promise<void> => assert.equal((await a.get(path)).status, 404, `nothing written at ${path}`);
  const uidOf = async (path: string): Promise<string> => {
    const r = await a.get(path);
    assert.equal(r.status, 200, r.text);
    return r.body.metadata.uid as string;
  };

  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    a = h.http('acme', 'admin');
    assert.equal((await a.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status, 201);
    await h.patchTenant('acme', { spec: { quota: { cpu: '8', memory: '16Gi', objectsPerResource: PODS_LIMIT } } }, (info) => info?.quota?.objectsPerResource === PODS_LIMIT);
  });
  after(async () => { await h?.stop(); });

  it('a Job of 500 pods claimed by a suspended CronJob is refused in kube\'s words; nothing is written', async () => {
    assert.equal((await a.post(`/apis/batch/v1/namespaces/${NS}/cronjobs`, suspendedCronJob('holder'))).status, 201);
    const uid = await uidOf(`/apis/batch/v1/namespaces/${NS}/cronjobs/holder`);
    const r = await a.post(`/apis/batch/v1/namespaces/${NS}/jobs`, job('stowaway', 500, controllerRef('batch/v1', 'CronJob', 'holder', uid)));
    assert.equal(r.status, 403, r.text);
    assert.equal(r.body.kind, 'Status');
    assert.equal(r.body.reason, 'Forbidden');
    assert.equal(r.body.message, 'jobs.batch "stowaway" is forbidden: exceeded quota: tenant-quota, requested: count/pods=500, used: count/pods=0, limited: count/pods=12');
    await absent(`/apis/batch/v1/namespaces/${NS}/jobs/stowaway`);
  });

  it('kubectl 1.27 create job --from=cronjob within the quota works and counts; a claimed Job widened past it (kubectl 1.33 patch) is refused', async () => {
    const made = await kc('1.27', ['create', 'job', 'manual', '-n', NS, '--from=cronjob/holder']);
    assert.equal(made.code, 0, made.stderr);
    const uid = await uidOf(`/apis/batch/v1/namespaces/${NS}/cronjobs/holder`);
    assert.equal((await a.post(`/apis/batch/v1/namespaces/${NS}/jobs`, job('claimed', 1, controllerRef('batch/v1', 'CronJob', 'holder', uid)))).status, 201);
    const widen = await kc('1.33', ['patch', '-n', NS, 'job/claimed', '--type=merge', '-p', '{"spec":{"parallelism":400}}']);
    assert.notEqual(widen.code, 0, 'widening a Job its CronJob controls is counted');
    assert.match(widen.stderr, /\(Forbidden\).*jobs\.batch "claimed" is forbidden: exceeded quota: tenant-quota, requested: count\/pods=399, used: count\/pods=2, limited: count\/pods=12/);
    assert.doesNotMatch(widen.stderr, new RegExp(`${h.idOf('acme')}-`), 'no upstream prefix');
    assert.equal((await a.get(`/apis/batch/v1/namespaces/${NS}/jobs/claimed`)).body.spec.parallelism, 1, 'nothing written');
  });

  it('bare Pods claimed by a ReplicaSet of 0 replicas count: the one past objectsPerResource is refused', async () => {
    assert.equal((await a.post(`/apis/apps/v1/namespaces/${NS}/replicasets`, replicaSet('empty', 0))).status, 201);
    const uid = await uidOf(`/apis/apps/v1/namespaces/${NS}/replicasets/empty`);
    const ref = controllerRef('apps/v1', 'ReplicaSet', 'empty', uid);
    // used: the Jobs "manual" and "claimed" (1 pod each).
    for (let i = 0; i < PODS_LIMIT - 2; i++) {
      const r = await a.post(`/api/v1/namespaces/${NS}/pods`, pod(`claimed-${i}`, ref));
      assert.equal(r.status, 201, `pod ${i} fits: ${r.text}`);
    }
    const over = await a.post(`/api/v1/namespaces/${NS}/pods`, pod('claimed-over', ref));
    assert.equal(over.status, 403, over.text);
    assert.equal(over.body.message, 'pods "claimed-over" is forbidden: exceeded quota: tenant-quota, requested: count/pods=1, used: count/pods=12, limited: count/pods=12');
    await absent(`/api/v1/namespaces/${NS}/pods/claimed-over`);
  });

  it('the status the quota reads is not the tenant\'s to write under a quota: a Pod marked Succeeded, a Job marked Complete (kube\'s admin role cannot either)', async () => {
    const succeeded = await a.patch(`/api/v1/namespaces/${NS}/pods/claimed-0/status`, 'application/merge-patch+json', { status: { phase: 'Succeeded' } });
    assert.equal(succeeded.status, 403, succeeded.text);
    assert.equal(succeeded.body.reason, 'Forbidden');
    assert.equal(succeeded.body.message, 'pods "claimed-0" is forbidden: failed quota: tenant-quota: the status of pods is the cluster\'s to write, and the quota counts by it');
    assert.equal((await a.get(`/api/v1/namespaces/${NS}/pods/claimed-0`)).body.status?.phase, 'Pending', 'nothing written');
    const complete = await a.patch(`/apis/batch/v1/namespaces/${NS}/jobs/claimed/status`, 'application/merge-patch+json', { status: { conditions: [{ type: 'Complete', status: 'True' }] } });
    assert.equal(complete.status, 403, complete.text);
    assert.match(complete.body.message, /^jobs\.batch "claimed" is forbidden: failed quota: tenant-quota: the status of jobs/);
    assert.equal((await kc('1.33', ['get', 'pod', 'claimed-0', '-n', NS, '-o', 'name'])).code, 0, 'reads still work');
  });

  it('the other tenant, without a quota, runs the same Job', async () => {
    const g = h.http('globex', 'admin');
    assert.equal((await g.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status, 201);
    assert.equal((await g.post(`/apis/batch/v1/namespaces/${NS}/cronjobs`, suspendedCronJob('holder'))).status, 201);
    const uid = (await g.get(`/apis/batch/v1/namespaces/${NS}/cronjobs/holder`)).body.metadata.uid as string;
    const r = await g.post(`/apis/batch/v1/namespaces/${NS}/jobs`, job('stowaway', 500, controllerRef('batch/v1', 'CronJob', 'holder', uid)));
    assert.equal(r.status, 201, r.text);
    const status = await g.patch(`/apis/batch/v1/namespaces/${NS}/jobs/stowaway/status`, 'application/merge-patch+json', { status: { conditions: [{ type: 'Complete', status: 'True' }] } });
    assert.equal(status.status, 200, status.text);
  });
});
