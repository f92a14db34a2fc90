// A controller written against the tenant's view keeps working through the
// gateway: a small operator (two replicas) that watches ConfigMaps labelled
// derive=source with a client-node informer and writes a derived ConfigMap
// (values upper-cased, owned by its source), run only by the replica that holds
// its own coordination.k8s.io Lease in the tenant's namespace. Everything goes
// through the gateway as tenant acme's admin; the Lease lands upstream in the
// tenant's prefixed namespace and nowhere else.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, KubeConfig, makeInformer, ApiException, PatchStrategy, setHeaderOptions, type Informer, type ObjectCache, type V1ConfigMap } from '@kubernetes/client-node';
import { createUpstream } from '../../src/kube/upstream-client.ts';
import type { Upstream } from '../../src/kube/upstream.ts';
import { startLeaderElection, type LeaderElector } from '../../src/kube/leader-election.ts';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../helpers/gateway-harness.ts';
import { eventually } from '../helpers/poll.ts';

const NS = 'ops';
const SOURCE = 'derive=source';
const LEASE = 'derive-operator';

interface Operator { id: string; elector: LeaderElector; upstream: Upstream; reconciles: number }

/** The operator's reconcile: derived = source with upper-cased values, owned by the source. */
async function reconcile(core: CoreV1Api, id: string, source: V1ConfigMap): Promise<void> {
  const name = `${source.metadata!.name}-derived`;
  const data = Object.fromEntries(Object.entries(source.data ?? {}).map(([k, v]) => [k, v.toUpperCase()]));
  const desired: V1ConfigMap = {
    metadata: {
      name, namespace: NS, labels: { 'derived-by': id },
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: source.metadata!.name!, uid: source.metadata!.uid!, controller: true }],
    },
    data,
  };
  let current: V1ConfigMap | undefined;
  try {
    current = await core.readNamespacedConfigMap({ name, namespace: NS });
  } catch (err) {
    if (!(err instanceof ApiException && err.code === 404)) throw err;
  }
  if (!current) { await core.createNamespacedConfigMap({ namespace: NS, body: desired }); return; }
  if (JSON.stringify(current.data ?? {}) === JSON.stringify(data)) return;
  // Replace with the resourceVersion read: a conflict means someone else wrote; the next event retries.
  await core.replaceNamespacedConfigMap({ name, namespace: NS, body: { ...desired, metadata: { ...desired.metadata, resourceVersion: current.metadata!.resourceVersion! } } });
}

function startOperator(kubeconfigPath: string, id: string): Operator {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  const core = kc.makeApiClient(CoreV1Api);
  let informer: (Informer<V1ConfigMap> & ObjectCache<V1ConfigMap>) | undefined;
  let chain = Promise.resolve();
  const op: Operator = { id, elector: undefined as unknown as LeaderElector, upstream: createUpstream({ path: kubeconfigPath }), reconciles: 0 };
  const enqueue = (cm: V1ConfigMap): void => {
    chain = chain.then(() => reconcile(core, id, cm)).then(() => { op.reconciles++; }, () => undefined);
  };
  op.elector = startLeaderElection({
    upstream: op.upstream, identity: id, namespace: NS, name: LEASE,
    leaseDurationSeconds: 2, renewDeadline: 1.5, retryPeriod: 0.2,
    async onStartedLeading() {
      informer = makeInformer(kc, `/api/v1/namespaces/${NS}/configmaps`, () => core.listNamespacedConfigMap({ namespace: NS, labelSelector: SOURCE }), SOURCE);
      informer.on('add', enqueue);
      informer.on('update', enqueue);
      await informer.start();
    },
    async onStoppedLeading() {
      await informer?.stop();
      informer = undefined;
      await chain;
    },
  });
  return op;
}

describe('an operator with informers and a leader-election Lease, through the gateway as a tenant', { timeout: 90_000 }, () => {
  let h: GatewayHarness;
  let core: CoreV1Api;
  const operators: Operator[] = [];
  const leader = (): Operator | undefined => {
    const leading = operators.filter((o) => o.elector.isLeader());
    assert.ok(leading.length <= 1, `two leaders: ${leading.map((o) => o.id).join(', ')}`);
    return leading[0];
  };
  const derived = async (name: string): Promise<V1ConfigMap | undefined> => {
    try {
      return await core.readNamespacedConfigMap({ name, namespace: NS });
    } catch (err) {
      if (err instanceof ApiException && err.code === 404) return undefined;
      throw err;
    }
  };

  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS, simulateWorkloads: false });
    const kc = new KubeConfig();
    kc.loadFromFile(h.kubeconfigPath('acme', 'admin'));
    core = kc.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: NS } } });
  });
  after(async () => {
    for (const o of operators) { await o.elector.stop(); o.upstream.close(); }
    await h.stop();
  });

  it('two replicas: exactly one leads, and its Lease is in the tenant\'s namespace', async () => {
    operators.push(startOperator(h.kubeconfigPath('acme', 'admin'), 'op-a'), startOperator(h.kubeconfigPath('acme', 'admin'), 'op-b'));
    const first = await eventually(async () => leader(), 'a leader', { timeoutMs: 10_000, intervalMs: 20 });
    for (const until = Date.now() + 2500; Date.now() < until;) {
      assert.equal(leader(), first);
      await new Promise((r) => setTimeout(r, 50));
    }
    const lease = await h.http('acme', 'admin').get(`/apis/coordination.k8s.io/v1/namespaces/${NS}/leases/${LEASE}`);
    assert.equal(lease.status, 200);
    assert.equal(lease.body.metadata.namespace, NS);
    assert.equal(lease.body.spec.holderIdentity, first.id);
    const upstream = await h.upstream.request<any>('GET', `/apis/coordination.k8s.io/v1/namespaces/${h.idOf('acme')}-${NS}/leases/${LEASE}`);
    assert.equal(upstream.status, 200, 'the Lease is stored upstream under the tenant prefix');
    assert.equal(upstream.body.metadata.labels['tenancy.warren.dev/tenant'], h.idOf('acme'));
    const otherTenant = await h.http('globex', 'admin').get(`/apis/coordination.k8s.io/v1/namespaces/${NS}/leases/${LEASE}`);
    assert.equal(otherTenant.status, 404, 'globex must not see acme\'s Lease');
  });

  it('the leader reconciles: a source ConfigMap gets its derived ConfigMap, and updates follow', async () => {
    const lead = leader()!;
    await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 's1', labels: { derive: 'source' } }, data: { greeting: 'hello' } } });
    const d = await eventually(async () => (await derived('s1-derived'))?.data?.greeting === 'HELLO' && derived('s1-derived'), 's1-derived', { timeoutMs: 10_000, intervalMs: 50 });
    assert.equal(d!.metadata?.labels?.['derived-by'], lead.id);
    assert.equal(d!.metadata?.ownerReferences?.[0]?.name, 's1');
    await core.patchNamespacedConfigMap({ name: 's1', namespace: NS, body: [{ op: 'replace', path: '/data/greeting', value: 'bye' }] }, setHeaderOptions('Content-Type', PatchStrategy.JsonPatch));
    await eventually(async () => (await derived('s1-derived'))?.data?.greeting === 'BYE', 'the update to reach s1-derived', { timeoutMs: 10_000, intervalMs: 50 });
    assert.ok(operators.every((o) => o === lead || o.reconciles === 0), 'only the leader reconciled');
  });

  it('stopping the leader hands over: the other replica reconciles new sources', async () => {
    const old = leader()!;
    const stoppedAt = Date.now();
    await old.elector.stop();
    const next = await eventually(async () => leader(), 'the other replica to lead', { timeoutMs: 5000, intervalMs: 20 });
    assert.notEqual(next.id, old.id);
    assert.ok(Date.now() - stoppedAt < 2000, 'handed over within a lease duration (the Lease was released)');
    await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 's2', labels: { derive: 'source' } }, data: { a: 'x' } } });
    const d = await eventually(async () => derived('s2-derived'), 's2-derived', { timeoutMs: 10_000, intervalMs: 50 });
    assert.equal(d.data?.a, 'X');
    assert.equal(d.metadata?.labels?.['derived-by'], next.id);
    const lease = await h.http('acme', 'admin').get(`/apis/coordination.k8s.io/v1/namespaces/${NS}/leases/${LEASE}`);
    assert.equal(lease.body.spec.holderIdentity, next.id);
    assert.ok(lease.body.spec.leaseTransitions >= 1);
  });

  it('deleting a source garbage-collects its derived ConfigMap (ownerReferences through the gateway)', async () => {
    await core.deleteNamespacedConfigMap({ name: 's1', namespace: NS });
    await eventually(async () => (await derived('s1-derived')) === undefined, 's1-derived to be collected', { timeoutMs: 15_000, intervalMs: 100 });
  });
});
