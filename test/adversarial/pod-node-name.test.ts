// Boundary: a tenant pod's spec.nodeName (session 13, v1). A pod created with
// a node named is never scheduled: that node's kubelet runs it as it is, past
// taints, affinity and resource fit, on a control-plane node or a node the
// platform keeps for another tenant. pods/binding (the scheduler's own way to
// set it) was denied; the spec was not. Globex attacks, acme is the victim
// (acme's pod is on the node globex names):
//  - a Pod, a Deployment, a DaemonSet, a CronJob's job template, a PodTemplate,
//    by POST, PUT, JSON, merge and strategic merge patch, server-side apply and
//    `kubectl run --overrides` → 403 in globex's terms, nothing stored;
//  - an override putting a node on member2's copy → no copy, the binding says why;
//  - globex's own pod, placed by the host's scheduler, stays replaceable (PUT
//    with the node the scheduler gave it) and patchable.
// Judged on the host and on member2 directly, never only by the gateway's answer.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/core/types.ts';
import { PATCH } from '../helpers/kube-http.ts';
import { eventually } from '../helpers/poll.ts';
import { useAdversaryEnv } from './support/adversary-env.ts';
import { assertRefused, consistently } from './support/verdicts.ts';
import { storedAt } from './support/host-snapshot.ts';

const RESTRICTED = { allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } };
const podSpec = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ ...extra, containers: [{ name: 'c', image: 'nginx', securityContext: RESTRICTED }] });
const pod = (name: string, extra: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'app' }, spec: podSpec(extra) } as KubeObject);
const template = (name: string, extra: Record<string, unknown>) => ({ metadata: { labels: { app: name } }, spec: podSpec(extra) });
const deployment = (name: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'app' },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: template(name, extra) },
} as KubeObject);
const nodeNameOf = (obj: KubeObject | undefined): string | undefined => (obj?.spec as { nodeName?: string } | undefined)?.nodeName;

describe('adversarial: a tenant pod may not name its node', { timeout: 300_000 }, () => {
  const env = useAdversaryEnv('pod-node-name');
  let acmeId = '';
  let globexId = '';
  let node = '';
  const globex = () => env.http('globex');
  const onHost = (path: string): Promise<KubeObject | undefined> => storedAt(env.host(), path);
  /** GET, change, PUT, as a user does: again on 409 (the host's controllers write status meanwhile), a few times at most. */
  const replace = async (path: string, change: (obj: KubeObject) => KubeObject) => {
    for (let attempt = 1; ; attempt++) {
      const current = (await globex().get(path)).body as KubeObject;
      const res = await globex().put(path, change(current));
      if (res.status !== 409 || attempt === 5) return res;
    }
  };
  const relabelled = (obj: KubeObject): KubeObject => ({ ...obj, metadata: { ...obj.metadata, labels: { tier: 'web' } } });

  before(async () => {
    acmeId = env.idOf('acme');
    globexId = env.idOf('globex');
    await env.as('acme')('create', 'namespace', 'shop');
    await env.as('globex')('create', 'namespace', 'app');
    // acme's pod, placed by the host's scheduler: its node is the one globex aims at.
    assert.equal((await env.http('acme').post('/api/v1/namespaces/shop/pods', { ...pod('victim'), metadata: { name: 'victim', namespace: 'shop' } })).status, 201);
    node = await eventually(async () => nodeNameOf(await onHost(`/api/v1/namespaces/${acmeId}-shop/pods/victim`)), 'acme\'s pod is scheduled on the host');
    await env.as('globex')('create', 'deployment', 'plain', '-n', 'app', '--image=nginx', '--replicas=0');
  });

  it('every kind and every write path that names a node is refused in globex\'s terms, and nothing is stored', async () => {
    const refused = (res: Parameters<typeof assertRefused>[0], what: string): void => {
      assertRefused(res, 403, what, [acmeId, globexId]);
      assert.match(res.text, /nodeName: .* may not be set: the scheduler places pods/, `${what}: says why`);
    };
    const cron = { apiVersion: 'batch/v1beta1', kind: 'CronJob', metadata: { name: 'tick', namespace: 'app' }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { ...template('tick', { nodeName: node }), spec: { ...podSpec({ nodeName: node }), restartPolicy: 'Never' } } } } } };
    const ds = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'everywhere', namespace: 'app' }, spec: { selector: { matchLabels: { app: 'everywhere' } }, template: template('everywhere', { nodeName: node }) } };
    const podTemplate = { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'tpl', namespace: 'app' }, template: template('tpl', { nodeName: node }) };
    refused(await globex().post('/api/v1/namespaces/app/pods', pod('squat', { nodeName: node })), 'Pod with nodeName');
    // A body that omits apiVersion and kind (kube takes them from the path): the kind is the path's, not the body's.
    const bare = { metadata: { name: 'bare', namespace: 'app' }, spec: podSpec({ nodeName: node }) };
    const bareRes = await globex().post('/api/v1/namespaces/app/pods', bare);
    assert.notEqual(bareRes.status, 201, `a kind-less Pod with nodeName was stored: ${bareRes.text.slice(0, 200)}`);
    const wrongKind = await globex().post('/apis/apps/v1/namespaces/app/deployments', { ...deployment('disguised', { nodeName: node }), kind: 'ConfigMap' });
    assert.notEqual(wrongKind.status, 201, `a Deployment calling itself a ConfigMap was stored: ${wrongKind.text.slice(0, 200)}`);
    refused(await globex().post('/apis/apps/v1/namespaces/app/deployments', deployment('squat', { nodeName: node })), 'Deployment with nodeName');
    refused(await globex().post('/apis/apps/v1/namespaces/app/daemonsets', ds), 'DaemonSet with nodeName');
    refused(await globex().post('/apis/batch/v1beta1/namespaces/app/cronjobs', cron), 'CronJob job template with nodeName');
    refused(await globex().post('/api/v1/namespaces/app/podtemplates', podTemplate), 'PodTemplate with nodeName');
    const plainPath = '/apis/apps/v1/namespaces/app/deployments/plain';
    const current = (await globex().get(plainPath)).body as KubeObject;
    const replaced = structuredClone(current) as unknown as { spec: { template: { spec: Record<string, unknown> } } };
    replaced.spec.template.spec.nodeName = node;
    refused(await globex().put(plainPath, replaced), 'PUT adding nodeName');
    refused(await globex().patch(plainPath, PATCH.merge, { spec: { template: { spec: { nodeName: node } } } }), 'merge patch');
    refused(await globex().patch(plainPath, PATCH.strategic, { spec: { template: { spec: { nodeName: node } } } }), 'strategic merge patch');
    refused(await globex().patch(plainPath, PATCH.json, [{ op: 'add', path: '/spec/template/spec/nodeName', value: node }]), 'JSON patch');
    refused(await globex().patch('/apis/apps/v1/namespaces/app/deployments/applied?fieldManager=hank', PATCH.apply, JSON.stringify(deployment('applied', { nodeName: node }))), 'server-side apply');
    const run = await env.run('globex', 'run', 'squat2', '-n', 'app', '--image=nginx', `--overrides={"spec":{"nodeName":"${node}"}}`);
    assert.notEqual(run.code, 0, `kubectl run with nodeName: ${run.stdout}`);
    assert.match(run.stderr, /may not be set/, run.stderr);
    for (const path of [
      `/api/v1/namespaces/${globexId}-app/pods/squat`, `/api/v1/namespaces/${globexId}-app/pods/squat2`,
      `/apis/apps/v1/namespaces/${globexId}-app/deployments/squat`, `/apis/apps/v1/namespaces/${globexId}-app/deployments/applied`,
      `/apis/apps/v1/namespaces/${globexId}-app/daemonsets/everywhere`, `/apis/batch/v1beta1/namespaces/${globexId}-app/cronjobs/tick`,
      `/api/v1/namespaces/${globexId}-app/podtemplates/tpl`, `/api/v1/namespaces/${globexId}-app/pods/bare`,
      `/apis/apps/v1/namespaces/${globexId}-app/deployments/disguised`,
    ]) assert.equal(await onHost(path), undefined, `nothing stored at ${path}`);
    const plain = await onHost(`/apis/apps/v1/namespaces/${globexId}-app/deployments/plain`);
    assert.equal((plain?.spec as { template: { spec: Record<string, unknown> } }).template.spec.nodeName, undefined, 'plain names no node on the host');
  });

  it('the scheduler\'s own ways to place a pod, and services/status, stay closed in every spelling', async () => {
    assert.equal((await globex().post('/api/v1/namespaces/app/pods', pod('held'))).status, 201);
    assert.equal((await globex().post('/api/v1/namespaces/app/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'front', namespace: 'app' }, spec: { ports: [{ port: 80 }] } })).status, 201);
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'held', namespace: 'app' }, target: { apiVersion: 'v1', kind: 'Node', name: node } };
    for (const path of ['/api/v1/namespaces/app/pods/held/binding', '/api/v1/namespaces/app/pods/held/binding/', '/api/v1/namespaces/app/pods/held/Binding', '/api/v1/namespaces/app/pods/held/b%69nding', '/api/v1/namespaces/app/bindings']) {
      const res = await globex().post(path, binding);
      assert.ok(res.status >= 400 && res.status < 500, `${path}: ${res.status} ${res.text.slice(0, 200)}`);
      assert.ok(!res.text.includes(`${globexId}-`) && !res.text.includes(`${acmeId}-`), `${path}: in globex's terms: ${res.text.slice(0, 200)}`);
    }
    const ingress = { status: { loadBalancer: { ingress: [{ ip: '10.96.0.10' }] } } };
    for (const path of ['/api/v1/namespaces/app/services/front/status', '/api/v1/namespaces/app/services/front/status/', '/api/v1/namespaces/app/services/front/Status', '/api/v1/namespaces/app/services/front/st%61tus']) {
      const res = await globex().patch(path, PATCH.merge, ingress);
      assert.ok(res.status >= 400 && res.status < 500, `${path}: ${res.status} ${res.text.slice(0, 200)}`);
    }
    const front = await onHost(`/api/v1/namespaces/${globexId}-app/services/front`);
    assert.equal((front?.status as { loadBalancer?: { ingress?: unknown } } | undefined)?.loadBalancer?.ingress, undefined, 'front has no load-balancer address on the host');
  });

  it('globex\'s own pod, placed by the scheduler, stays replaceable and patchable with the node it was given', async () => {
    assert.equal((await globex().post('/api/v1/namespaces/app/pods', pod('mine'))).status, 201);
    const given = await eventually(async () => nodeNameOf(await onHost(`/api/v1/namespaces/${globexId}-app/pods/mine`)), 'globex\'s pod is scheduled');
    const current = (await globex().get('/api/v1/namespaces/app/pods/mine')).body as KubeObject;
    assert.equal(nodeNameOf(current), given, 'globex reads its pod\'s node');
    const put = await replace('/api/v1/namespaces/app/pods/mine', relabelled);
    assert.equal(put.status, 200, `PUT keeping the scheduler's node: ${put.text.slice(0, 300)}`);
    const merge = await globex().patch('/api/v1/namespaces/app/pods/mine', PATCH.merge, { metadata: { labels: { tier: 'db' } } });
    assert.equal(merge.status, 200, `merge patch of a scheduled pod: ${merge.text.slice(0, 300)}`);
    const label = await env.run('globex', 'label', 'pod', 'mine', '-n', 'app', 'seen=yes');
    assert.equal(label.code, 0, label.stderr);
  });

  it('an object stored before these checks (a system-* class, a node) stays replaceable by PUT, as kube\'s plugins allow', async () => {
    assert.equal((await globex().post('/apis/apps/v1/namespaces/app/deployments', deployment('legacy'))).status, 201);
    // The platform's admin stands in for a write made before the checks existed.
    const hostPath = `/apis/apps/v1/namespaces/${globexId}-app/deployments/legacy`;
    const old = await env.host().request('PATCH', hostPath, { spec: { template: { spec: { priorityClassName: 'system-node-critical', nodeName: node } } } }, { 'Content-Type': PATCH.merge });
    assert.equal(old.status, 200, JSON.stringify(old.body));
    const put = await replace('/apis/apps/v1/namespaces/app/deployments/legacy', relabelled);
    assert.equal(put.status, 200, `PUT keeping stored values: ${put.text.slice(0, 300)}`);
    const moved = await replace('/apis/apps/v1/namespaces/app/deployments/legacy', (obj) => {
      const copy = structuredClone(obj) as unknown as { spec: { template: { spec: Record<string, unknown> } } };
      copy.spec.template.spec.nodeName = `${node}-other`;
      return copy as unknown as KubeObject;
    });
    assertRefused(moved, 403, 'PUT changing the stored node', [acmeId, globexId]);
  });

  it('an override cannot put a node on member2\'s copy: no copy lands, the binding says why', async () => {
    const docs = [
      deployment('pinned'),
      { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name: 'pin', namespace: 'app' }, spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'pinned' }], placement: { clusterAffinity: { clusterNames: ['member2'] } } } },
      {
        apiVersion: 'policy.karmada.io/v1alpha1', kind: 'OverridePolicy', metadata: { name: 'pinned', namespace: 'app' },
        spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'pinned' }], overrideRules: [{ targetCluster: { clusterNames: ['member2'] }, overriders: { plaintext: [{ path: '/spec/template/spec/nodeName', operator: 'add', value: 'member2-control-plane' }] } }] },
      },
    ];
    await env.apply('globex', docs.map((d) => JSON.stringify(d)).join('\n---\n'), 'globex-pin.yaml');
    const why = await eventually(async () => {
      const res = await globex().get('/apis/work.karmada.io/v1alpha2/namespaces/app/resourcebindings/pinned-deployment');
      const agg = (res.body as { status?: { aggregatedStatus?: Array<{ clusterName?: string; appliedMessage?: string }> } } | undefined)?.status?.aggregatedStatus ?? [];
      return agg.find((a) => a.clusterName === 'member2')?.appliedMessage;
    }, 'the binding says why');
    assert.match(why, /nodeName: "member2-control-plane" may not be set/);
    assert.ok(!why.includes(`${globexId}-`) && !why.includes(`${acmeId}-`), `in globex's terms: ${why}`);
    await consistently(async () => {
      const copy = await env.member('member2').request<KubeObject>('GET', `/apis/apps/v1/namespaces/${globexId}-app/deployments/pinned`);
      return copy.status === 200 ? 'globex\'s pinned Deployment is on member2' : undefined;
    }, 'member2 after the node override');
  });
});
