// Issue 13 on real members: what the adversarial tier shows on embedded members,
// proven where real RBAC and a real apiserver judge it. globex (hostile, allowed
// member2 only) against acme, every verdict read on the member itself:
//   item 7 (ADR 20): globex's ServiceAccount, a `*/*/*` ClusterRole with
//     aggregate-to labels, a ClusterRoleBinding of it and a RoleBinding to
//     cluster-admin, propagated to member2. member2's own authorizer
//     (SubjectAccessReview as its admin) gives the ServiceAccount's member
//     identity nothing: not in acme's namespace, not cluster-wide, and (as the
//     ADR decides: no tenant grant reaches a member) not in its own namespace.
//   items 1/3: globex's crafted template labels (acme's binding permanent-id and
//     tenant label), a hand-made ClusterResourceBinding re-pointed at acme's
//     member namespace with a body without apiVersion, hand-made Works and
//     bindings, and a patch of its own binding to member1: acme's namespace, its
//     ConfigMap and a member-local ConfigMap stay as they were on member2, and
//     nothing of globex's reaches member1.
// Registered by propagation.test.ts on its host and members (no control plane of
// its own), after the member-credential faults and before the propagation
// scenarios; it leaves only ConfigMaps, a ServiceAccount and a ClusterRole there.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject } from '../../src/core/types.ts';
import { KubeHttp, PATCH } from '../helpers/kube-http.ts';
import { eventually } from '../helpers/poll.ts';
import type { RealPropagationEnv } from '../helpers/real-propagation-env.ts';
import { assertRefused, consistently } from '../adversarial/support/verdicts.ts';
import { WORK_API, BINDING_API, PERMANENT_ID, TENANT_LABEL, ACME_SHOP, GLOBEX_CFG } from '../adversarial/support/engine-attack.ts';

const RBAC = 'rbac.authorization.k8s.io';

// globex asks for both members; its Tenant allows member2 only (location=region-b).
const GLOBEX_APP = `${GLOBEX_CFG}---
apiVersion: v1
kind: ServiceAccount
metadata: { name: robot, namespace: app }
---
apiVersion: ${RBAC}/v1
kind: ClusterRole
metadata:
  name: god
  labels: { ${RBAC}/aggregate-to-admin: "true", ${RBAC}/aggregate-to-edit: "true", ${RBAC}/aggregate-to-view: "true" }
rules: [{ apiGroups: ["*"], resources: ["*"], verbs: ["*"] }]
---
apiVersion: ${RBAC}/v1
kind: ClusterRoleBinding
metadata: { name: god }
roleRef: { apiGroup: ${RBAC}, kind: ClusterRole, name: god }
subjects:
- { kind: ServiceAccount, name: robot, namespace: app }
- { kind: Group, apiGroup: ${RBAC}, name: "system:serviceaccounts" }
- { kind: Group, apiGroup: ${RBAC}, name: "system:authenticated" }
---
apiVersion: ${RBAC}/v1
kind: RoleBinding
metadata: { name: robot-admin, namespace: app }
roleRef: { apiGroup: ${RBAC}, kind: ClusterRole, name: cluster-admin }
subjects: [{ kind: ServiceAccount, name: robot, namespace: app }]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: app, namespace: app }
spec:
  resourceSelectors:
  - { apiVersion: v1, kind: ConfigMap, name: cfg }
  - { apiVersion: v1, kind: ServiceAccount, name: robot }
  - { apiVersion: ${RBAC}/v1, kind: RoleBinding, name: robot-admin }
  placement: { clusterAffinity: { clusterNames: [member1, member2] } }
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: { name: god }
spec:
  resourceSelectors:
  - { apiVersion: ${RBAC}/v1, kind: ClusterRole, name: god }
  - { apiVersion: ${RBAC}/v1, kind: ClusterRoleBinding, name: god }
  placement: { clusterAffinity: { clusterNames: [member1, member2] } }
`;

interface Access { namespace?: string; verb: string; resource: string; group?: string }

export function describeMemberIsolation(env: RealPropagationEnv): void {
  describe('issue 13 on real members: a hostile tenant against another\'s member objects', { timeout: 300_000 }, () => {
    let acmeId = '';
    let globexId = '';
    let globex: KubeHttp;
    let acmeNamespaceUid = '';
    let acmeSettingsUid = '';
    let localUid = '';

    const onMember = async (member: string, path: string): Promise<KubeObject | undefined> => {
      const res = await env.members[member]!.request<KubeObject>('GET', path);
      return res.status === 200 ? res.body : undefined;
    };
    /** member2's own authorizer on the member identity of globex's ServiceAccount (what a Pod there holds). */
    const allowed = async (access: Access): Promise<boolean> => {
      const ns = `${globexId}-app`;
      const res = await env.members.member2!.request<{ status: { allowed: boolean } }>('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
        spec: {
          user: `system:serviceaccount:${ns}:robot`, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
          resourceAttributes: { namespace: access.namespace, verb: access.verb, resource: access.resource, group: access.group ?? '' },
        },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.status.allowed;
    };

    before(async () => {
      acmeId = env.idOf('acme');
      globexId = env.idOf('globex');
      globex = new KubeHttp(readFileSync(join(env.root, 'tenants', 'globex.kubeconfig'), 'utf8'));
      await env.apply('acme', ACME_SHOP, 'isolation-acme.yaml');
      const ns = await eventually(() => onMember('member2', `/api/v1/namespaces/${acmeId}-shop`), 'acme\'s shop on member2', { timeoutMs: 90_000 });
      const settings = await eventually(() => onMember('member2', `/api/v1/namespaces/${acmeId}-shop/configmaps/settings`), 'acme\'s settings on member2', { timeoutMs: 90_000 });
      const local = await env.members.member2!.request<KubeObject>('POST', `/api/v1/namespaces/${acmeId}-shop/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'local' }, data: { keep: 'me' } });
      assert.equal(local.status, 201, JSON.stringify(local.body));
      acmeNamespaceUid = ns.metadata.uid ?? '';
      acmeSettingsUid = settings.metadata.uid ?? '';
      localUid = local.body.metadata.uid ?? '';
      await env.apply('globex', GLOBEX_APP, 'isolation-globex.yaml');
      await eventually(() => onMember('member2', `/api/v1/namespaces/${globexId}-app/serviceaccounts/robot`), 'globex\'s robot on member2', { timeoutMs: 90_000 });
      await eventually(() => onMember('member2', `/apis/${RBAC}/v1/clusterroles/${globexId}-god`), 'globex\'s god ClusterRole on member2', { timeoutMs: 90_000 });
    });

    it('item 7: member2\'s own RBAC gives globex\'s propagated ServiceAccount nothing, in acme\'s namespaces, cluster-wide or its own', async () => {
      const god = (await onMember('member2', `/apis/${RBAC}/v1/clusterroles/${globexId}-god`))!;
      assert.deepEqual(Object.keys(god.metadata.labels ?? {}).filter((k) => k.startsWith(`${RBAC}/aggregate-to-`)), [], 'aggregate-to labels stripped on the member');
      assert.equal((await env.members.member2!.request('GET', `/apis/${RBAC}/v1/clusterrolebindings/${globexId}-god`)).status, 404, 'the ClusterRoleBinding is not applied (ADR 20)');
      assert.equal((await env.members.member2!.request('GET', `/apis/${RBAC}/v1/namespaces/${globexId}-app/rolebindings/robot-admin`)).status, 404, 'the RoleBinding is not applied');
      const checks: Record<string, Access> = {
        'get secrets in acme\'s shop': { namespace: `${acmeId}-shop`, verb: 'get', resource: 'secrets' },
        'delete configmaps in acme\'s shop': { namespace: `${acmeId}-shop`, verb: 'delete', resource: 'configmaps' },
        'list pods in every namespace': { verb: 'list', resource: 'pods' },
        'delete namespaces': { verb: 'delete', resource: 'namespaces' },
        'create clusterrolebindings': { verb: 'create', resource: 'clusterrolebindings', group: RBAC },
        'escalate clusterroles': { verb: 'escalate', resource: 'clusterroles', group: RBAC },
        'list nodes': { verb: 'list', resource: 'nodes' },
        'get secrets in its own namespace': { namespace: `${globexId}-app`, verb: 'get', resource: 'secrets' },
        'create configmaps in its own namespace': { namespace: `${globexId}-app`, verb: 'create', resource: 'configmaps' },
      };
      const got: Record<string, boolean> = {};
      for (const [what, access] of Object.entries(checks)) got[what] = await allowed(access);
      assert.deepEqual(got, Object.fromEntries(Object.keys(checks).map((k) => [k, false])));
      // The check can say yes: the member's admin may (a review that cannot fail would prove nothing).
      const admin = await env.members.member2!.request<{ status: { allowed: boolean } }>('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
        spec: { user: 'someone', groups: ['system:masters'], resourceAttributes: { namespace: `${acmeId}-shop`, verb: 'get', resource: 'secrets' } },
      });
      assert.equal(admin.body.status.allowed, true);
      // No RBAC object on member2 names globex's ServiceAccount or its groups.
      for (const path of [`/apis/${RBAC}/v1/rolebindings`, `/apis/${RBAC}/v1/clusterrolebindings`]) {
        const items = (await env.members.member2!.request<{ items: Array<{ metadata: { name: string }; subjects?: Array<{ name: string; namespace?: string }> }> }>('GET', path)).body.items;
        for (const b of items) for (const s of b.subjects ?? []) assert.ok(!`${s.namespace ?? ''}/${s.name}`.includes(`${globexId}-`), `${b.metadata.name} names globex: ${JSON.stringify(s)}`);
      }
    });

    it('items 1/3: crafted labels, a steered binding, hand-made Works and a patched binding leave acme\'s member objects and member1 alone', async () => {
      // The engine's marks on acme's member copy (its binding's uid as permanent-id): what globex would forge.
      const acmeBinding = (await onMember('member2', `/api/v1/namespaces/${acmeId}-shop/configmaps/settings`))?.metadata.labels?.[PERMANENT_ID] ?? '';
      assert.match(acmeBinding, /^[0-9a-f-]{36}$/, 'acme\'s settings on member2 carries its binding\'s permanent-id');
      // 1. A template of globex's that claims acme's binding and tenant, propagated, then deleted.
      const decoy = await globex.post('/api/v1/namespaces/app/configmaps', {
        apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', labels: { [PERMANENT_ID]: acmeBinding, [TENANT_LABEL]: acmeId, app: 'decoy' } }, data: { owner: 'globex' },
      });
      if (decoy.status !== 201) {
        // Refusing the forged labels outright holds the boundary too; then there is nothing to propagate.
        assert.ok([400, 403, 422].includes(decoy.status), `the forged template: ${decoy.status} ${decoy.text.slice(0, 300)}`);
      } else {
        await propagateAndDeleteDecoy(acmeBinding);
      }
      // 2. Break 1's chain: a ClusterResourceBinding and a Work claiming it, re-pointed at acme's namespace without apiVersion, deleted.
      const crb = await globex.post(`${BINDING_API}/clusterresourcebindings`, {
        apiVersion: 'work.karmada.io/v1alpha2', kind: 'ClusterResourceBinding', metadata: { name: 'steer', finalizers: ['warren.dev/propagation'] },
        spec: { resource: { apiVersion: 'v1', kind: 'Namespace', name: 'decoy' }, clusters: [{ name: 'member1' }, { name: 'member2' }] },
      });
      assertRefused(crb, 403, 'create ClusterResourceBinding', [globexId, acmeId]);
      const work = await globex.post(`${WORK_API}/namespaces/karmada-es-member2/works`, {
        apiVersion: 'work.karmada.io/v1alpha1', kind: 'Work', metadata: { name: 'steer', labels: { [PERMANENT_ID]: acmeBinding } },
        spec: { workload: { manifests: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: `${acmeId}-shop` }, data: { owner: 'globex' } }] } },
      });
      assertRefused(work, 403, 'create Work', [globexId, acmeId]);
      const path = `${BINDING_API}/clusterresourcebindings/steer`;
      const body = { kind: 'ClusterResourceBinding', metadata: { name: `${globexId}-steer`, labels: { [TENANT_LABEL]: globexId }, finalizers: ['warren.dev/propagation'] }, spec: { resource: { apiVersion: 'v1', kind: 'Namespace', name: `${acmeId}-shop` } } };
      assert.ok([403, 404].includes((await globex.put(path, body)).status), 'the PUT without apiVersion is refused');
      assert.ok([403, 404].includes((await globex.delete(path)).status), 'the DELETE is refused');

      // 3. Its own binding patched to member1 (its Tenant allows member2 only).
      await eventually(async () => (await globex.get(`${BINDING_API}/namespaces/app/resourcebindings/cfg-configmap`)).status === 200, 'globex\'s binding cfg-configmap');
      const patched = await globex.patch(`${BINDING_API}/namespaces/app/resourcebindings/cfg-configmap`, PATCH.merge, { spec: { clusters: [{ name: 'member1' }, { name: 'member2' }] } });
      assertRefused(patched, 403, 'patch spec.clusters of a ResourceBinding', [globexId, acmeId]);

      // Verdicts, on the members themselves, over a window (the engine acts after the answers).
      await consistently(async () => {
        const ns = await onMember('member2', `/api/v1/namespaces/${acmeId}-shop`);
        if (!ns || ns.metadata.uid !== acmeNamespaceUid) return `acme's namespace on member2 was deleted (${ns ? 'recreated' : 'gone'})`;
        if (ns.metadata.deletionTimestamp) return 'acme\'s namespace on member2 is terminating';
        const settings = await onMember('member2', `/api/v1/namespaces/${acmeId}-shop/configmaps/settings`);
        if (settings?.metadata.uid !== acmeSettingsUid || (settings.data as Record<string, string> | undefined)?.owner !== 'acme') return 'acme\'s settings on member2 was replaced or rewritten';
        if ((await onMember('member2', `/api/v1/namespaces/${acmeId}-shop/configmaps/local`))?.metadata.uid !== localUid) return 'the member-local ConfigMap in acme\'s namespace is gone';
        for (const p of [`/api/v1/namespaces/${globexId}-app`, `/apis/${RBAC}/v1/clusterroles/${globexId}-god`, `/api/v1/namespaces/${globexId}-app/serviceaccounts/robot`]) {
          if (await onMember('member1', p)) return `globex's ${p} reached member1, which its Tenant does not allow`;
        }
        return undefined;
      }, 'acme\'s objects on member2 and member1\'s emptiness of globex', { windowMs: 8_000 });
    });
    const propagateAndDeleteDecoy = async (acmeBinding: string): Promise<void> => {
      await globex.post('/apis/policy.karmada.io/v1alpha1/namespaces/app/propagationpolicies', {
        apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name: 'decoy' },
        spec: { resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'settings' }], placement: { clusterAffinity: { clusterNames: ['member2'] } } },
      });
      const landed = await eventually(() => onMember('member2', `/api/v1/namespaces/${globexId}-app/configmaps/settings`), 'globex\'s decoy on member2', { timeoutMs: 90_000 });
      assert.equal(landed.metadata.labels?.[TENANT_LABEL], globexId, 'the member copy carries globex\'s own tenant label, not the forged one');
      assert.notEqual(landed.metadata.labels?.[PERMANENT_ID], acmeBinding, 'the member copy carries its own binding\'s id, not acme\'s');
      assert.equal((await globex.delete('/api/v1/namespaces/app/configmaps/settings')).status, 200);
      await eventually(async () => (await onMember('member2', `/api/v1/namespaces/${globexId}-app/configmaps/settings`)) === undefined, 'globex\'s decoy gone from member2', { timeoutMs: 90_000 });
    };
  });
}
