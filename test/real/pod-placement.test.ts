// Where a tenant's pods may run (ADR 0043), on a real 1.20 host with its
// controller-manager. No kube-scheduler or kubelet runs in this tier, so the
// placement decision kube itself makes here is the DaemonSet controller's: it
// creates a pod for each node whose taints the template tolerates and whose
// labels its selector matches (1.20: each pod pinned to its node by node
// affinity). The platform's nodes are registered by hand: a control-plane
// node (master taint), a node dedicated to acme (`dedicated=acme:NoSchedule`,
// `pool=acme`) and a shared node, with exactly those taints (TaintNodesByCondition's
// not-ready taint removed: no kubelet will). Checked on the host itself:
//  - with nothing configured, a DaemonSet or Pod tolerating the master taint is
//    refused in the tenant's terms and nothing is stored; one tolerating nothing
//    gets a pod for the shared node only, never the control plane;
//  - with acme's contract (its pool's selector and toleration), its DaemonSet
//    gets a pod for its dedicated node only, and a pod with the allowed
//    toleration is stored with the forced selector; kube's own additions
//    (DefaultTolerationSeconds) keep a PUT of it working.
import { describe, it, before, after } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { eventually } from '../helpers/poll.ts';
import { realKubeSkipReason, startRealWarren, type RealWarren } from '../helpers/real-warren.ts';
import { KubeHttp } from '../helpers/kube-http.ts';

type Obj = Record<string, unknown>;
const MASTER = [{ key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' }];
const DEDICATED = [{ key: 'dedicated', operator: 'Equal', value: 'acme', effect: 'NoSchedule' }];
const NODES = [
  { name: 'cp-1', labels: { 'node-role.kubernetes.io/master': '' }, taints: [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }] },
  { name: 'acme-1', labels: { pool: 'acme' }, taints: [{ key: 'dedicated', value: 'acme', effect: 'NoSchedule' }] },
  { name: 'shared-1', labels: {}, taints: [] },
];
const daemonSet = (name: string, tolerations: Obj[] = []): Obj => ({
  apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name, namespace: 'app' },
  spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { tolerations, containers: [{ name: 'c', image: 'nginx' }] } } },
});
const pod = (name: string, spec: Obj): Obj => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'app' }, spec: { ...spec, containers: [{ name: 'c', image: 'nginx' }] } });

const skip = realKubeSkipReason();

describe('where a tenant\'s pods may run, on a real host (ADR 0043)', { timeout: 600_000, ...(skip ? { skip } : {}) }, () => {
  let w: RealWarren;
  let acme: KubeHttp;
  let acmeId = '';
  /** The nodes kube's DaemonSet controller made a pod of this DaemonSet for (1.20 pins each by node affinity). */
  const nodesOf = async (ds: string): Promise<string[]> => {
    const res = await w.hostHttp.get(`/api/v1/namespaces/${acmeId}-app/pods?labelSelector=${encodeURIComponent(`app=${ds}`)}`);
    assert.equal(res.status, 200);
    const terms = (p: Obj): Obj[] => ((((p.spec as Obj).affinity as Obj | undefined)?.nodeAffinity as Obj | undefined)?.requiredDuringSchedulingIgnoredDuringExecution as { nodeSelectorTerms?: Obj[] } | undefined)?.nodeSelectorTerms ?? [];
    return (res.body.items as Obj[]).flatMap((p) => terms(p).flatMap((t) => ((t.matchFields ?? []) as Array<{ values?: string[] }>).flatMap((f) => f.values ?? []))).sort();
  };

  before(async () => {
    w = await startRealWarren({ members: 0 });
    acmeId = await w.tenantId('acme');
    acme = new KubeHttp(readFileSync(await w.kubeconfigOf('acme'), 'utf8'));
    for (const n of NODES) {
      const res = await w.hostHttp.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: n.name, labels: { 'kubernetes.io/hostname': n.name, ...n.labels } }, spec: { taints: n.taints } });
      assert.equal(res.status, 201, `node ${n.name}: ${res.text.slice(0, 200)}`);
      // The TaintNodesByCondition admission plugin taints a new Node not-ready until its kubelet reports; no
      // kubelet runs here (nor the node lifecycle controller), so the platform sets the taints it means.
      const set = await w.hostHttp.patch(`/api/v1/nodes/${n.name}`, 'application/merge-patch+json', { spec: { taints: n.taints } });
      assert.equal(set.status, 200, `taints of ${n.name}: ${set.text.slice(0, 200)}`);
    }
    assert.equal((await acme.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'app' } })).status, 201);
  });
  after(async () => { await w?.stop(); });

  it('with nothing configured: the master toleration is refused, and kube places a plain DaemonSet on the shared node only', async () => {
    for (const [path, body, what] of [
      ['/apis/apps/v1/namespaces/app/daemonsets', daemonSet('everywhere', MASTER), 'DaemonSet tolerating the master taint'],
      ['/api/v1/namespaces/app/pods', pod('squat', { tolerations: [{ operator: 'Exists' }], nodeSelector: { 'kubernetes.io/hostname': 'cp-1' } }), 'Pod tolerating everything on cp-1'],
    ] as const) {
      const res = await acme.post(path, body);
      assert.equal(res.status, 403, `${what}: ${res.text.slice(0, 300)}`);
      assert.match(String(res.body?.message), /tolerations: .* is not allowed/, what);
      assert.ok(!res.text.includes(`${acmeId}-`), `${what}: in acme's terms`);
    }
    assert.equal((await w.hostHttp.get(`/apis/apps/v1/namespaces/${acmeId}-app/daemonsets/everywhere`)).status, 404, 'nothing stored');
    assert.equal((await w.hostHttp.get(`/api/v1/namespaces/${acmeId}-app/pods/squat`)).status, 404, 'nothing stored');
    assert.equal((await acme.post('/apis/apps/v1/namespaces/app/daemonsets', daemonSet('plain'))).status, 201);
    await eventually(async () => (await nodesOf('plain')).length > 0, 'the DaemonSet controller made pods', { timeoutMs: 90_000 });
    assert.deepEqual(await nodesOf('plain'), ['shared-1'], 'never the control plane, never acme\'s dedicated node without its toleration');
  });

  it('with acme\'s contract: its DaemonSet lands on its dedicated node only, and its pods carry the forced selector', async () => {
    const patched = await w.hostHttp.patch('/apis/tenancy.warren.dev/v1alpha1/tenants/acme', 'application/merge-patch+json', { spec: { placement: { nodeSelector: { pool: 'acme' }, tolerations: DEDICATED } } });
    assert.equal(patched.status, 200, patched.text.slice(0, 300));
    // The gateway's tenant directory follows the Tenant: until it does, acme's toleration is refused.
    const created = await eventually(async () => {
      const res = await acme.post('/apis/apps/v1/namespaces/app/daemonsets', daemonSet('pool', DEDICATED));
      return res.status === 201 ? res : undefined;
    }, 'acme may use its toleration', { timeoutMs: 60_000 });
    assert.equal(created.status, 201);
    const stored = await w.hostHttp.get(`/apis/apps/v1/namespaces/${acmeId}-app/daemonsets/pool`);
    assert.deepEqual(stored.body.spec.template.spec.nodeSelector, { pool: 'acme' }, 'the forced selector on the host');
    await eventually(async () => (await nodesOf('pool')).length > 0, 'the DaemonSet controller made pods', { timeoutMs: 90_000 });
    assert.deepEqual(await nodesOf('pool'), ['acme-1']);
    const master = await acme.post('/apis/apps/v1/namespaces/app/daemonsets', daemonSet('cp', [...DEDICATED, ...MASTER]));
    assert.equal(master.status, 403, 'the master taint stays refused');

    assert.equal((await acme.post('/api/v1/namespaces/app/pods', pod('web', { tolerations: DEDICATED }))).status, 201);
    const web = await w.hostHttp.get(`/api/v1/namespaces/${acmeId}-app/pods/web`);
    assert.deepEqual(web.body.spec.nodeSelector, { pool: 'acme' });
    const added = (web.body.spec.tolerations as Obj[]).filter((t) => t.key === 'node.kubernetes.io/not-ready' || t.key === 'node.kubernetes.io/unreachable');
    assert.equal(added.length, 2, `kube 1.20 adds DefaultTolerationSeconds' tolerations: ${JSON.stringify(web.body.spec.tolerations)}`);
    const current = (await acme.get('/api/v1/namespaces/app/pods/web')).body as Obj;
    const put = await acme.put('/api/v1/namespaces/app/pods/web', { ...current, metadata: { ...(current.metadata as Obj), labels: { tier: 'web' } } });
    assert.equal(put.status, 200, `PUT of a pod with kube's own tolerations: ${put.text.slice(0, 300)}`);
  });
});
