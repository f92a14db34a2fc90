// Cluster-scoped templates and tenants' custom resources, through the gateway
// with real kubectl, with Karmada manifests unchanged: a ClusterPropagationPolicy
// sends acme's ClusterRole to both members through a ClusterResourceBinding
// (`kubectl get crb`, prefix stripped), and refuses its ClusterRoleBinding there (ADR 20); globex's ClusterRole of the same name
// lands beside it on member2 without touching it, globex sees only its own
// binding and cannot select acme's ClusterRole by any spelling; a
// PropagationPolicy cannot select a cluster-scoped object (Karmada's detector).
// Then a tenant CRD and an instance of it: the instance fails to apply in tenant
// terms while its CRD is not on the members, and lands once the policy sends
// the CRD too. A Namespace selected by labels lands with the tenant's Pod
// Security labels. Deleting the templates, or the tenant, removes the member
// copies. Every member object is checked on the member itself.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/core/types.ts';
import { eventually } from '../helpers/poll.ts';
import { usePropagationEnv } from '../helpers/propagation-env.ts';

const MEMBERS = ['member1', 'member2'];

const ACME_ROLE = `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: reader }
rules:
- { apiGroups: [""], resources: [pods], verbs: [get, list] }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: pp-only }
rules:
- { apiGroups: [""], resources: [configmaps], verbs: [get] }
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: pp-selects-cluster-scoped, namespace: default }
spec:
  resourceSelectors:
  - { apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: pp-only }
  placement:
    clusterAffinity: { clusterNames: [member1, member2] }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: reader-binding }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: reader }
subjects:
- { kind: User, name: robot, apiGroup: rbac.authorization.k8s.io }
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: { name: reader-propagation }
spec:
  resourceSelectors:
  - { apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: reader }
  - { apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRoleBinding, name: reader-binding }
  placement:
    clusterAffinity: { clusterNames: [member1, member2] }
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata: { name: reader-label }
spec:
  resourceSelectors:
  - { apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: reader }
  overrideRules:
  - targetCluster: { clusterNames: [member1] }
    overriders:
      labelsOverrider: [{ operator: add, value: { tier: one } }]
`;
const globexRole = (acmeId: string): string => `
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: { name: steal }
spec:
  resourceSelectors:
  - { apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: ${acmeId}-reader }
  - { apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: pp-only }
  placement:
    clusterAffinity: { clusterNames: [member2] }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: reader }
rules:
- { apiGroups: [apps], resources: [deployments], verbs: [watch] }
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: { name: reader-propagation }
spec:
  resourceSelectors:
  - { apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: reader }
  placement:
    clusterAffinity: { clusterNames: [member2] }
`;
const CRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.com }
spec:
  group: example.com
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget, listKind: WidgetList }
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: { type: object, properties: { size: { type: integer } } }
`;
// A cluster-scoped custom kind: its objects' names carry the tenant prefix upstream and on the members.
const GIZMOS = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: gizmos.example.com }
spec:
  group: example.com
  scope: Cluster
  names: { plural: gizmos, singular: gizmo, kind: Gizmo, listKind: GizmoList }
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: { type: object, properties: { color: { type: string } } }
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: { name: gizmos-propagation }
spec:
  resourceSelectors:
  - { apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: gizmos.example.com }
  - { apiVersion: example.com/v1, kind: Gizmo }
  placement:
    clusterAffinity: { clusterNames: [member1] }
`;
const GIZMO = `
apiVersion: example.com/v1
kind: Gizmo
metadata: { name: g1 }
spec: { color: blue }
`;
const NAMESPACE = `
apiVersion: v1
kind: Namespace
metadata:
  name: team-a
  labels: { team: a }
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: { name: team-namespaces }
spec:
  resourceSelectors:
  - { apiVersion: v1, kind: Namespace, labelSelector: { matchLabels: { team: a } } }
  placement:
    clusterAffinity: { clusterNames: [member1, member2] }
`;
const KEPT = `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: kept }
rules: []
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: { name: kept-propagation }
spec:
  preserveResourcesOnDeletion: true
  resourceSelectors:
  - { apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: kept }
  placement:
    clusterAffinity: { clusterNames: [member1, member2] }
`;
const WIDGET = `
apiVersion: example.com/v1
kind: Widget
metadata: { name: w1, namespace: default }
spec: { size: 3 }
`;
const widgetPolicy = (withCrd: boolean): string => `
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: { name: widgets-propagation }
spec:
  resourceSelectors:
  - { apiVersion: example.com/v1, kind: Widget }
${withCrd ? '  - { apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: widgets.example.com }\n' : ''}  placement:
    clusterAffinity: { clusterNames: [member1, member2] }
`;

interface Condition { type: string; status: string; message?: string }
interface Binding extends KubeObject { spec: { resource: { apiVersion: string; kind: string; namespace?: string; name: string; uid?: string } }; status?: { conditions?: Condition[] } }
const condition = (b: { status?: { conditions?: Condition[] } }, type: string): Condition | undefined => b.status?.conditions?.find((c) => c.type === type);

describe('propagation of cluster-scoped templates and custom resources', { timeout: 240_000 }, () => {
  const env = usePropagationEnv('propagation-cluster');
  const { members } = env;
  let acmeId = '';
  let globexId = '';
  const acme = env.as('acme');
  const globex = env.as('globex');
  async function onMember(member: string, path: string): Promise<KubeObject | undefined> {
    const res = await members[member]!.request<KubeObject>('GET', path);
    return res.status === 200 ? res.body : undefined;
  }
  const onAll = async (path: string): Promise<KubeObject[] | undefined> => {
    const found = await Promise.all(MEMBERS.map((m) => onMember(m, path)));
    return found.every((o) => o !== undefined) ? found as KubeObject[] : undefined;
  };
  const goneFromAll = async (path: string): Promise<boolean> => (await Promise.all(MEMBERS.map((m) => onMember(m, path)))).every((o) => o === undefined);
  const clusterRolePath = (id: string, name: string): string => `/apis/rbac.authorization.k8s.io/v1/clusterroles/${id}-${name}`;

  before(() => {
    acmeId = env.idOf('acme');
    globexId = env.idOf('globex');
  });

  it('a ClusterPropagationPolicy sends a ClusterRole to both members through a ClusterResourceBinding', async () => {
    await env.apply('acme', ACME_ROLE, 'acme-role.yaml');
    const copies = await eventually(() => onAll(clusterRolePath(acmeId, 'reader')), 'acme reader on both members');
    for (const role of copies) {
      assert.equal(role.metadata.labels?.['karmada.io/managed'], 'true');
      assert.deepEqual((role as KubeObject & { rules?: unknown }).rules, [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]);
    }
    // The ClusterOverridePolicy applies to cluster-scoped templates as to any other.
    // A member is shared like the host: a ClusterRole's label keys there are in the tenant's own key space too
    // (ADR 0028: `tier` is stored as `<id>/tier`), so no aggregationRule of the member's selects them.
    const tier = `${acmeId}/tier`;
    await eventually(async () => (await onMember('member1', clusterRolePath(acmeId, 'reader')))?.metadata.labels?.[tier] === 'one', 'tier=one on member1');
    assert.equal((await onMember('member2', clusterRolePath(acmeId, 'reader')))?.metadata.labels?.[tier], undefined);
    // A ClusterRoleBinding is refused on the members (ADR 20: a cluster-wide grant there would reach other
    // tenants' namespaces): nothing lands, and its binding says why, in tenant terms.
    const refused = await eventually(async () => {
      const b = JSON.parse(await acme('get', 'crb', 'reader-binding-clusterrolebinding', '-o', 'json')) as Binding;
      return condition(b, 'FullyApplied')?.status === 'False' ? b : undefined;
    }, 'reader-binding-clusterrolebinding FullyApplied False');
    assert.match(condition(refused, 'FullyApplied')?.message ?? '', /ClusterRoleBindings are not propagated to member clusters/);
    assert.doesNotMatch(JSON.stringify(refused), new RegExp(acmeId), 'the tenant sees no prefix');
    for (const m of MEMBERS) assert.equal(await onMember(m, `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${acmeId}-reader-binding`), undefined, `no ClusterRoleBinding on ${m}`);
    const crb = await eventually(async () => {
      const b = JSON.parse(await acme('get', 'crb', 'reader-clusterrole', '-o', 'json')) as Binding;
      return condition(b, 'FullyApplied')?.status === 'True' ? b : undefined;
    }, 'reader-clusterrole FullyApplied');
    assert.equal(crb.kind, 'ClusterResourceBinding');
    assert.equal(crb.metadata.namespace, undefined);
    assert.deepEqual({ ...crb.spec.resource, uid: undefined, resourceVersion: undefined },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'reader', uid: undefined, resourceVersion: undefined });
    assert.equal(condition(crb, 'Scheduled')?.status, 'True');
    assert.equal(crb.metadata.labels?.['clusterpropagationpolicy.karmada.io/name'], 'reader-propagation');
    assert.doesNotMatch(JSON.stringify(crb), new RegExp(acmeId), 'the tenant sees no prefix');
    // Events about it are in the tenant's default namespace, as kube puts cluster-scoped objects' events in "default".
    const events = await eventually(async () => {
      const out = await acme('get', 'events', '-n', 'default', '--field-selector', 'involvedObject.kind=ClusterResourceBinding', '-o', 'json');
      const items = (JSON.parse(out) as { items: Array<{ reason: string; involvedObject: { name: string; namespace?: string } }> }).items;
      return items.some((e) => e.reason === 'ScheduleBindingSucceed' && e.involvedObject.name === 'reader-clusterrole') ? items : undefined;
    }, 'ScheduleBindingSucceed on reader-clusterrole');
    assert.ok(events.every((e) => e.involvedObject.namespace === undefined));
    const table = await acme('get', 'clusterresourcebindings');
    assert.match(table, /reader-clusterrole\s+True\s+True/);
    // The Works are in the tenant's execution spaces, in tenant terms.
    const works = await acme('get', 'works', '-A', '-o', 'json');
    const readerWorks = (JSON.parse(works) as { items: Array<{ metadata: { namespace: string }; spec: { workload: { manifests: KubeObject[] } } }> }).items
      .filter((w) => w.spec.workload.manifests[0]?.kind === 'ClusterRole');
    assert.deepEqual(readerWorks.map((w) => w.metadata.namespace).sort(), ['karmada-es-member1', 'karmada-es-member2']);
    assert.ok(readerWorks.every((w) => w.spec.workload.manifests[0]?.metadata.name === 'reader'));
  });

  it('globex: same-named ClusterRole beside acme\'s on member2, its own binding only, and no way to select acme\'s', async () => {
    await env.apply('globex', globexRole(acmeId), 'globex-role.yaml');
    const own = await eventually(() => onMember('member2', clusterRolePath(globexId, 'reader')), 'globex reader on member2');
    assert.deepEqual((own as KubeObject & { rules?: unknown }).rules, [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['watch'] }]);
    const acmes = await onMember('member2', clusterRolePath(acmeId, 'reader'));
    assert.deepEqual((acmes as KubeObject & { rules?: unknown }).rules, [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }], 'acme\'s copy untouched');
    assert.equal(await onMember('member1', clusterRolePath(globexId, 'reader')), undefined, 'globex may not use member1');

    const acmeBinding = JSON.parse(await acme('get', 'crb', 'reader-clusterrole', '-o', 'json')) as Binding;
    const globexBinding = await eventually(async () => {
      const b = JSON.parse(await globex('get', 'crb', 'reader-clusterrole', '-o', 'json')) as Binding;
      return condition(b, 'FullyApplied')?.status === 'True' ? b : undefined;
    }, 'globex reader-clusterrole FullyApplied');
    assert.notEqual(globexBinding.metadata.uid, acmeBinding.metadata.uid);
    const globexRoleUid = (JSON.parse(await globex('get', 'clusterrole', 'reader', '-o', 'json')) as KubeObject).metadata.uid;
    assert.equal(globexBinding.spec.resource.uid, globexRoleUid, 'globex\'s binding is for globex\'s ClusterRole');
    // globex lists only its own ClusterResourceBindings and cannot read acme's by its upstream name.
    assert.equal((await globex('get', 'crb', '-o', 'name')).trim(), 'clusterresourcebinding.work.karmada.io/reader-clusterrole');
    const direct = await env.run('globex', 'get', 'crb', `${acmeId}-reader-clusterrole`);
    assert.notEqual(direct.code, 0);
    assert.match(direct.stderr, /NotFound|not found/);
    // The policy naming acme's ClusterRole (by its upstream name, and by acme's name for another) selected nothing of acme's.
    for (const m of MEMBERS) {
      assert.equal(await onMember(m, clusterRolePath(globexId, `${acmeId}-reader`)), undefined);
      assert.equal(await onMember(m, clusterRolePath(globexId, 'pp-only')), undefined);
    }
    assert.equal(await onMember('member2', clusterRolePath(acmeId, 'pp-only')), undefined);
  });

  it('a PropagationPolicy does not select a cluster-scoped object (Karmada\'s detector)', async () => {
    // By now the reader (same tenant, same informer pass) is long applied.
    assert.ok(await goneFromAll(clusterRolePath(acmeId, 'pp-only')));
    assert.doesNotMatch(await acme('get', 'crb', '-o', 'name'), /pp-only/);
  });

  it('a custom resource fails to apply in tenant terms while its CRD is not on the members, then lands with it', async () => {
    await env.apply('acme', CRD, 'crd.yaml');
    await acme('wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=20s');
    await env.apply('acme', WIDGET, 'widget.yaml');
    await env.apply('acme', widgetPolicy(false), 'widget-policy.yaml');
    const failed = await eventually(async () => {
      const b = JSON.parse(await acme('get', 'resourcebinding', 'w1-widget', '-n', 'default', '-o', 'json')) as Binding;
      const c = condition(b, 'FullyApplied');
      return c?.status === 'False' && c.message ? { b, c } : undefined;
    }, 'w1-widget FullyApplied False');
    assert.equal(failed.b.spec.resource.apiVersion, 'example.com/v1');
    assert.doesNotMatch(JSON.stringify(failed.b), new RegExp(acmeId), `no prefix in what the tenant reads: ${failed.c.message ?? ''}`);
    const work = JSON.parse(await acme('get', 'works', '-n', 'karmada-es-member1', '-o', 'json')) as { items: Array<{ spec: { workload: { manifests: KubeObject[] } }; status?: { conditions?: Condition[] } }> };
    const widgetWork = work.items.find((w) => w.spec.workload.manifests[0]?.kind === 'Widget');
    assert.equal(widgetWork && condition(widgetWork, 'Applied')?.status, 'False');

    await env.apply('acme', widgetPolicy(true), 'widget-policy.yaml');
    const crds = await eventually(() => onAll(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${acmeId}-example.com`), 'the CRD on both members');
    assert.equal((crds[0]!.spec as { group: string }).group, `${acmeId}-example.com`);
    const widgets = await eventually(() => onAll(`/apis/${acmeId}-example.com/v1/namespaces/${acmeId}-default/widgets/w1`), 'w1 on both members', { timeoutMs: 40_000 });
    for (const w of widgets) assert.deepEqual(w.spec, { size: 3 });
    await eventually(async () => {
      const b = JSON.parse(await acme('get', 'resourcebinding', 'w1-widget', '-n', 'default', '-o', 'json')) as Binding;
      return condition(b, 'FullyApplied')?.status === 'True';
    }, 'w1-widget FullyApplied True');
    assert.match(await acme('get', 'crb', '-o', 'name'), /widgets\.example\.com-customresourcedefinition/);
  });

  it('a cluster-scoped custom resource gets a ClusterResourceBinding and lands under the tenant prefix', async () => {
    await env.apply('acme', GIZMOS, 'gizmos.yaml');
    await acme('wait', '--for=condition=Established', 'crd/gizmos.example.com', '--timeout=20s');
    await env.apply('acme', GIZMO, 'gizmo.yaml');
    const copy = await eventually(() => onMember('member1', `/apis/${acmeId}-example.com/v1/gizmos/${acmeId}-g1`), 'g1 on member1', { timeoutMs: 40_000 });
    assert.deepEqual(copy.spec, { color: 'blue' });
    const crb = await eventually(async () => {
      const b = JSON.parse(await acme('get', 'crb', 'g1-gizmo', '-o', 'json')) as Binding;
      return condition(b, 'FullyApplied')?.status === 'True' ? b : undefined;
    }, 'g1-gizmo FullyApplied');
    assert.deepEqual({ apiVersion: crb.spec.resource.apiVersion, kind: crb.spec.resource.kind, name: crb.spec.resource.name }, { apiVersion: 'example.com/v1', kind: 'Gizmo', name: 'g1' });
    await acme('delete', 'gizmo', 'g1');
    await eventually(async () => (await onMember('member1', `/apis/${acmeId}-example.com/v1/gizmos/${acmeId}-g1`)) === undefined, 'g1 gone from member1');
  });

  it('a Namespace selected by a ClusterPropagationPolicy lands under the prefix with the tenant\'s Pod Security, and goes with its template', async () => {
    await env.apply('acme', NAMESPACE, 'namespace.yaml');
    const copies = await eventually(() => onAll(`/api/v1/namespaces/${acmeId}-team-a`), 'team-a on both members');
    for (const ns of copies) {
      assert.equal(ns.metadata.labels?.['karmada.io/managed'], 'true');
      assert.equal(ns.metadata.labels?.['team'], 'a');
      assert.equal(ns.metadata.labels?.['pod-security.kubernetes.io/enforce'], 'baseline', 'acme\'s level (asking for another is refused at the gateway: write-path tests)');
    }
    await eventually(async () => {
      const b = JSON.parse(await acme('get', 'crb', 'team-a-namespace', '-o', 'json')) as Binding;
      return condition(b, 'FullyApplied')?.status === 'True' && b.spec.resource.name === 'team-a';
    }, 'team-a-namespace FullyApplied');
    assert.doesNotMatch(await acme('get', 'crb', '-o', 'name'), /karmada-es-|default-namespace/, 'only the namespace the policy names');
    await acme('delete', 'namespace', 'team-a');
    await eventually(async () => (await Promise.all(MEMBERS.map((m) => onMember(m, `/api/v1/namespaces/${acmeId}-team-a`)))).every((n) => n === undefined || n.metadata.deletionTimestamp), 'team-a gone (or terminating) on the members');
  });

  it('deleting the templates removes their copies from the members and their bindings', async () => {
    await env.apply('acme', KEPT, 'kept.yaml');
    await eventually(() => onAll(clusterRolePath(acmeId, 'kept')), 'kept on both members');
    await acme('delete', 'clusterrole', 'kept');
    await eventually(async () => (await acme('get', 'crb', '-o', 'name')).includes('kept-clusterrole') ? undefined : true, 'kept-clusterrole gone');
    assert.ok(await onAll(clusterRolePath(acmeId, 'kept')), 'preserveResourcesOnDeletion keeps the member copies');
    await acme('delete', 'widget', 'w1', '-n', 'default');
    await eventually(() => goneFromAll(`/apis/${acmeId}-example.com/v1/namespaces/${acmeId}-default/widgets/w1`), 'w1 gone from the members');
    await acme('delete', 'clusterrole', 'reader');
    await eventually(() => goneFromAll(clusterRolePath(acmeId, 'reader')), 'acme reader gone from the members');
    await eventually(async () => (await acme('get', 'crb', '-o', 'name')).includes('reader-clusterrole') ? undefined : true, 'reader-clusterrole gone');
    assert.ok(await onMember('member2', clusterRolePath(globexId, 'reader')), 'globex\'s reader stays');
    await acme('delete', 'crd', 'widgets.example.com');
    await eventually(() => goneFromAll(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${acmeId}-example.com`), 'the CRD gone from the members');
  });

  it('deleting a Tenant removes its cluster-scoped copies from the members', async () => {
    assert.ok(await onMember('member2', clusterRolePath(globexId, 'reader')));
    await env.deleteTenant('globex', 30_000);
    assert.equal(await onMember('member2', clusterRolePath(globexId, 'reader')), undefined);
  });
});
