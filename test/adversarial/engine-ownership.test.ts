// Boundary: engine ownership on members, and member RBAC scope. Bindings and
// Works are the engine's: a tenant reads them, never writes them (403), and
// whatever a tenant writes, the engine touches on a member only what carries
// that tenant's own markers, on the members the Tenant allows. Every verdict is
// read on the member itself.
//   break 1: globex steers a hand-made ClusterResourceBinding (with a Work
//            carrying its permanent-id, re-pointed by a PUT without apiVersion)
//            at acme's namespace on member2, then deletes it;
//   break 3: globex (allowed member2 only) patches its binding to member1;
//   break 7: globex's ClusterRole */*/* and its ClusterRoleBinding, propagated,
//            must not become cluster-wide grants (or aggregation) on the member.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeList, KubeObject } from '../../src/core/types.ts';
import { PATCH } from '../helpers/kube-http.ts';
import { eventually } from '../helpers/poll.ts';
import { useAdversaryEnv } from './support/adversary-env.ts';
import { assertKubectlForbidden, assertRefused, consistently, waitAtMost } from './support/verdicts.ts';
import { WORK_API, BINDING_API, PERMANENT_ID, TENANT_LABEL, ACME_SHOP, GLOBEX_APP, configMapPolicy } from './support/engine-attack.ts';

// GLOBEX_APP asks for both members; globex's Tenant allows member2 only.

// Applied only after break 1 has been tried: once the engine watches Namespaces on member2, its
// own ownership check happens to save acme there, and the attack would prove nothing.
const GLOBEX_APP_EVERYWHERE = `
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: { name: app-everywhere }
spec:
  resourceSelectors: [{ apiVersion: v1, kind: Namespace, name: app }]
  placement: { clusterAffinity: { clusterNames: [member1, member2] } }
`;

const GLOBEX_GOD = `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: god
  labels: { rbac.authorization.k8s.io/aggregate-to-admin: "true", rbac.authorization.k8s.io/aggregate-to-edit: "true" }
rules:
- { apiGroups: ["*"], resources: ["*"], verbs: ["*"] }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: god }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: god }
# No ServiceAccount subject: the gateway refuses a ClusterRoleBinding to one (write-path tests); what is
# left here is what a tenant can store and propagate.
subjects:
- { kind: User, name: hank, apiGroup: rbac.authorization.k8s.io }
- { kind: Group, name: system:authenticated, apiGroup: rbac.authorization.k8s.io }
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: { name: god }
spec:
  resourceSelectors:
  - { apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: god }
  - { apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRoleBinding, name: god }
  placement: { clusterAffinity: { clusterNames: [member2] } }
`;

describe('adversarial: engine ownership and member scope', { timeout: 240_000 }, () => {
  const env = useAdversaryEnv('engine');
  let acmeId = '';
  let globexId = '';
  /** acme's namespace on member2 and the member-local ConfigMap in it, as they were before any attack. */
  let acmeNamespaceUid = '';
  let localConfigMapUid = '';

  const onMember = async (member: string, path: string): Promise<KubeObject | undefined> => {
    const res = await env.member(member).request<KubeObject>('GET', path);
    return res.status === 200 ? res.body : undefined;
  };
  const globexBinding = async (): Promise<KubeObject> => {
    const res = await env.http('globex').get(`${BINDING_API}/namespaces/app/resourcebindings/cfg-configmap`);
    assert.equal(res.status, 200, `globex reads its own binding: ${res.text}`);
    return res.body as KubeObject;
  };

  before(async () => {
    acmeId = env.idOf('acme');
    globexId = env.idOf('globex');
    await env.apply('acme', ACME_SHOP, 'acme-shop.yaml');
    await env.apply('globex', GLOBEX_APP, 'globex-app.yaml');
    const ns = await eventually(() => onMember('member2', `/api/v1/namespaces/${acmeId}-shop`), 'acme\'s shop namespace on member2');
    await eventually(() => onMember('member2', `/api/v1/namespaces/${acmeId}-shop/configmaps/settings`), 'acme\'s settings on member2');
    // A member-local object: the engine never made it, so no binding of anyone may remove it.
    const local = await env.member('member2').request<KubeObject>('POST', `/api/v1/namespaces/${acmeId}-shop/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'local' }, data: { keep: 'me' } });
    assert.equal(local.status, 201, JSON.stringify(local.body));
    acmeNamespaceUid = ns.metadata.uid ?? '';
    localConfigMapUid = local.body.metadata.uid ?? '';
    await eventually(() => onMember('member2', `/api/v1/namespaces/${globexId}-app/configmaps/cfg`), 'globex\'s cfg on member2');
    await eventually(async () => (await env.http('globex').get(`${BINDING_API}/namespaces/app/resourcebindings/cfg-configmap`)).status === 200, 'globex\'s binding cfg-configmap');
    // The engine's Work for cfg: the execution space karmada-es-member2 exists for globex from here on.
    await eventually(async () => ((await env.http('globex').get(`${WORK_API}/namespaces/karmada-es-member2/works`)).body as KubeList | undefined)?.items?.length, 'globex\'s Work in karmada-es-member2');
  });

  it('break 1: the binding-steering chain leaves acme\'s namespace and its member-local ConfigMap on member2', async () => {
    const globex = env.http('globex');
    // 1. A ClusterResourceBinding of globex's own, with the engine's finalizer so its deletion is processed.
    const created = await globex.post(`${BINDING_API}/clusterresourcebindings`, {
      apiVersion: 'work.karmada.io/v1alpha2', kind: 'ClusterResourceBinding',
      metadata: { name: 'steer', finalizers: ['warren.dev/propagation'] },
      spec: { resource: { apiVersion: 'v1', kind: 'Namespace', name: 'decoy' } },
    });
    const uid = (created.body as KubeObject | undefined)?.metadata?.uid ?? 'no-uid';
    // 2. A Work in the member2 execution space that claims to belong to it.
    await globex.post(`${WORK_API}/namespaces/karmada-es-member2/works`, {
      apiVersion: 'work.karmada.io/v1alpha1', kind: 'Work', metadata: { name: 'steer', labels: { [PERMANENT_ID]: uid } }, spec: { workload: { manifests: [] } },
    });
    // 3. Re-point it at acme's member namespace with a body that has no apiVersion (upstream names, tenant label, finalizer).
    const path = `${BINDING_API}/clusterresourcebindings/steer`;
    const seen = await globex.get(path);
    if (seen.status === 200) {
      const { apiVersion: _a, ...body } = seen.body as KubeObject;
      await globex.put(path, {
        ...body,
        metadata: { ...body.metadata, name: `${globexId}-steer`, labels: { [TENANT_LABEL]: globexId }, finalizers: ['warren.dev/propagation'] },
        spec: { resource: { apiVersion: 'v1', kind: 'Namespace', name: `${acmeId}-shop` } },
      });
    }
    // 4. Delete it, and give the engine the time to act on the deletion (the binding goes once its finalizer is released).
    await globex.delete(path);
    await waitAtMost(async () => (await env.host().request('GET', `${BINDING_API}/clusterresourcebindings/${globexId}-steer`)).status === 404, 20_000);

    await consistently(async () => {
      const ns = await onMember('member2', `/api/v1/namespaces/${acmeId}-shop`);
      if (!ns || ns.metadata.uid !== acmeNamespaceUid) return `acme's namespace on member2 was deleted (${ns ? 'recreated' : 'gone'})`;
      if (ns.metadata.deletionTimestamp) return 'acme\'s namespace on member2 is terminating';
      const local = await onMember('member2', `/api/v1/namespaces/${acmeId}-shop/configmaps/local`);
      if (local?.metadata.uid !== localConfigMapUid) return 'the member-local ConfigMap in acme\'s namespace is gone';
      return undefined;
    }, 'acme\'s objects on member2 after globex\'s attack');
  });

  it('break 1/3: a tenant cannot create ResourceBindings, ClusterResourceBindings or Works (403), and none is stored', async () => {
    const globex = env.http('globex');
    const rb = await globex.post(`${BINDING_API}/namespaces/app/resourcebindings`, {
      apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding', metadata: { name: 'hand-made' },
      spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'app', name: 'cfg' }, clusters: [{ name: 'member1' }] },
    });
    const crb = await globex.post(`${BINDING_API}/clusterresourcebindings`, {
      apiVersion: 'work.karmada.io/v1alpha2', kind: 'ClusterResourceBinding', metadata: { name: 'hand-made' },
      spec: { resource: { apiVersion: 'v1', kind: 'Namespace', name: 'app' }, clusters: [{ name: 'member1' }] },
    });
    const work = await globex.post(`${WORK_API}/namespaces/karmada-es-member2/works`, {
      apiVersion: 'work.karmada.io/v1alpha1', kind: 'Work', metadata: { name: 'hand-made' }, spec: { workload: { manifests: [] } },
    });
    const host = env.host();
    const stored = {
      rb: (await host.request('GET', `${BINDING_API}/namespaces/${globexId}-app/resourcebindings/hand-made`)).status,
      crb: (await host.request('GET', `${BINDING_API}/clusterresourcebindings/${globexId}-hand-made`)).status,
      work: (await host.request('GET', `${WORK_API}/namespaces/${globexId}-karmada-es-member2/works/hand-made`)).status,
    };
    assertRefused(rb, 403, 'create ResourceBinding', [globexId, acmeId]);
    assertRefused(crb, 403, 'create ClusterResourceBinding', [globexId, acmeId]);
    assertRefused(work, 403, 'create Work', [globexId, acmeId]);
    assert.deepEqual(stored, { rb: 404, crb: 404, work: 404 }, 'nothing hand-made is stored on the host');
  });

  it('break 3: a tenant cannot patch, update or delete the engine\'s binding or Work (403); the host keeps member2 only', async () => {
    const r = await env.run('globex', 'patch', 'rb', 'cfg-configmap', '-n', 'app', '--type', 'merge', '-p', '{"spec":{"clusters":[{"name":"member1"}]}}');
    assertKubectlForbidden(r, 'kubectl patch rb to member1');
    const globex = env.http('globex');
    const path = `${BINDING_API}/namespaces/app/resourcebindings/cfg-configmap`;
    const current = await globexBinding();
    const steered = { ...current, spec: { ...(current.spec as object), clusters: [{ name: 'member1' }] } };
    assertRefused(await globex.put(path, steered), 403, 'PUT binding to member1', [globexId]);
    const { apiVersion: _dropped, ...bare } = steered;
    assertRefused(await globex.put(path, bare), 403, 'PUT binding without apiVersion', [globexId]);
    assertRefused(await globex.patch(path, PATCH.json, [{ op: 'add', path: '/spec/clusters/-', value: { name: 'member1' } }]), 403, 'JSON patch binding', [globexId]);
    assertRefused(await globex.patch(`${path}/status`, PATCH.merge, { status: { aggregatedStatus: [] } }), 403, 'patch binding status', [globexId]);
    const works = await globex.get(`${WORK_API}/namespaces/karmada-es-member2/works`);
    const engineWork = (works.body as KubeList).items.find((w) => w.metadata.name?.startsWith('cfg-'));
    assert.ok(engineWork, `the engine's Work for cfg is visible to globex: ${works.text.slice(0, 300)}`);
    assertRefused(await globex.delete(`${WORK_API}/namespaces/karmada-es-member2/works/${engineWork.metadata.name}`), 403, 'delete the engine\'s Work', [globexId]);
    assertRefused(await globex.delete(path), 403, 'delete the engine\'s binding', [globexId]);

    const upstream = await env.host().request<KubeObject>('GET', `${BINDING_API}/namespaces/${globexId}-app/resourcebindings/cfg-configmap`);
    assert.equal(upstream.status, 200, 'the binding is still on the host');
    assert.equal(upstream.body.metadata.deletionTimestamp, undefined, 'and not being deleted');
    assert.deepEqual((upstream.body.spec as { clusters?: Array<{ name: string }> }).clusters?.map((c) => c.name), ['member2'], 'the host binding still targets member2 only');
  });

  it('break 3: whatever globex attempts, nothing of globex appears on member1', async () => {
    const globex = env.http('globex');
    // A hand-written binding targeting member1, also as a PUT without apiVersion over the engine's binding.
    await globex.post(`${BINDING_API}/namespaces/app/resourcebindings`, {
      apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding', metadata: { name: 'to-member1', finalizers: ['warren.dev/propagation'] },
      spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'app', name: 'cfg' }, clusters: [{ name: 'member1' }] },
    });
    const current = await globexBinding();
    const { apiVersion: _a, ...bare } = current;
    await globex.put(`${BINDING_API}/namespaces/app/resourcebindings/cfg-configmap`, { ...bare, spec: { ...(current.spec as object), clusters: [{ name: 'member1' }, { name: 'member2' }] } });
    await env.apply('globex', GLOBEX_APP_EVERYWHERE, 'globex-app-everywhere.yaml');
    // The positive control: globex's own namespace did land where it is allowed to.
    await eventually(() => onMember('member2', `/api/v1/namespaces/${globexId}-app`), 'globex\'s app namespace on member2');

    const lists = ['/api/v1/namespaces', '/api/v1/configmaps', '/apis/rbac.authorization.k8s.io/v1/clusterroles', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', '/apis/apps/v1/deployments'];
    await consistently(async () => {
      for (const list of lists) {
        const res = await env.member('member1').request<KubeList>('GET', list);
        const found = res.body.items.filter((o) => o.metadata.labels?.[TENANT_LABEL] === globexId || (o.metadata.namespace ?? o.metadata.name ?? '').startsWith(`${globexId}-`));
        if (found.length > 0) return `member1 holds ${found.map((o) => `${list} ${o.metadata.namespace ?? ''}/${o.metadata.name}`).join(', ')}`;
      }
      return undefined;
    }, 'globex on member1');
  });

  it('issue 13 item 1: a template and an override carrying acme\'s binding marks reach member2 with globex\'s marks only', async () => {
    const acmeBinding = await env.http('acme').get(`${BINDING_API}/namespaces/shop/resourcebindings/settings-configmap`);
    assert.equal(acmeBinding.status, 200, acmeBinding.text);
    const acmeUid = (acmeBinding.body as KubeObject).metadata.uid ?? '';
    assert.ok(acmeUid);
    // Every key Karmada or Warren reads, with acme's values: its binding uid, its namespace, its policy and Work names.
    const forged = {
      [PERMANENT_ID]: acmeUid, 'clusterresourcebinding.karmada.io/permanent-id': acmeUid, 'karmada.io/managed': 'false',
      'propagationpolicy.karmada.io/name': 'settings', 'propagationpolicy.karmada.io/namespace': 'shop', 'work.karmada.io/name': 'settings-configmap',
    };
    const created = await env.http('globex').post('/api/v1/namespaces/app/configmaps', {
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'steer', labels: forged, annotations: { ...forged, 'resourcebinding.karmada.io/namespace': 'shop' } }, data: { owner: 'globex' },
    });
    assert.equal(created.status, 201, created.text);
    const steer = { name: 'steer', namespace: 'app' };
    await env.apply('globex', [
      configMapPolicy('PropagationPolicy', steer, '  placement: { clusterAffinity: { clusterNames: [member2] } }'),
      // (the tenant label in an overrider is refused by the gateway: 403 'set by the platform')
      configMapPolicy('OverridePolicy', steer, `  overrideRules: [{ overriders: { labelsOverrider: [{ operator: add, value: { ${JSON.stringify(PERMANENT_ID)}: ${JSON.stringify(acmeUid)} } }] } }]`),
    ].join('---\n'), 'globex-steer.yaml');
    const copy = await eventually(() => onMember('member2', `/api/v1/namespaces/${globexId}-app/configmaps/steer`), 'globex\'s steer on member2');
    const own = await eventually(async () => {
      const res = await env.http('globex').get(`${BINDING_API}/namespaces/app/resourcebindings/steer-configmap`);
      return res.status === 200 ? (res.body as KubeObject).metadata.uid : undefined;
    }, 'globex\'s binding steer-configmap');
    const labels = copy.metadata.labels ?? {};
    assert.equal(labels[PERMANENT_ID], own, 'the copy carries globex\'s binding uid');
    assert.equal(labels[TENANT_LABEL], globexId);
    assert.equal(labels['karmada.io/managed'], 'true');
    for (const [key, value] of [...Object.entries(labels), ...Object.entries(copy.metadata.annotations ?? {})]) {
      assert.ok(!/karmada\.io\/|warren\.dev\//.test(key) || (value !== acmeUid && value !== acmeId && value !== 'shop' && value !== 'settings' && value !== 'settings-configmap'),
        `the member copy carries ${key}=${value}, acme's`);
    }
    const settings = await onMember('member2', `/api/v1/namespaces/${acmeId}-shop/configmaps/settings`);
    assert.equal(settings?.metadata.labels?.[PERMANENT_ID], acmeUid, 'acme\'s copy is still acme\'s binding\'s');
    assert.deepEqual(settings?.data, { owner: 'acme' });
  });

  it('break 7: a propagated ClusterRole */*/* and ClusterRoleBinding grant nothing cluster-wide on the member, and aggregate nowhere', async () => {
    await env.apply('globex', GLOBEX_GOD, 'globex-god.yaml');
    // The engine has judged the ClusterRoleBinding once its binding has a status (applied or refused).
    await waitAtMost(async () => {
      const list = await env.host().request<KubeList>('GET', `${BINDING_API}/clusterresourcebindings`);
      const b = list.body.items.find((i) => i.metadata.labels?.[TENANT_LABEL] === globexId && (i.spec as { resource?: { kind?: string } }).resource?.kind === 'ClusterRoleBinding');
      return (b?.status as { conditions?: unknown[] } | undefined)?.conditions !== undefined;
    }, 30_000);
    const mentionsGlobex = (s: { kind?: string; name?: string; namespace?: string }): boolean =>
      (s.name ?? '').includes(globexId) || (s.namespace ?? '').startsWith(`${globexId}-`) || (s.kind === 'Group' && /^system:(authenticated|serviceaccounts)$/.test(s.name ?? ''));
    await consistently(async () => {
      const crbs = await env.member('member2').request<KubeList>('GET', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings');
      const wide = crbs.body.items.filter((b) => b.metadata.labels?.[TENANT_LABEL] === globexId || ((b as { subjects?: Array<{ kind?: string; name?: string; namespace?: string }> }).subjects ?? []).some(mentionsGlobex));
      if (wide.length > 0) return `member2 has ClusterRoleBindings for globex: ${wide.map((b) => `${b.metadata.name} → ${JSON.stringify((b as { subjects?: unknown }).subjects)}`).join('; ')}`;
      const roles = await env.member('member2').request<KubeList>('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles');
      const aggregating = roles.body.items.filter((r) => (r.metadata.name ?? '').startsWith(`${globexId}-`) || r.metadata.labels?.[TENANT_LABEL] === globexId)
        .filter((r) => Object.keys(r.metadata.labels ?? {}).some((k) => /aggregate-to-/.test(k)));
      if (aggregating.length > 0) return `member2 has globex ClusterRoles with aggregation labels: ${aggregating.map((r) => r.metadata.name).join(', ')}`;
      return undefined;
    }, 'globex\'s RBAC on member2', { windowMs: 4_000 });
  });
});
