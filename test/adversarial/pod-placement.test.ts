// Boundary: where a tenant's pods may run (session 14, p1, ADR 0043). Taints
// keep pods off the control plane and off nodes the platform dedicates to
// someone; a pod passes a taint only by tolerating it. Session 13's red team
// put `tolerations: [{operator: Exists}]` (or the master taint's key) with a
// hostname nodeSelector on a pod, a workload template, a patch, an apply and
// `kubectl run --overrides`, and an OverridePolicy put it on a member copy.
//  - globex (no placement configured: the safe default) tolerates no taint
//    but kube's own not-ready/unreachable NoExecute: every other toleration is
//    refused in globex's terms, on every kind and write path, with kubectl,
//    client-node and raw HTTPS; nothing is stored on the host;
//  - initech (a Tenant with spec.placement: a forced node selector and one
//    allowed toleration) gets the selector merged into every pod spec it
//    writes (its pods land on its node on the host), may use its toleration,
//    and is refused a selector value other than its own;
//  - an override cannot put the master toleration on member2's copy;
//  - kube's own tolerations on a stored pod keep a PUT working;
//  - a Cluster read by a tenant shows neither the member's endpoint nor the
//    resources every tenant's pods hold there.
// Judged on the host and on member2 directly, never only by the gateway's answer.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { ApiException, AppsV1Api, CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { KubeObject } from '../../src/core/types.ts';
import { PATCH } from '../helpers/kube-http.ts';
import { eventually } from '../helpers/poll.ts';
import { useAdversaryEnv } from './support/adversary-env.ts';
import { assertRefused, consistently } from './support/verdicts.ts';
import { dedicateNodeTo } from './support/dedicated-tenant.ts';
import { storedAt } from './support/host-snapshot.ts';
import { BINDING_API, appliedMessageOf } from './support/engine-attack.ts';

type Obj = Record<string, unknown>;
const RESTRICTED = { allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } };
const EVERYTHING = [{ operator: 'Exists' }];
const MASTER = [{ key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' }];
const podSpec = (extra: Obj = {}): Obj => ({ ...extra, containers: [{ name: 'c', image: 'nginx', securityContext: RESTRICTED }] });
const pod = (name: string, extra: Obj = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'app' }, spec: podSpec(extra) } as KubeObject);
const template = (name: string, extra: Obj): Obj => ({ metadata: { labels: { app: name } }, spec: podSpec(extra) });
const deployment = (name: string, extra: Obj = {}): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'app' },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: template(name, extra) },
} as KubeObject);
const specOf = (obj: KubeObject | undefined): Obj | undefined => obj?.spec as Obj | undefined;
const templateSpecOf = (obj: KubeObject | undefined): Obj | undefined => ((obj?.spec as Obj | undefined)?.template as Obj | undefined)?.spec as Obj | undefined;

describe('adversarial: a tenant pod tolerates only what its placement contract allows', { timeout: 400_000 }, () => {
  const env = useAdversaryEnv('pod-placement');
  let acmeId = '';
  let globexId = '';
  let initechId = '';
  let node = '';
  let initechKubeconfig = '';
  const globex = () => env.http('globex');
  const onHost = (path: string): Promise<KubeObject | undefined> => storedAt(env.host(), path);

  before(async () => {
    acmeId = env.idOf('acme');
    globexId = env.idOf('globex');
    await env.as('globex')('create', 'namespace', 'app');
    // initech: the platform dedicates the host's first node to it.
    ({ node, id: initechId, kubeconfig: initechKubeconfig } = await dedicateNodeTo(env, 'initech', 'ian', { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'initech', effect: 'NoSchedule' }] }));
  });

  it('with nothing configured, every kind and write path that tolerates a platform taint is refused, and nothing is stored', async () => {
    const ids = [acmeId, globexId];
    const refused = (res: Parameters<typeof assertRefused>[0], what: string): void => {
      assertRefused(res, 403, what, ids);
      assert.match(res.text, /tolerations: .* is not allowed: this tenant may tolerate only the taints its platform allows/, `${what}: says why`);
    };
    const hostname = { 'kubernetes.io/hostname': node };
    refused(await globex().post('/api/v1/namespaces/app/pods', pod('squat', { tolerations: EVERYTHING, nodeSelector: hostname })), 'Pod tolerating everything on a named node');
    refused(await globex().post('/api/v1/namespaces/app/pods', pod('master', { tolerations: MASTER, nodeSelector: { 'node-role.kubernetes.io/master': '' } })), 'Pod tolerating the master taint');
    refused(await globex().post('/api/v1/namespaces/app/pods', pod('cp', { tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' }] })), 'Pod tolerating the control-plane taint');
    refused(await globex().post('/api/v1/namespaces/app/pods', pod('ded', { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'initech', effect: 'NoSchedule' }] })), 'Pod tolerating another tenant\'s dedication');
    const bare = { metadata: { name: 'bare', namespace: 'app' }, spec: podSpec({ tolerations: EVERYTHING }) };
    assert.notEqual((await globex().post('/api/v1/namespaces/app/pods', bare)).status, 201, 'a kind-less Pod tolerating everything');
    const withTemplate = (kind: string, apiVersion: string, extra: Obj = {}): Obj => ({ apiVersion, kind, metadata: { name: kind.toLowerCase(), namespace: 'app' }, spec: { selector: { matchLabels: { app: 'x' } }, template: template('x', { tolerations: MASTER }), ...extra } });
    const writes: Array<[string, Obj]> = [
      ['/apis/apps/v1/namespaces/app/deployments', deployment('squat', { tolerations: EVERYTHING, nodeSelector: hostname }) as Obj],
      ['/apis/apps/v1/namespaces/app/daemonsets', withTemplate('DaemonSet', 'apps/v1')],
      ['/apis/apps/v1/namespaces/app/replicasets', withTemplate('ReplicaSet', 'apps/v1')],
      ['/apis/apps/v1/namespaces/app/statefulsets', withTemplate('StatefulSet', 'apps/v1', { serviceName: 'x' })],
      ['/api/v1/namespaces/app/replicationcontrollers', { ...withTemplate('ReplicationController', 'v1'), spec: { selector: { app: 'x' }, template: template('x', { tolerations: MASTER }) } }],
      ['/apis/batch/v1/namespaces/app/jobs', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'job', namespace: 'app' }, spec: { template: { spec: { ...podSpec({ tolerations: MASTER }), restartPolicy: 'Never' } } } }],
      ['/apis/batch/v1beta1/namespaces/app/cronjobs', { apiVersion: 'batch/v1beta1', kind: 'CronJob', metadata: { name: 'tick', namespace: 'app' }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { ...podSpec({ tolerations: MASTER }), restartPolicy: 'Never' } } } } } }],
      ['/api/v1/namespaces/app/podtemplates', { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'tpl', namespace: 'app' }, template: template('tpl', { tolerations: EVERYTHING }) }],
      // A StatefulSet makes the pods of its status.currentRevision from that revision's template.
      ['/apis/apps/v1/namespaces/app/controllerrevisions', { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'rev', namespace: 'app', labels: { app: 'x' } }, revision: 1, data: { spec: { template: { ...template('x', { tolerations: MASTER }), $patch: 'replace' } } } }],
    ];
    for (const [path, body] of writes) refused(await globex().post(path, body), `${String(body.kind)} template with a platform toleration`);

    // Every write path on a Deployment stored without one.
    assert.equal((await globex().post('/apis/apps/v1/namespaces/app/deployments', deployment('plain'))).status, 201);
    const plainPath = '/apis/apps/v1/namespaces/app/deployments/plain';
    const current = (await globex().get(plainPath)).body as KubeObject;
    const replaced = structuredClone(current) as unknown as { spec: { template: { spec: Obj } } };
    replaced.spec.template.spec.tolerations = EVERYTHING;
    refused(await globex().put(plainPath, replaced), 'PUT adding a toleration');
    refused(await globex().patch(plainPath, PATCH.merge, { spec: { template: { spec: { tolerations: MASTER } } } }), 'merge patch');
    refused(await globex().patch(plainPath, PATCH.strategic, { spec: { template: { spec: { tolerations: EVERYTHING } } } }), 'strategic merge patch');
    refused(await globex().patch(plainPath, PATCH.json, [{ op: 'add', path: '/spec/template/spec/tolerations', value: EVERYTHING }]), 'JSON patch');
    refused(await globex().patch('/apis/apps/v1/namespaces/app/deployments/applied?fieldManager=hank', PATCH.apply, JSON.stringify(deployment('applied', { tolerations: MASTER }))), 'server-side apply (create)');
    refused(await globex().patch(`${plainPath}?fieldManager=hank`, PATCH.apply, JSON.stringify(deployment('plain', { tolerations: EVERYTHING }))), 'server-side apply (update)');
    const run = await env.run('globex', 'run', 'squat2', '-n', 'app', '--image=nginx', `--overrides={"spec":{"tolerations":[{"operator":"Exists"}],"nodeSelector":{"kubernetes.io/hostname":"${node}"}}}`);
    assert.notEqual(run.code, 0, `kubectl run with a toleration: ${run.stdout}`);
    assert.match(run.stderr, /is not allowed: this tenant may tolerate only/, run.stderr);

    // client-node, as an operator written against the Kubernetes API would send it.
    const kc = new KubeConfig();
    kc.loadFromFile(env.kubeconfigPath('globex'));
    const core = kc.makeApiClient(CoreV1Api);
    const apps = kc.makeApiClient(AppsV1Api);
    const clientRefused = async (what: string, call: () => Promise<unknown>): Promise<void> => {
      const err = await call().then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof ApiException, `${what}: ${String(err)}`);
      assert.equal(err.code, 403, `${what}: ${String(err.body)}`);
      assert.match(String(err.body), /is not allowed: this tenant may tolerate only/, what);
      assert.ok(!String(err.body).includes(`${globexId}-`), `${what}: in globex's terms`);
    };
    await clientRefused('client-node create Pod', () => core.createNamespacedPod({ namespace: 'app', body: pod('cn', { tolerations: EVERYTHING, nodeSelector: hostname }) as never }));
    await clientRefused('client-node merge patch', () => apps.patchNamespacedDeployment({ name: 'plain', namespace: 'app', body: { spec: { template: { spec: { tolerations: MASTER } } } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch)));

    for (const path of [
      `/api/v1/namespaces/${globexId}-app/pods/squat`, `/api/v1/namespaces/${globexId}-app/pods/master`, `/api/v1/namespaces/${globexId}-app/pods/cp`,
      `/api/v1/namespaces/${globexId}-app/pods/ded`, `/api/v1/namespaces/${globexId}-app/pods/bare`, `/api/v1/namespaces/${globexId}-app/pods/squat2`, `/api/v1/namespaces/${globexId}-app/pods/cn`,
      `/apis/apps/v1/namespaces/${globexId}-app/deployments/squat`, `/apis/apps/v1/namespaces/${globexId}-app/deployments/applied`,
      `/apis/apps/v1/namespaces/${globexId}-app/daemonsets/daemonset`, `/apis/apps/v1/namespaces/${globexId}-app/replicasets/replicaset`,
      `/apis/apps/v1/namespaces/${globexId}-app/statefulsets/statefulset`, `/api/v1/namespaces/${globexId}-app/replicationcontrollers/replicationcontroller`,
      `/apis/batch/v1/namespaces/${globexId}-app/jobs/job`, `/apis/apps/v1/namespaces/${globexId}-app/controllerrevisions/rev`, `/apis/batch/v1beta1/namespaces/${globexId}-app/cronjobs/tick`, `/api/v1/namespaces/${globexId}-app/podtemplates/tpl`,
    ]) assert.equal(await onHost(path), undefined, `nothing stored at ${path}`);
    const plain = await onHost(`/apis/apps/v1/namespaces/${globexId}-app/deployments/plain`);
    assert.equal(templateSpecOf(plain)?.tolerations, undefined, 'plain tolerates nothing on the host');
  });

  it('kube\'s own tolerations stay usable, and a stored pod with them stays replaceable', async () => {
    const own = [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }];
    assert.equal((await globex().post('/api/v1/namespaces/app/pods', pod('fast-failover', { tolerations: own }))).status, 201);
    // The upstream's admission added not-ready as well (DefaultTolerationSeconds): a PUT sends both back.
    const path = '/api/v1/namespaces/app/pods/fast-failover';
    const res = await eventually(async () => {
      const current = (await globex().get(path)).body as KubeObject;
      const put = await globex().put(path, { ...current, metadata: { ...current.metadata, labels: { tier: 'web' } } });
      return put.status === 409 ? undefined : put;
    }, 'a PUT that is not a conflict');
    assert.equal(res.status, 200, `PUT of a pod with kube's tolerations: ${res.text.slice(0, 300)}`);
    const stored = await onHost(`/api/v1/namespaces/${globexId}-app/pods/fast-failover`);
    assert.deepEqual((specOf(stored)?.tolerations as Obj[]).filter((t) => t.key === 'node.kubernetes.io/unreachable'), own);
  });

  it('a Tenant\'s contract: its node selector is merged into every pod spec, its toleration allowed, another value refused', async () => {
    const initech = env.http('initech', initechKubeconfig);
    const dedicated = [{ key: 'dedicated', operator: 'Equal', value: 'initech', effect: 'NoSchedule' }];
    assert.equal((await initech.post('/api/v1/namespaces/app/pods', pod('web', { tolerations: dedicated }))).status, 201);
    const stored = await onHost(`/api/v1/namespaces/${initechId}-app/pods/web`);
    assert.deepEqual(specOf(stored)?.nodeSelector, { 'kubernetes.io/hostname': node }, 'the forced selector on the host');
    const placed = await eventually(async () => specOf(await onHost(`/api/v1/namespaces/${initechId}-app/pods/web`))?.nodeName as string | undefined, 'initech\'s pod is scheduled');
    assert.equal(placed, node, 'initech\'s pod runs on its node');
    const read = (await initech.get('/api/v1/namespaces/app/pods/web')).body as KubeObject;
    assert.deepEqual(specOf(read)?.nodeSelector, { 'kubernetes.io/hostname': node }, 'initech reads the selector it runs under');
    assert.equal((await initech.post('/apis/apps/v1/namespaces/app/deployments', deployment('api'))).status, 201);
    assert.deepEqual(templateSpecOf(await onHost(`/apis/apps/v1/namespaces/${initechId}-app/deployments/api`))?.nodeSelector, { 'kubernetes.io/hostname': node });
    const applied = await initech.patch('/apis/apps/v1/namespaces/app/deployments/api?fieldManager=ian', PATCH.apply, JSON.stringify(deployment('api')));
    assert.equal(applied.status, 200, `apply without the selector: ${applied.text.slice(0, 300)}`);
    assert.deepEqual(templateSpecOf(await onHost(`/apis/apps/v1/namespaces/${initechId}-app/deployments/api`))?.nodeSelector, { 'kubernetes.io/hostname': node }, 'kept after an apply');
    const elsewhere = await initech.post('/api/v1/namespaces/app/pods', pod('elsewhere', { nodeSelector: { 'kubernetes.io/hostname': 'another-node' } }));
    assertRefused(elsewhere, 403, 'a selector value other than the contract\'s', [initechId]);
    assert.match(String(elsewhere.body?.message), /nodeSelector: "kubernetes.io\/hostname=another-node" conflicts with the node selector the platform sets/);
    const removed = await initech.patch('/apis/apps/v1/namespaces/app/deployments/api', PATCH.json, [{ op: 'remove', path: '/spec/template/spec/nodeSelector' }]);
    assert.equal(removed.status, 200, 'a patch removing the selector gets it back');
    assert.deepEqual(templateSpecOf(await onHost(`/apis/apps/v1/namespaces/${initechId}-app/deployments/api`))?.nodeSelector, { 'kubernetes.io/hostname': node });
    assertRefused(await initech.post('/api/v1/namespaces/app/pods', pod('wide', { tolerations: EVERYTHING })), 403, 'initech tolerating everything', [initechId]);
  });

  it('an override cannot put the master toleration on member2\'s copy: no copy lands, the binding says why', async () => {
    const docs = [
      deployment('tolerant'),
      { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name: 'tolerant', namespace: 'app' }, spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'tolerant' }], placement: { clusterAffinity: { clusterNames: ['member2'] } } } },
      {
        apiVersion: 'policy.karmada.io/v1alpha1', kind: 'OverridePolicy', metadata: { name: 'tolerant', namespace: 'app' },
        spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'tolerant' }], overrideRules: [{ targetCluster: { clusterNames: ['member2'] }, overriders: { plaintext: [{ path: '/spec/template/spec/tolerations', operator: 'add', value: MASTER }, { path: '/spec/template/spec/nodeSelector', operator: 'add', value: { 'node-role.kubernetes.io/master': '' } }] } }] },
      },
    ];
    await env.apply('globex', docs.map((d) => JSON.stringify(d)).join('\n---\n'), 'globex-tolerant.yaml');
    const why = await eventually(async () => {
      const res = await globex().get(`${BINDING_API}/namespaces/app/resourcebindings/tolerant-deployment`);
      return appliedMessageOf(res.body, 'member2');
    }, 'the binding says why');
    assert.match(why, /tolerations: .*node-role.kubernetes.io\/master.* is not allowed/);
    assert.ok(!why.includes(`${globexId}-`) && !why.includes(`${acmeId}-`), `in globex's terms: ${why}`);
    await consistently(async () => {
      const copy = await env.member('member2').request<KubeObject>('GET', `/apis/apps/v1/namespaces/${globexId}-app/deployments/tolerant`);
      return copy.status === 200 ? 'globex\'s tolerant Deployment is on member2' : undefined;
    }, 'member2 after the toleration override');
  });

  it('a Cluster shows a tenant neither the member\'s endpoint nor every tenant\'s usage there', async () => {
    const hostCluster = await env.host().request<KubeObject>('GET', '/apis/cluster.karmada.io/v1alpha1/clusters/member2');
    const endpoint = (hostCluster.body.spec as { apiEndpoint?: string }).apiEndpoint;
    assert.ok(endpoint, 'the platform\'s Cluster has an endpoint');
    const got = await env.run('acme', 'get', 'clusters', '-o', 'json');
    assert.equal(got.code, 0, got.stderr);
    const seen = JSON.parse(got.stdout) as { items: KubeObject[] };
    assert.ok(seen.items.length > 0, 'acme sees its clusters');
    assert.ok(!got.stdout.includes(endpoint), 'no endpoint');
    for (const item of seen.items) {
      const summary = (item.status as { resourceSummary?: Obj } | undefined)?.resourceSummary ?? {};
      assert.deepEqual(Object.keys(summary).filter((k) => k !== 'allocatable'), [], `${item.metadata.name}: only allocatable`);
      assert.equal((item.spec as Obj).apiEndpoint, undefined);
      assert.equal(item.metadata.annotations, undefined);
    }
  });
});
