// Issue 14, items 6, 11 and 12, with real kubectl (1.27 and 1.33) through the
// gateway: tenants see virtual nodes built from their own pods and nothing of
// the host's nodes or of another tenant (ADR 30); `kubectl auth whoami` answers
// the tenant's identity; events.k8s.io lists the same events as core/v1.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { kubectl, type KubectlResult } from '../helpers/kubectl.ts';
import { eventually } from '../helpers/poll.ts';
import { startGatewayProcess, type GatewayUp } from '../helpers/gateway-process.ts';

type Obj = Record<string, unknown>;

function ok(r: KubectlResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

const ALLOWED_NODE_LABELS = new Set(['kubernetes.io/hostname', 'kubernetes.io/os', 'kubernetes.io/arch', 'warren.dev/virtual-node']);

// A tenant may not name a pod's node (ADR 0029, session 13): a pod placed on a given node is bound by
// the host (created upstream with its nodeName), as the host's scheduler binds tenants' pods.
function pod(name: string, namespace: string, nodeName?: string): string {
  return JSON.stringify({
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace },
    spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m', memory: '64Mi' } } }] },
  });
}

for (const version of ['1.27', '1.33']) {
  describe(`kubectl ${version}: nodes, whoami and events in a tenant's view`, { timeout: 240_000 }, () => {
    let child: ChildProcess | undefined;
    let up: GatewayUp;
    const as = (who: string) => (args: string[], input?: string) => kubectl(version, args, { kubeconfigPath: up.kubeconfigs[who]!, ...(input !== undefined ? { input } : {}) });
    const host = (args: string[], input?: string) => kubectl(version, args, { kubeconfigPath: up.upstream, ...(input !== undefined ? { input } : {}) });
    let a: ReturnType<typeof as>;
    let b: ReturnType<typeof as>;
    const nodesOf = async (who: ReturnType<typeof as>): Promise<Obj[]> => (JSON.parse(ok(await who(['get', 'nodes', '-o', 'json']), 'get nodes')) as { items: Obj[] }).items;
    const names = (nodes: Obj[]): string[] => nodes.map((n) => String((n.metadata as Obj).name)).sort();
    /** A pod in tenant `id`'s namespace `views`, bound upstream to `nodeName` (the tenant cannot name it). */
    const placed = async (id: string, name: string, nodeName: string) => ok(await host(['apply', '-f', '-'], pod(name, `${id}-views`, nodeName)), `bound pod ${name}`);

    before(async () => {
      ({ child, up } = await startGatewayProcess());
      a = as('acme/admin');
      b = as('globex/admin');
      ok(await a(['create', 'namespace', 'views']), 'create ns a');
      ok(await b(['create', 'namespace', 'views']), 'create ns b');
    });
    after(async () => {
      if (child && child.exitCode === null) {
        const exited = new Promise((r) => child!.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      }
    });

    it('a tenant without pods sees no nodes, though the host has some', async () => {
      const hostNodes = JSON.parse(ok(await host(['get', 'nodes', '-o', 'json']), 'host nodes')) as { items: Obj[] };
      assert.ok(hostNodes.items.length > 0, 'the upstream simulates nodes');
      assert.deepEqual(await nodesOf(a), []);
      assert.match((await a(['get', 'nodes'])).stderr, /No resources found/);
      // The conformance suite's BeforeSuite asks exactly this.
      assert.deepEqual(JSON.parse(ok(await a(['get', '--raw', '/api/v1/nodes?resourceVersion=0&fieldSelector=spec.unschedulable%3Dfalse']), 'raw list')).items, []);
    });

    it('nodes are those its own pods run on, virtual: no host labels, taints, addresses, images or volumes', async () => {
      // Bound at creation to one of the host's (simulated) nodes, which carry labels, images and addresses of their own.
      const hostNodes = JSON.parse(ok(await host(['get', 'nodes', '-o', 'json']), 'host nodes')) as { items: Array<{ metadata: { name: string } }> };
      const bound = hostNodes.items[0]!.metadata.name;
      const refused = await a(['apply', '-f', '-'], pod('web', 'views', bound));
      assert.match(refused.stderr, /spec\.nodeName.*may not be set/);
      await placed('acme01', 'web', bound);
      const nodes = await nodesOf(a);
      assert.deepEqual(names(nodes), [bound]);
      const hostNode = JSON.parse(ok(await host(['get', 'node', bound, '-o', 'json']), 'host node')) as { metadata: { uid: string; labels: Obj } };
      for (const node of nodes) {
        const meta = node.metadata as Obj;
        const spec = node.spec as Obj;
        const status = node.status as Obj;
        assert.ok(Object.keys(meta.labels as Obj).every((k) => ALLOWED_NODE_LABELS.has(k)), JSON.stringify(meta.labels));
        assert.notEqual(meta.uid, hostNode.metadata.uid);
        assert.equal(meta.annotations, undefined);
        assert.equal(spec.taints, undefined);
        assert.equal(spec.providerID, undefined);
        assert.equal(spec.podCIDR, undefined);
        assert.equal(status.images, undefined);
        assert.equal(status.volumesAttached, undefined);
        assert.equal(status.volumesInUse, undefined);
        assert.deepEqual(status.addresses, [{ type: 'Hostname', address: bound }]);
      }
      const table = ok(await a(['get', 'nodes']), 'get nodes table');
      assert.match(table, /^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\n/);
      assert.match(table, new RegExp(`^${bound}\\s+Ready\\s`, 'm'));
      assert.equal(ok(await a(['get', 'node', bound, '-o', 'name']), 'get node'), `node/${bound}\n`);
      assert.equal(ok(await a(['get', 'nodes', '-l', 'kubernetes.io/hostname=nope', '-o', 'name']), 'selector'), '');
    });

    it('tenant A learns nothing of tenant B through nodes', async () => {
      const before = await nodesOf(a);
      // B pins a pod to a node of its own naming, and runs pods next to A's.
      await placed('globx1', 'pinned', 'b-only-node');
      const [shared] = names(before);
      for (let i = 0; i < 3; i++) await placed('globx1', `b${i}`, shared!);
      await eventually(async () => names(await nodesOf(b)).includes('b-only-node'), 'B sees its own node');
      // A's view is exactly as it was: no new node, and no field moved with B's pods (capacity, images, versions).
      assert.deepEqual(await nodesOf(a), before);
      const get = await a(['get', 'node', 'b-only-node']);
      assert.notEqual(get.code, 0);
      assert.match(get.stderr, /NotFound.*nodes "b-only-node" not found/);
      const watched = await a(['get', 'nodes', '-w', '--request-timeout=3s', '-o', 'name']);
      assert.doesNotMatch(watched.stdout, /b-only-node/);
      assert.doesNotMatch(JSON.stringify(await nodesOf(a)), /globx1|acme01/);
    });

    it('nodes are read-only: writes refused with 403 in tenant terms', async () => {
      const [node] = names(await nodesOf(a));
      assert.ok(node);
      for (const args of [['label', 'node', node, 'x=y'], ['cordon', node], ['delete', 'node', node]]) {
        const r = await a(args);
        // kubectl cordon reports the refusal but exits 0; label and delete exit 1.
        if (args[0] !== 'cordon') assert.notEqual(r.code, 0, args.join(' '));
        assert.match(r.stderr, /forbidden: User "admin" cannot (patch|delete) resource "nodes".*: the resource is a read-only view for tenants/, args.join(' '));
        assert.doesNotMatch(r.stderr, /acme01-/);
      }
      assert.equal((await a(['auth', 'can-i', 'delete', 'nodes'])).stdout, 'no - the resource is a read-only view for tenants\n');
      assert.equal((await a(['auth', 'can-i', 'list', 'nodes'])).stdout, 'yes\n');
      const proxy = await a(['get', '--raw', `/api/v1/nodes/${node}/proxy`]);
      assert.match(proxy.stderr, /Forbidden.*nodes\/proxy.*the subresource is not available to tenants/);
      // A path below the subresource is nobody's resource: 404, never forwarded.
      assert.match((await a(['get', '--raw', `/api/v1/nodes/${node}/proxy/metrics`])).stderr, /NotFound/);
    });

    it('kubectl auth whoami answers the tenant user and groups', async () => {
      const admin = JSON.parse(ok(await a(['auth', 'whoami', '-o', 'json']), 'whoami')) as { kind: string; status: { userInfo: { username: string; groups: string[] } } };
      assert.equal(admin.kind, 'SelfSubjectReview');
      assert.equal(admin.status.userInfo.username, 'admin');
      assert.ok(admin.status.userInfo.groups.includes('system:authenticated'));
      const dev = ok(await as('acme/dev')(['auth', 'whoami']), 'whoami dev');
      assert.match(dev, /Username\s+dev\n/);
      assert.match(dev, /Groups\s+\[devs system:authenticated\]/);
      assert.doesNotMatch(dev, /acme01/);
    });

    it('events.k8s.io lists the same events as core/v1, both ways', async () => {
      ok(await a(['apply', '-f', '-'], JSON.stringify({
        apiVersion: 'v1', kind: 'Event', metadata: { name: 'core-ev', namespace: 'views' },
        involvedObject: { kind: 'Pod', name: 'web', namespace: 'views' }, reason: 'CoreReason', message: 'from core', type: 'Normal',
        firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:00:00Z', count: 1, source: { component: 'e2e' },
      })), 'core event');
      ok(await a(['apply', '-f', '-'], JSON.stringify({
        apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'new-ev', namespace: 'views' },
        regarding: { kind: 'Pod', name: 'web', namespace: 'views' }, reason: 'NewReason', note: 'from events.k8s.io', type: 'Warning',
        eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'example.com/e2e', reportingInstance: 'e2e-1', action: 'Tested',
      })), 'events.k8s.io event');
      const asNew = JSON.parse(ok(await a(['get', 'events.events.k8s.io', '-n', 'views', '-o', 'json']), 'list new')) as { items: Obj[] };
      const byName = new Map(asNew.items.map((e) => [String((e.metadata as Obj).name), e]));
      assert.equal(byName.get('core-ev')?.note, 'from core');
      assert.equal((byName.get('core-ev')?.regarding as Obj | undefined)?.name, 'web');
      assert.equal(byName.get('new-ev')?.note, 'from events.k8s.io');
      const core = JSON.parse(ok(await a(['get', 'events', '-n', 'views', '-o', 'json']), 'list core')) as { items: Obj[] };
      const coreNew = core.items.find((e) => (e.metadata as Obj).name === 'new-ev');
      assert.equal(coreNew?.message, 'from events.k8s.io');
      assert.equal(coreNew?.reportingComponent, 'example.com/e2e');
      const selected = ok(await a(['get', 'events.events.k8s.io', '-n', 'views', '--field-selector', 'reason=NewReason', '-o', 'name']), 'field selector');
      assert.equal(selected, 'event.events.k8s.io/new-ev\n');
      // B sees none of A's events either way.
      assert.equal(ok(await b(['get', 'events.events.k8s.io', '-A', '-o', 'name']), 'b events'), '');
    });
  });
}
