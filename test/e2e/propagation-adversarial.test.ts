// The attacks on the propagation engine, replayed against `warren up` with two
// members (acme may use both, globex only member2), through real kubectl as the
// tenants and, for the engine's own defences, by forging upstream objects as a
// platform admin would (the gateway no longer lets a tenant write them):
//  1. globex re-points a binding at acme's member namespace and deletes it:
//     acme's namespace, its propagated ConfigMap and a member-local ConfigMap survive;
//  3. globex steers a binding's spec.clusters at member1, or hand-writes one:
//     nothing of globex lands on member1;
//  7. a tenant's ClusterRoleBinding never reaches a member, and its ClusterRoles
//     arrive there without aggregation labels or rules.
// Every check reads the members (and the host) directly. See ADR 19 and 20.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import type { KubeList, KubeObject } from '../../src/core/types.ts';
import { createUpstream } from '../../src/kube/upstream-client.ts';
import type { Upstream } from '../../src/kube/upstream.ts';
import { eventually } from '../helpers/poll.ts';
import { usePropagationEnv } from '../helpers/propagation-env.ts';

const MEMBERS = ['member1', 'member2'];

const ACME = `
apiVersion: v1
kind: Namespace
metadata: { name: prod }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: settings, namespace: prod }
data: { tier: gold }
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: settings, namespace: prod }
spec:
  resourceSelectors: [{ apiVersion: v1, kind: ConfigMap, name: settings }]
  placement: { clusterAffinity: { clusterNames: [member1, member2] } }
`;
const GLOBEX = `
apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: default, labels: { app: web } }
spec:
  replicas: 1
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      securityContext: { runAsNonRoot: true, seccompProfile: { type: RuntimeDefault } }
      containers:
      - name: web
        image: nginx
        securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: [ALL] } }
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: web, namespace: default }
spec:
  resourceSelectors: [{ apiVersion: apps/v1, kind: Deployment, name: web }]
  placement: { clusterAffinity: { clusterNames: [member1, member2] } }
`;
/** A later object of globex's: once it is on member2, the engine has worked through globex's earlier keys. */
const barrier = (n: number): string => `
apiVersion: v1
kind: ConfigMap
metadata: { name: barrier-${n}, namespace: default }
data: { n: "${n}" }
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: barrier-${n}, namespace: default }
spec:
  resourceSelectors: [{ apiVersion: v1, kind: ConfigMap, name: barrier-${n} }]
  placement: { clusterAffinity: { clusterNames: [member2] } }
`;
const RBAC = `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: everything
  labels: { rbac.authorization.k8s.io/aggregate-to-admin: "true", rbac.authorization.k8s.io/aggregate-to-view: "true", app: x }
rules: [{ apiGroups: ["*"], resources: ["*"], verbs: ["*"] }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: collector }
aggregationRule:
  clusterRoleSelectors: [{ matchLabels: { rbac.authorization.k8s.io/aggregate-to-admin: "true" } }]
rules: []
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: everything }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: everything }
subjects: [{ kind: User, name: robot, apiGroup: rbac.authorization.k8s.io }]
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: { name: rbac }
spec:
  resourceSelectors:
  - { apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: everything }
  - { apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: collector }
  - { apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRoleBinding, name: everything }
  placement: { clusterAffinity: { clusterNames: [member1, member2] } }
`;

describe('adversarial: tenants cannot steer the propagation engine', { timeout: 240_000 }, () => {
  const env = usePropagationEnv('propagation-adversarial');
  const { members } = env;
  let acmeId = '';
  let globexId = '';
  let host: Upstream | undefined;
  const globex = env.as('globex');
  let barriers = 0;

  async function onMember(member: string, path: string): Promise<KubeObject | undefined> {
    const res = await members[member]!.request<KubeObject>('GET', path);
    return res.status === 200 ? res.body : undefined;
  }
  /** acme's namespace on each member, its propagated ConfigMap and the member-local one are all still there. */
  async function acmeIntact(): Promise<void> {
    for (const m of MEMBERS) {
      const ns = await onMember(m, `/api/v1/namespaces/${acmeId}-prod`);
      assert.ok(ns && !ns.metadata.deletionTimestamp, `acme's namespace on ${m} is there and not terminating`);
      assert.ok(await onMember(m, `/api/v1/namespaces/${acmeId}-prod/configmaps/settings`), `acme's settings on ${m}`);
      const local = await onMember(m, `/api/v1/namespaces/${acmeId}-prod/configmaps/member-local`);
      assert.equal((local?.data as Record<string, string> | undefined)?.keep, 'me', `the member-local ConfigMap on ${m}`);
    }
  }
  /** Nothing of globex's on member1: no namespace, no deployment, no ConfigMap, no cluster-scoped object. */
  async function nothingOfGlobexOnMember1(): Promise<void> {
    const m = members.member1!;
    const label = encodeURIComponent(`tenancy.warren.dev/tenant=${globexId}`);
    for (const path of ['/api/v1/namespaces', '/apis/apps/v1/deployments', '/api/v1/configmaps', '/apis/rbac.authorization.k8s.io/v1/clusterroles']) {
      const byLabel = await m.request<KubeList>('GET', `${path}?labelSelector=${label}`);
      assert.equal(byLabel.status, 200);
      assert.deepEqual(byLabel.body.items.map((i) => i.metadata.name), [], `${path} on member1 by globex's label`);
      const all = await m.request<KubeList>('GET', path);
      const mine = all.body.items.filter((i) => (i.metadata.namespace ?? i.metadata.name ?? '').startsWith(`${globexId}-`));
      assert.deepEqual(mine.map((i) => i.metadata.name), [], `${path} on member1 under globex's prefix`);
    }
  }
  /** Waits until a fresh globex ConfigMap is on member2: the engine has handled what globex did before. */
  async function engineCaughtUp(): Promise<void> {
    const n = ++barriers;
    await env.apply('globex', barrier(n), `barrier-${n}.yaml`);
    await eventually(() => onMember('member2', `/api/v1/namespaces/${globexId}-default/configmaps/barrier-${n}`), `barrier-${n} on member2`);
  }

  before(async () => {
    acmeId = env.idOf('acme');
    globexId = env.idOf('globex');
    host = createUpstream({ path: env.up().adminKubeconfigPath });
    await env.apply('acme', ACME, 'acme.yaml');
    for (const m of MEMBERS) await eventually(() => onMember(m, `/api/v1/namespaces/${acmeId}-prod/configmaps/settings`), `acme settings on ${m}`);
    for (const m of MEMBERS) {
      const res = await members[m]!.request('POST', `/api/v1/namespaces/${acmeId}-prod/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'member-local' }, data: { keep: 'me' } });
      assert.equal(res.status, 201);
    }
    await env.apply('globex', GLOBEX, 'globex.yaml');
    await eventually(() => onMember('member2', `/apis/apps/v1/namespaces/${globexId}-default/deployments/web`), 'globex web on member2');
    await acmeIntact();
  });
  after(() => host?.close());

  it('break 1 and 3 through kubectl: a tenant can create, change or delete no binding or Work (403 in tenant terms)', async () => {
    const crb = `apiVersion: work.karmada.io/v1alpha2
kind: ClusterResourceBinding
metadata: { name: evil }
spec:
  resource: { apiVersion: v1, kind: Namespace, name: ${acmeId}-prod }
  clusters: [{ name: member1 }, { name: member2 }]
`;
    const work = `apiVersion: work.karmada.io/v1alpha1
kind: Work
metadata: { name: evil, namespace: karmada-es-member2, labels: { resourcebinding.karmada.io/permanent-id: x } }
spec: { workload: { manifests: [] } }
`;
    const rb = `apiVersion: work.karmada.io/v1alpha2
kind: ResourceBinding
metadata: { name: handmade, namespace: default }
spec:
  resource: { apiVersion: apps/v1, kind: Deployment, namespace: default, name: web }
  clusters: [{ name: member1 }]
`;
    const attempts: Array<[string, string[], string?]> = [
      ['create a ClusterResourceBinding', ['create', '-f', '-'], crb],
      ['create a Work', ['create', '-f', '-'], work],
      ['create a ResourceBinding', ['create', '-f', '-'], rb],
      ['apply a ResourceBinding', ['apply', '-f', '-'], rb],
      ['patch spec.clusters', ['patch', 'rb', 'web-deployment', '-n', 'default', '--type', 'merge', '-p', '{"spec":{"clusters":[{"name":"member1","replicas":1}]}}']],
      ['patch the status', ['patch', 'rb', 'web-deployment', '-n', 'default', '--subresource', 'status', '--type', 'merge', '-p', '{"status":{}}']],
      ['delete a binding', ['delete', 'rb', 'web-deployment', '-n', 'default']],
      ['delete the Works', ['delete', 'works', '--all', '-n', 'karmada-es-member2']],
    ];
    for (const [what, args, stdin] of attempts) {
      const file = stdin ? `${env.root}/attempt.yaml` : undefined;
      if (file) writeFileSync(file, stdin ?? '');
      const r = await env.run('globex', ...args.map((a) => (a === '-' && file ? file : a)));
      assert.notEqual(r.code, 0, `${what}: refused`);
      assert.match(r.stderr, /forbidden/i, `${what}: ${r.stderr}`);
      assert.match(r.stderr, /managed by the propagation engine/, `${what}: says why`);
      assert.doesNotMatch(r.stderr, new RegExp(`${globexId}-|${acmeId}-`), `${what}: no upstream prefix`);
    }
    // kubectl auth can-i agrees, while reads stay open.
    assert.match((await env.run('globex', 'auth', 'can-i', 'patch', 'resourcebindings.work.karmada.io')).stdout, /^no - the resource is managed by the propagation engine/);
    assert.match((await env.run('globex', 'auth', 'can-i', 'delete', 'works.work.karmada.io', '-n', 'karmada-es-member2')).stdout, /^no - the resource is managed by the propagation engine/);
    assert.match(await globex('get', 'rb', '-n', 'default'), /web-deployment/);
    // Nothing of it happened upstream: the binding still names member2 only, no forged objects exist.
    const own = await host!.request<{ spec: { clusters?: Array<{ name: string }> } }>('GET', `/apis/work.karmada.io/v1alpha2/namespaces/${globexId}-default/resourcebindings/web-deployment`);
    assert.deepEqual(own.body.spec.clusters?.map((c) => c.name), ['member2']);
    assert.equal((await host!.request('GET', `/apis/work.karmada.io/v1alpha2/clusterresourcebindings/${globexId}-evil`)).status, 404);
    assert.equal((await host!.request('GET', `/apis/work.karmada.io/v1alpha2/namespaces/${globexId}-default/resourcebindings/handmade`)).status, 404);
    await engineCaughtUp();
    await acmeIntact();
    await nothingOfGlobexOnMember1();
  });

  it('break 1 with the gateway bypassed: forged globex bindings and Works pointing at acme\'s namespace delete nothing', async () => {
    const label = { 'tenancy.warren.dev/tenant': globexId };
    const crbPath = '/apis/work.karmada.io/v1alpha2/clusterresourcebindings';
    // A ClusterResourceBinding of globex's, carrying the engine's finalizer, naming acme's member namespace.
    const crb = await host!.request<KubeObject>('POST', crbPath, {
      apiVersion: 'work.karmada.io/v1alpha2', kind: 'ClusterResourceBinding',
      metadata: { name: `${globexId}-evil-namespace`, labels: label, finalizers: ['warren.dev/propagation'] },
      spec: { resource: { apiVersion: 'v1', kind: 'Namespace', name: `${acmeId}-prod` }, clusters: [{ name: 'member1' }, { name: 'member2' }] },
    });
    assert.equal(crb.status, 201, JSON.stringify(crb.body));
    // A ResourceBinding in globex's namespace naming the same cluster-scoped Namespace (its namespace would not matter).
    const rbPath = `/apis/work.karmada.io/v1alpha2/namespaces/${globexId}-default/resourcebindings`;
    const rb = await host!.request<KubeObject>('POST', rbPath, {
      apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding',
      metadata: { name: 'evil-namespace', labels: label, finalizers: ['warren.dev/propagation'] },
      spec: { resource: { apiVersion: 'v1', kind: 'Namespace', name: `${acmeId}-prod` }, clusters: [{ name: 'member1' }, { name: 'member2' }] },
    });
    assert.equal(rb.status, 201, JSON.stringify(rb.body));
    // Works in globex's execution spaces labelled with those bindings' permanent-ids (labels are no proof).
    const forgedWorks: string[] = [];
    for (const [b, m] of [[crb.body, 'member2'], [rb.body, 'member2'], [crb.body, 'member1']] as const) {
      await host!.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${globexId}-karmada-es-${m}`, labels: label } });
      const w = await host!.request('POST', `/apis/work.karmada.io/v1alpha1/namespaces/${globexId}-karmada-es-${m}/works`, {
        apiVersion: 'work.karmada.io/v1alpha1', kind: 'Work',
        metadata: { generateName: 'evil-', labels: { ...label, 'resourcebinding.karmada.io/permanent-id': b.metadata.uid } },
        spec: { workload: { manifests: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${acmeId}-prod` } }] } },
      });
      assert.equal(w.status, 201, JSON.stringify(w.body));
      forgedWorks.push(`/apis/work.karmada.io/v1alpha1/namespaces/${globexId}-karmada-es-${m}/works/${(w.body as KubeObject).metadata.name ?? ''}`);
    }
    // Delete both: the engine handles their finalizer (it is the only one who removes it) without touching members.
    for (const path of [`${crbPath}/${globexId}-evil-namespace`, `${rbPath}/evil-namespace`]) {
      const del = await host!.request('DELETE', path);
      assert.ok(del.status === 200 || del.status === 202, `${path}: ${del.status}`);
      await eventually(async () => (await host!.request('GET', path)).status === 404, `${path} released by the engine`);
    }
    await engineCaughtUp();
    // The engine did not act on Works it did not write: they are still there, as forged.
    for (const path of forgedWorks) assert.equal((await host!.request('GET', path)).status, 200, `${path} left alone`);
    await acmeIntact();
    await nothingOfGlobexOnMember1();
  });

  it('break 3 with the gateway bypassed: spec.clusters re-pointed at member1, or a hand-written binding for it, puts nothing there', async () => {
    const path = `/apis/work.karmada.io/v1alpha2/namespaces/${globexId}-default/resourcebindings/web-deployment`;
    const patched = await host!.request('PATCH', path, { spec: { clusters: [{ name: 'member1', replicas: 1 }, { name: 'member2', replicas: 1 }] } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    // A hand-written binding (no policy) for a second Deployment of globex's, naming member1 only.
    await env.apply('globex', `apiVersion: v1
kind: ConfigMap
metadata: { name: unclaimed, namespace: default }
data: { a: b }
`, 'unclaimed.yaml');
    const hand = await host!.request('POST', `/apis/work.karmada.io/v1alpha2/namespaces/${globexId}-default/resourcebindings`, {
      apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding',
      metadata: { name: 'unclaimed-configmap', labels: { 'tenancy.warren.dev/tenant': globexId } },
      spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: `${globexId}-default`, name: 'unclaimed' }, clusters: [{ name: 'member1' }] },
    });
    assert.equal(hand.status, 201, JSON.stringify(hand.body));
    // Nothing lands on member1 (checked once the engine has handled globex's later changes), and the binding says why.
    await engineCaughtUp();
    await nothingOfGlobexOnMember1();
    await eventually(async () => {
      const out = await globex('get', 'events', '-n', 'default', '-o', 'json');
      const items = (JSON.parse(out) as { items: Array<{ reason: string; message: string; involvedObject: { name: string } }> }).items;
      return items.some((e) => e.reason === 'ClusterNotAllowed' && e.involvedObject.name === 'unclaimed-configmap' && /member1 is not one of the tenant's clusters/.test(e.message)) ? items : undefined;
    }, 'ClusterNotAllowed on the hand-written binding');
    assert.ok(await onMember('member2', `/apis/apps/v1/namespaces/${globexId}-default/deployments/web`), 'globex keeps its own deployment on member2');
    await acmeIntact();
  });

  it('pod template labels: globex\'s Deployment carrying acme\'s binding uid and Karmada\'s managed mark reaches member2 with neither (the pods a member makes from it carry globex\'s own labels only)', async () => {
    const rb = await host!.request<KubeObject>('GET', `/apis/work.karmada.io/v1alpha2/namespaces/${acmeId}-prod/resourcebindings/settings-configmap`);
    assert.equal(rb.status, 200);
    const acmeUid = rb.body.metadata.uid ?? '';
    const forged = { 'karmada.io/managed': 'true', 'resourcebinding.karmada.io/permanent-id': acmeUid, 'propagation.warren.dev/binding-uid': acmeUid }; // the tenant label itself is refused at the gateway (403)
    const steer = GLOBEX.replaceAll('web', 'steer').replace('template:\n    metadata: { labels: { app: steer } }', `template:\n    metadata: { labels: ${JSON.stringify({ app: 'steer', ...forged })} }`);
    assert.ok(steer.includes(acmeUid), 'the forged labels are in the template globex applies');
    await env.apply('globex', steer, 'steer.yaml');
    const copy = await eventually(() => onMember('member2', `/apis/apps/v1/namespaces/${globexId}-default/deployments/steer`), 'globex steer on member2');
    const labels = ((copy.spec as { template: { metadata?: { labels?: Record<string, string> } } }).template.metadata?.labels) ?? {};
    assert.deepEqual(labels, { app: 'steer', 'tenancy.warren.dev/tenant': globexId }, 'the pod template on member2 carries globex\'s labels only');
  });

  it('break 7: a ClusterRoleBinding never reaches a member; ClusterRoles arrive without aggregation', async () => {
    await env.apply('acme', RBAC, 'rbac.yaml');
    const roles = await eventually(async () => {
      const found = await Promise.all(MEMBERS.flatMap((m) => ['everything', 'collector'].map((n) => onMember(m, `/apis/rbac.authorization.k8s.io/v1/clusterroles/${acmeId}-${n}`))));
      return found.every(Boolean) ? found as KubeObject[] : undefined;
    }, 'acme roles on both members');
    for (const role of roles) {
      const labels = role.metadata.labels ?? {};
      assert.deepEqual(Object.keys(labels).filter((k) => k.startsWith('rbac.authorization.k8s.io/aggregate-to-')), [], `${role.metadata.name}: no aggregation labels`);
      assert.equal((role as { aggregationRule?: unknown }).aggregationRule, undefined, `${role.metadata.name}: no aggregationRule`);
      assert.equal(labels['tenancy.warren.dev/tenant'], acmeId);
    }
    const everything = roles.find((r) => r.metadata.name === `${acmeId}-everything`) as KubeObject & { rules?: unknown };
    assert.deepEqual(everything.rules, [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }], 'its own rules, as written');
    const crb = await eventually(async () => {
      const r = await env.run('acme', 'get', 'crb', 'everything-clusterrolebinding', '-o', 'json');
      const b = r.code === 0 ? JSON.parse(r.stdout) as { status?: { conditions?: Array<{ type: string; status: string; message?: string }> } } : undefined;
      const c = b?.status?.conditions?.find((x) => x.type === 'FullyApplied');
      return c?.status === 'False' ? c : undefined;
    }, 'the ClusterRoleBinding\'s binding says it was not applied');
    assert.match(crb.message ?? '', /ClusterRoleBindings are not propagated to member clusters/);
    for (const m of MEMBERS) {
      const list = await members[m]!.request<KubeList>('GET', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings');
      assert.deepEqual(list.body.items.filter((b) => b.metadata.name?.startsWith(`${acmeId}-`)).map((b) => b.metadata.name), [], `no acme ClusterRoleBinding on ${m}`);
    }
  });
});
