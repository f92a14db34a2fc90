// Boundary: references the host (and members) follow on a tenant's behalf,
// issue 13. Each case is a tenant trying to make the platform act on
// something that is not its own: a CRD conversion webhook the host apiserver
// would call by URL, ownerReferences the host garbage collector would follow
// to another tenant's object or a Node, a PVC bound by name to a volume the
// tenant does not own, DNS names that alias another tenant's Service, a
// server-side apply whose merged result escalates where the applied
// configuration alone does not, NetworkPolicy and pod affinity namespace
// selectors that select every tenant's namespaces, and a ResourceBinding
// reschedule trigger. Every verdict is read on the host (and a member), never
// only from the gateway's answer.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/core/types.ts';
import { PATCH } from '../helpers/kube-http.ts';
import { eventually } from '../helpers/poll.ts';
import { useAdversaryEnv } from './support/adversary-env.ts';
import { assertRefused } from './support/verdicts.ts';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const NETPOL = '/apis/networking.k8s.io/v1';
const TENANT_LABEL = 'tenancy.warren.dev/tenant';
const NAME_LABEL = 'kubernetes.io/metadata.name';
const apply = (manager: string) => `?fieldManager=${manager}&force=true`;

function crd(plural: string, clientConfig: Record<string, unknown>): Record<string, unknown> {
  const kind = plural[0]!.toUpperCase() + plural.slice(1, -1);
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.hooks.example.com` },
    spec: {
      group: 'hooks.example.com', scope: 'Namespaced', names: { plural, singular: plural.slice(0, -1), kind, listKind: `${kind}List` },
      versions: ['v1', 'v2'].map((v, i) => ({ name: v, served: true, storage: i === 0, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } })),
      conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig } },
    },
  };
}

describe('adversarial: references the platform follows (issue 13)', { timeout: 300_000 }, () => {
  const env = useAdversaryEnv('reference-gaps');
  let acmeId = '';
  let globexId = '';
  const globex = () => env.http('globex');
  const acme = () => env.http('acme');
  const hostGet = (path: string) => env.host().request<KubeObject>('GET', path);

  before(async () => {
    acmeId = env.idOf('acme');
    globexId = env.idOf('globex');
    await env.as('acme')('create', 'namespace', 'shop');
    await env.as('globex')('create', 'namespace', 'app');
  });

  it('1: a CRD conversion webhook by URL is refused in tenant terms, by POST, merge patch and apply; nothing stored on the host', async () => {
    const url = { url: 'https://169.254.169.254/latest/meta-data' };
    assertRefused(await globex().post(CRDS, crd('urlhooks', url)), 422, 'CRD with a conversion webhook URL', [globexId, acmeId]);
    assert.equal((await hostGet(`${CRDS}/urlhooks.${globexId}-hooks.example.com`)).status, 404, 'the URL CRD is not on the host');
    // An existing CRD whose webhook is a Service of its own, turned into a URL by patch and by apply.
    const own = await globex().post(CRDS, crd('svchooks', { service: { namespace: 'app', name: 'hook', path: '/convert' } }));
    assert.equal(own.status, 201, `a service webhook in the tenant's own namespace is fine: ${own.text.slice(0, 300)}`);
    const stored = await hostGet(`${CRDS}/svchooks.${globexId}-hooks.example.com`);
    assert.equal((stored.body.spec as any).conversion.webhook.clientConfig.service.namespace, `${globexId}-app`, 'the service namespace is translated');
    const patch = { spec: { conversion: { webhook: { clientConfig: { service: null, ...url } } } } };
    assertRefused(await globex().patch(`${CRDS}/svchooks.hooks.example.com`, PATCH.merge, patch), 422, 'merge patch to a URL', [globexId]);
    const applied = crd('svchooks', url);
    assertRefused(await globex().patch(`${CRDS}/svchooks.hooks.example.com${apply('evil')}`, PATCH.apply, JSON.stringify(applied)), 422, 'apply of a URL', [globexId]);
    const after = await hostGet(`${CRDS}/svchooks.${globexId}-hooks.example.com`);
    assert.equal((after.body.spec as any).conversion.webhook.clientConfig.url, undefined, 'no URL on the host');
  });

  it('2: ownerReferences to a Node, a PV or another tenant\'s uid under an existing name are refused; a dangling one is collected; the tenant\'s own is kept', async () => {
    await env.as('acme')('create', 'configmap', 'victim', '-n', 'shop', '--from-literal=a=b');
    const victim = await hostGet(`/api/v1/namespaces/${acmeId}-shop/configmaps/victim`);
    await env.as('globex')('create', 'configmap', 'owner', '-n', 'app', '--from-literal=a=b');
    const owner = await globex().get('/api/v1/namespaces/app/configmaps/owner');
    const cm = (name: string, ownerReferences: unknown[]) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ownerReferences }, data: { x: 'y' } });
    const attempts: Array<[string, unknown[]]> = [
      ['own-node', [{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: '3c1e6c2e-0000-4000-8000-000000000001' }]],
      ['own-foreign-uid', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: victim.body.metadata.uid, blockOwnerDeletion: true }]],
      ['own-pv', [{ apiVersion: 'v1', kind: 'PersistentVolume', name: 'pv-1', uid: '3c1e6c2e-0000-4000-8000-000000000002' }]],
    ];
    for (const [name, refs] of attempts) {
      const res = await globex().post('/api/v1/namespaces/app/configmaps', cm(name, refs));
      assert.ok(res.status === 403 || res.status === 422, `${name}: refused, got ${res.status}: ${res.text.slice(0, 300)}`);
      assertRefused(res, res.status, name, [globexId, acmeId]);
      assert.equal((await hostGet(`/api/v1/namespaces/${globexId}-app/configmaps/${name}`)).status, 404, `${name}: not on the host`);
    }
    // The same forged uid added later, by merge patch, onto an existing object.
    await env.as('globex')('create', 'configmap', 'later', '-n', 'app', '--from-literal=a=b');
    const patched = await globex().patch('/api/v1/namespaces/app/configmaps/later', PATCH.merge, { metadata: { ownerReferences: attempts[1]![1] } });
    assert.ok(patched.status === 403 || patched.status === 422, `patch: refused, got ${patched.status}`);
    assert.equal((await hostGet(`/api/v1/namespaces/${globexId}-app/configmaps/later`)).body.metadata.ownerReferences, undefined, 'no forged owner on the host');
    // acme's name and uid, dangling in globex's namespace: accepted as kube accepts a dangling reference
    // (behaviour change, issue 13), and the host's collector, which looks owners up by namespace, name
    // and uid, deletes globex's dependent; acme's object and its foreground deletion are untouched.
    const dangling = await globex().post('/api/v1/namespaces/app/configmaps', cm('own-foreign-name', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'victim', uid: victim.body.metadata.uid, blockOwnerDeletion: true }]));
    assert.equal(dangling.status, 201, `dangling owner: ${dangling.text.slice(0, 300)}`);
    await eventually(async () => (await hostGet(`/api/v1/namespaces/${globexId}-app/configmaps/own-foreign-name`)).status === 404, 'the collector deletes the dangling dependent');
    const after = await hostGet(`/api/v1/namespaces/${acmeId}-shop/configmaps/victim`);
    assert.equal(after.body.metadata.uid, victim.body.metadata.uid, 'acme\'s object is untouched');
    // The tenant's own owner, with its own uid, is what kube allows.
    const fine = await globex().post('/api/v1/namespaces/app/configmaps', cm('owned', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.body.metadata.uid }]));
    assert.equal(fine.status, 201, `own owner: ${fine.text.slice(0, 300)}`);
  });

  it('3: a PVC may not bind by name to a volume it does not own, on create, update, patch or apply', async () => {
    const pv = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 's5-released-data' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/s5-released' }, storageClassName: '' } };
    assert.ok([201, 409].includes((await env.host().request('POST', '/api/v1/persistentvolumes', pv)).status), 'the platform\'s PV');
    const claim = (name: string, volumeName?: string) => ({
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name },
      spec: { accessModes: ['ReadWriteOnce'], storageClassName: '', resources: { requests: { storage: '1Gi' } }, ...(volumeName ? { volumeName } : {}) },
    });
    const created = await globex().post('/api/v1/namespaces/app/persistentvolumeclaims', claim('grab', 's5-released-data'));
    assert.ok(created.status === 403 || created.status === 422, `create with volumeName: ${created.status}`);
    assert.equal((await globex().post('/api/v1/namespaces/app/persistentvolumeclaims', claim('pending'))).status, 201);
    const path = '/api/v1/namespaces/app/persistentvolumeclaims/pending';
    const current = (await globex().get(path)).body as KubeObject;
    const attempts: Array<[string, () => Promise<{ status: number; text: string; body: any; headers: any }>]> = [
      ['PUT', () => globex().put(path, { ...current, spec: { ...(current.spec as object), volumeName: 's5-released-data' } })],
      ['merge patch', () => globex().patch(path, PATCH.merge, { spec: { volumeName: 's5-released-data' } })],
      ['json patch', () => globex().patch(path, PATCH.json, [{ op: 'add', path: '/spec/volumeName', value: 's5-released-data' }])],
      ['apply', () => globex().patch(`${path}${apply('evil')}`, PATCH.apply, JSON.stringify(claim('pending', 's5-released-data')))],
    ];
    for (const [what, attempt] of attempts) {
      const res = await attempt();
      assert.ok(res.status === 403 || res.status === 422, `${what}: refused, got ${res.status}: ${res.text.slice(0, 300)}`);
      assertRefused(res, res.status, what, [globexId]);
    }
    const host = await hostGet(`/api/v1/namespaces/${globexId}-app/persistentvolumeclaims/pending`);
    assert.equal((host.body.spec as any).volumeName, undefined, 'the claim is not bound to the platform\'s volume on the host');
    assert.equal((await hostGet(`/api/v1/namespaces/${globexId}-app/persistentvolumeclaims/grab`)).status, 404);
    // A label edit of the claim still works (the refusal is about the volume, not every write).
    assert.equal((await globex().patch(path, PATCH.merge, { metadata: { labels: { tier: 'db' } } })).status, 200);
  });

  it('4: a Service ExternalName or a pod DNS search into another tenant\'s namespace is refused; the tenant\'s own names are translated', async () => {
    const svc = (name: string, externalName: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { type: 'ExternalName', externalName } });
    const foreign = [
      ['ext-svc', `web.${acmeId}-shop.svc.cluster.local`],
      ['ext-pod', `10-0-0-7.${acmeId}-shop.pod.cluster.local`],
      ['ext-host', `db-0.db.${acmeId}-shop.svc.cluster.local`],
      ['ext-system', 'kube-dns.kube-system.svc.cluster.local'],
    ];
    for (const [name, externalName] of foreign) {
      // `kube-system` in the tenant's spelling is its own namespace: translated, never the host's.
      const res = await globex().post('/api/v1/namespaces/app/services', svc(name!, externalName!));
      const host = await hostGet(`/api/v1/namespaces/${globexId}-app/services/${name}`);
      if (host.status === 200) {
        const stored = String((host.body.spec as any).externalName);
        assert.ok(stored.includes(`.${globexId}-`), `${name}: stored as ${stored}, outside globex`);
      } else {
        assert.ok(res.status === 403 || res.status === 422, `${name}: refused, got ${res.status}`);
        assertRefused(res, res.status, name!, [globexId, acmeId].filter((id) => !externalName!.includes(id)));
      }
    }
    const own = await globex().post('/api/v1/namespaces/app/services', svc('ext-own', 'db-0.db.app.svc.cluster.local'));
    assert.equal(own.status, 201, own.text.slice(0, 300));
    assert.equal((own.body.spec as any).externalName, 'db-0.db.app.svc.cluster.local', 'the tenant sees its own spelling');
    assert.equal(((await hostGet(`/api/v1/namespaces/${globexId}-app/services/ext-own`)).body.spec as any).externalName, `db-0.db.${globexId}-app.svc.cluster.local`);
    // Pod DNS: a search domain in another tenant's namespace is refused, the tenant's own is translated.
    const pod = (name: string, searches: string[]) => ({
      apiVersion: 'v1', kind: 'Pod', metadata: { name },
      spec: {
        securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } },
        containers: [{ name: 'c', image: 'busybox', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
        dnsConfig: { searches }, hostAliases: [{ ip: '10.0.0.1', hostnames: ['db.local'] }],
      },
    });
    // The other tenant's upstream spelling is, in globex's terms, a namespace of globex's own: stored so, or refused.
    const bad = await globex().post('/api/v1/namespaces/app/pods', pod('dns-foreign', [`${acmeId}-shop.svc.cluster.local`]));
    const badHost = await hostGet(`/api/v1/namespaces/${globexId}-app/pods/dns-foreign`);
    if (badHost.status === 200) assert.deepEqual((badHost.body.spec as any).dnsConfig.searches, [`${globexId}-${acmeId}-shop.svc.cluster.local`]);
    else assert.ok(bad.status === 403 || bad.status === 422, `foreign search: ${bad.status} ${bad.text.slice(0, 200)}`);
    const good = await globex().post('/api/v1/namespaces/app/pods', pod('dns-own', ['app.svc.cluster.local', 'example.com']));
    assert.equal(good.status, 201, good.text.slice(0, 300));
    const hostPod = await hostGet(`/api/v1/namespaces/${globexId}-app/pods/dns-own`);
    assert.deepEqual((hostPod.body.spec as any).dnsConfig.searches, [`${globexId}-app.svc.cluster.local`, 'example.com']);
    assert.deepEqual((good.body.spec as any).dnsConfig.searches, ['app.svc.cluster.local', 'example.com']);
  });

  it('5: server-side apply is judged on the merged object: a label-only apply may not aggregate a ClusterRole the caller could not write', async () => {
    await env.apply('acme', `
apiVersion: v1
kind: Namespace
metadata: { name: team }
---
apiVersion: v1
kind: Secret
metadata: { name: keys, namespace: team }
stringData: { token: "alice's" }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: ops }
rules: [{ apiGroups: [""], resources: [secrets], verbs: [get, list] }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: ops-labeler }
rules: [{ apiGroups: [rbac.authorization.k8s.io], resources: [clusterroles], resourceNames: [ops], verbs: [get, patch] }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: bob-ops-labeler }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: ops-labeler }
subjects: [{ kind: User, name: bob, apiGroup: rbac.authorization.k8s.io }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: bob-view, namespace: team }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view }
subjects: [{ kind: User, name: bob, apiGroup: rbac.authorization.k8s.io }]
`, 'ssa-grants.yaml');
    const bob = env.http('acme', await env.issueUser('acme', 'bob'));
    const aggregate = { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' };
    // kube judges the whole new object: bob does not hold `ops`' rules, so he may not write it at all.
    assertRefused(await bob.patch(`${RBAC}/clusterroles/ops`, PATCH.merge, { metadata: { labels: aggregate } }), 403, 'merge patch by bob', [acmeId]);
    const res = await bob.patch(`${RBAC}/clusterroles/ops${apply('bob')}`, PATCH.apply,
      JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'ops', labels: aggregate } }));
    assertRefused(res, 403, 'label-only apply by bob', [acmeId]);
    const host = await hostGet(`${RBAC}/clusterroles/${acmeId}-ops`);
    assert.equal(host.body.metadata.labels?.['rbac.authorization.k8s.io/aggregate-to-view'], undefined, 'the aggregation label is not on the host');
    assert.equal((await bob.get('/api/v1/namespaces/team/secrets/keys')).status, 403, 'bob cannot read secrets');
    // The merged result is what the guard, the admitters and the upstream all see: alice's own apply still works.
    const alice = await acme().patch(`${RBAC}/clusterroles/ops${apply('alice')}`, PATCH.apply,
      JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'ops', labels: { owner: 'alice' } } }));
    assert.equal(alice.status, 200, alice.text.slice(0, 300));
    assert.deepEqual((alice.body as any).rules, [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }], 'merged: the rules another manager owns are kept');
  });

  it('6: NetworkPolicy and pod affinity namespace selectors select only the tenant\'s own namespaces, on the host and on the member (pod templates)', async () => {
    await env.apply('globex', `
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: { name: open, namespace: app }
spec:
  podSelector: {}
  policyTypes: [Ingress, Egress]
  ingress:
    - from: [{ namespaceSelector: {} }, { namespaceSelector: { matchLabels: { team: web } }, podSelector: { matchLabels: { app: fe } } }, { podSelector: {} }]
  egress:
    - to: [{ namespaceSelector: { matchExpressions: [{ key: ${NAME_LABEL}, operator: In, values: [app, db] }] } }]
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: affine, namespace: app }
spec:
  replicas: 1
  selector: { matchLabels: { app: affine } }
  template:
    metadata: { labels: { app: affine } }
    spec:
      securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: RuntimeDefault } }
      containers: [{ name: c, image: busybox, securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: [ALL] } } }]
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - topologyKey: kubernetes.io/hostname
              labelSelector: { matchLabels: { app: affine } }
              namespaceSelector: {}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: affine, namespace: app }
spec:
  resourceSelectors: [{ apiVersion: apps/v1, kind: Deployment, name: affine }]
  placement: { clusterAffinity: { clusterNames: [member2] } }
`, 'netpol.yaml');
    const check = (obj: KubeObject, where: string) => {
      const spec = obj.spec as any;
      const peers = [...spec.ingress.flatMap((r: any) => r.from), ...spec.egress.flatMap((r: any) => r.to)];
      for (const peer of peers) {
        if (peer.namespaceSelector === undefined) continue;
        assert.equal(peer.namespaceSelector.matchLabels?.[TENANT_LABEL], globexId, `${where}: ${JSON.stringify(peer)} selects beyond globex`);
      }
      const names = spec.egress[0].to[0].namespaceSelector.matchExpressions[0].values;
      assert.deepEqual(names, [`${globexId}-app`, `${globexId}-db`], `${where}: namespace names in selectors are the upstream ones`);
      assert.deepEqual(spec.ingress[0].from[2], { podSelector: {} }, `${where}: a podSelector-only peer stays in the namespace`);
    };
    check((await hostGet(`${NETPOL}/namespaces/${globexId}-app/networkpolicies/open`)).body, 'host');
    // The engine does not propagate NetworkPolicies (not a template kind); pod templates do travel, as the host holds
    // them: on member2 the anti-affinity selector is the narrowed one, and globex's namespace there carries the
    // tenant label it needs to still match globex's own namespaces.
    const member = await eventually(async () => {
      const r = await env.member('member2').request<KubeObject>('GET', `/apis/apps/v1/namespaces/${globexId}-app/deployments/affine`);
      return r.status === 200 ? r.body : undefined;
    }, 'globex\'s Deployment on member2', { timeoutMs: 60_000 });
    const memberTerm = (member.spec as any).template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0];
    assert.deepEqual(memberTerm.namespaceSelector, { matchLabels: { [TENANT_LABEL]: globexId } }, 'member2: the empty selector is narrowed to globex');
    const memberNs = await env.member('member2').request<KubeObject>('GET', `/api/v1/namespaces/${globexId}-app`);
    assert.equal(memberNs.body.metadata.labels?.[TENANT_LABEL], globexId, 'member2: globex\'s namespace carries the tenant label');
    // The tenant reads back what it wrote.
    const view = (await globex().get(`${NETPOL}/namespaces/app/networkpolicies/open`)).body as any;
    assert.deepEqual(view.spec.ingress[0].from[0], { namespaceSelector: {} });
    assert.deepEqual(view.spec.egress[0].to[0].namespaceSelector.matchExpressions[0].values, ['app', 'db']);
    assert.ok(!JSON.stringify(view).includes(TENANT_LABEL), 'no tenant label in the tenant view');
    // Pod affinity by namespace name: the upstream name label value, AND the tenant label.
    const pod = {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'affine' },
      spec: {
        securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } },
        containers: [{ name: 'c', image: 'busybox', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
        affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'db' } }, namespaceSelector: { matchLabels: { [NAME_LABEL]: 'app' } } }] } },
      },
    };
    const created = await globex().post('/api/v1/namespaces/app/pods', pod);
    assert.equal(created.status, 201, created.text.slice(0, 300));
    const hostPod = (await hostGet(`/api/v1/namespaces/${globexId}-app/pods/affine`)).body as any;
    const selector = hostPod.spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespaceSelector;
    assert.deepEqual(selector.matchLabels, { [NAME_LABEL]: `${globexId}-app`, [TENANT_LABEL]: globexId });
    assert.deepEqual((created.body as any).spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespaceSelector, { matchLabels: { [NAME_LABEL]: 'app' } });
  });

  it('7: a tenant cannot trigger a reschedule by writing its ResourceBinding (read-only, ADR 19)', async () => {
    const path = '/apis/work.karmada.io/v1alpha2/namespaces/app/resourcebindings/affine-deployment';
    await eventually(async () => (await globex().get(path)).status === 200, 'the Deployment\'s binding');
    const before = await hostGet(`/apis/work.karmada.io/v1alpha2/namespaces/${globexId}-app/resourcebindings/affine-deployment`);
    for (const [type, body] of [[PATCH.merge, { spec: { rescheduleTriggeredAt: '2026-01-01T00:00:00Z' } }], [PATCH.json, [{ op: 'add', path: '/spec/rescheduleTriggeredAt', value: '2026-01-01T00:00:00Z' }]]] as const) {
      assertRefused(await globex().patch(path, type, body), 403, `patch ${type}`, [globexId]);
    }
    const after = await hostGet(`/apis/work.karmada.io/v1alpha2/namespaces/${globexId}-app/resourcebindings/affine-deployment`);
    assert.equal((after.body.spec as any).rescheduleTriggeredAt, (before.body.spec as any).rescheduleTriggeredAt);
  });
});
