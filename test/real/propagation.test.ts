// Propagation to two real Kubernetes 1.20 member apiservers, through the
// gateway with real kubectl: Karmada's quick-start manifests unchanged
// (test/fixtures/karmada), an OverridePolicy, status reflected from what the
// member reports, a Divided Weighted 1:2 split, a ClusterRole through a
// ClusterPropagationPolicy, a tenant CRD and its custom resource, template
// deletion, and failover when a member apiserver stops. Every member object is
// read on the member itself. The members run no controller-manager (nothing
// runs pods there), so the test writes a member copy's status the way the
// member's deployment controller would. The host is a real 1.20 apiserver too
// (without its controller-manager, so the engine is the status's one writer).
// The member-credential faults (faults-members.ts) and issue 13's hostile
// tenant (isolation-members.ts) run first on the same control planes: one host
// and two members started once for all three.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { KubeList, KubeObject } from '../../src/core/types.ts';
import { KubeHttp } from '../helpers/kube-http.ts';
import { eventually } from '../helpers/poll.ts';
import { reportReplicasRunning } from '../helpers/real-members.ts';
import { realKubeSkipReason } from '../helpers/real-kube.ts';
import { useRealPropagationEnv, type RealPropagationEnv } from '../helpers/real-propagation-env.ts';
import { describeMemberCredentialFaults } from './faults-members.ts';
import { describeMemberIsolation } from './isolation-members.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'karmada');
const MEMBERS = ['member1', 'member2'];

const ROLE = `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: reader }
rules:
- { apiGroups: [""], resources: [pods], verbs: [get, list] }
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: { name: reader-propagation }
spec:
  resourceSelectors:
  - { apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: reader }
  placement:
    clusterAffinity: { clusterNames: [member1, member2] }
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
const WIDGET = `
apiVersion: example.com/v1
kind: Widget
metadata: { name: w1, namespace: default }
spec: { size: 3 }
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: { name: widgets-crd }
spec:
  resourceSelectors:
  - { apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: widgets.example.com }
  placement:
    clusterAffinity: { clusterNames: [member1, member2] }
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: widgets, namespace: default }
spec:
  resourceSelectors:
  - { apiVersion: example.com/v1, kind: Widget }
  placement:
    clusterAffinity: { clusterNames: [member1, member2] }
`;

interface Deploy { namespace: string; replicas: number; image: string; labels: Record<string, string>; generation: number }

describe('real member apiservers (Kubernetes 1.20) under a real host', { skip: realKubeSkipReason(), timeout: 1_500_000 }, () => {
  const env = useRealPropagationEnv('propagation', { clusterProbeIntervalMs: 500, clusterFailureThresholdMs: 2000, clusterSuccessThresholdMs: 2000 });
  describeMemberCredentialFaults(env);
  describeMemberIsolation(env);
  describePropagation(env);
});

function describePropagation(env: RealPropagationEnv): void {
  describe('propagation to real member apiservers (Kubernetes 1.20)', { timeout: 400_000 }, () => {
    const { members } = env;
    const acme = env.as('acme');
    let acmeId = '';

    async function get(member: string, path: string): Promise<KubeObject | undefined> {
      const res = await members[member]!.request<KubeObject>('GET', path);
      return res.status === 200 ? res.body : undefined;
    }
    async function onAll(path: string): Promise<KubeObject[] | undefined> {
      const found = await Promise.all(MEMBERS.map((m) => get(m, path)));
      return found.every((o) => o !== undefined) ? (found as KubeObject[]) : undefined;
    }
    async function deployOn(member: string, name: string): Promise<Deploy | undefined> {
      const d = await get(member, `/apis/apps/v1/namespaces/${acmeId}-default/deployments/${name}`);
      if (!d) return undefined;
      const spec = d.spec as { replicas: number; template: { spec: { containers: Array<{ image: string }> } } };
      return { namespace: d.metadata.namespace ?? '', replicas: spec.replicas, image: spec.template.spec.containers[0]?.image ?? '', labels: d.metadata.labels ?? {}, generation: d.metadata.generation ?? 0 };
    }

    before(async () => {
      acmeId = env.idOf('acme');
      await eventually(async () => {
        const out = await acme('get', 'clusters', '-o', 'jsonpath={range .items[*]}{.metadata.name}={.status.conditions[?(@.type=="Ready")].status} {end}');
        return out.trim() === 'member1=True member2=True';
      }, 'both real members Ready', { timeoutMs: 60_000 });
    });

    it('propagates the quick-start nginx to both real members under the tenant prefix (1 replica each)', async () => {
      await acme('apply', '-f', join(FIXTURES, 'deployment.yaml'));
      await acme('apply', '-f', join(FIXTURES, 'propagationpolicy.yaml'));
      for (const member of MEMBERS) {
        const d = await eventually(() => deployOn(member, 'nginx'), `nginx on ${member}`);
        assert.equal(d.namespace, `${acmeId}-default`);
        assert.equal(d.replicas, 1);
        assert.equal(d.labels['karmada.io/managed'], 'true');
        assert.equal(d.labels['tenancy.warren.dev/tenant'], acmeId);
      }
      // The member namespace the engine created carries the tenant label and its Pod Security level.
      const ns = await get('member1', `/api/v1/namespaces/${acmeId}-default`);
      assert.equal(ns?.metadata.labels?.['tenancy.warren.dev/tenant'], acmeId);
      assert.equal(ns?.metadata.labels?.['pod-security.kubernetes.io/enforce'], 'baseline');
      await eventually(async () => (await acme('get', 'rb', 'nginx-deployment', '-o', 'jsonpath={.status.conditions[?(@.type=="FullyApplied")].status}')) === 'True', 'nginx-deployment FullyApplied');
    });

    it('an OverridePolicy gives member1 nginx:test and leaves member2 alone', async () => {
      await acme('apply', '-f', join(FIXTURES, 'overridepolicy.yaml'));
      await eventually(async () => (await deployOn('member1', 'nginx'))?.image === 'nginx:test', 'nginx:test on member1');
      assert.equal((await deployOn('member2', 'nginx'))?.image, 'nginx');
    });

    it('reflects what the members report into the template and its binding', async () => {
      // The status a member's deployment controller would write once its replica runs (kept current, as that controller does).
      const path = `/apis/apps/v1/namespaces/${acmeId}-default/deployments/nginx`;
      const admins = MEMBERS.map((m) => new KubeHttp(env.real[m]!.kube.kubeconfig));
      await eventually(async () => {
        for (const admin of admins) if (!(await reportReplicasRunning(admin, path, 1))) return false;
        return (await acme('get', 'rb', 'nginx-deployment', '-o', 'jsonpath={.status.aggregatedStatus[*].health}')) === 'Healthy Healthy';
      }, 'both members healthy in the binding', { timeoutMs: 90_000 });
      await eventually(async () => (await acme('get', 'deploy', 'nginx', '-o', 'jsonpath={.status.readyReplicas}/{.status.replicas}')) === '2/2', 'nginx 2/2 ready in the tenant\'s view');
      // Read with the members' status kept current: once (session 10, 1 run in 6) both members' copies were
      // re-applied with a new generation after they had read Healthy, and the one-shot report above was stale.
      type Rb = { status: { aggregatedStatus: Array<{ clusterName: string; health: string; applied: boolean }> } };
      let rb: Rb | undefined;
      await eventually(async () => {
        for (const admin of admins) if (!(await reportReplicasRunning(admin, path, 1))) return false;
        rb = JSON.parse(await acme('get', 'rb', 'nginx-deployment', '-o', 'json')) as Rb;
        return rb.status.aggregatedStatus.every((s) => s.health === 'Healthy');
      }, 'both members still healthy in the binding', { timeoutMs: 90_000 });
      assert.deepEqual(rb!.status.aggregatedStatus.map((s) => [s.clusterName, s.applied, s.health]), [['member1', true, 'Healthy'], ['member2', true, 'Healthy']]);
      assert.doesNotMatch(JSON.stringify(rb), new RegExp(`${acmeId}-`), 'no upstream prefix in what the tenant reads');
    });

    it('divides 9 replicas 1:2 over the real members with static weights (3 and 6)', async () => {
      await acme('apply', '-f', join(FIXTURES, 'weighted.yaml'));
      await eventually(async () => (await deployOn('member1', 'web'))?.replicas === 3, 'web: 3 on member1');
      await eventually(async () => (await deployOn('member2', 'web'))?.replicas === 6, 'web: 6 on member2');
    });

    it('sends a ClusterRole to both members under the tenant prefix through a ClusterResourceBinding', async () => {
      await env.apply('acme', ROLE, 'role.yaml');
      const roles = await eventually(() => onAll(`/apis/rbac.authorization.k8s.io/v1/clusterroles/${acmeId}-reader`), 'reader on both members');
      for (const r of roles) {
        assert.deepEqual((r as unknown as { rules: unknown }).rules, [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]);
        assert.equal(r.metadata.labels?.['tenancy.warren.dev/tenant'], acmeId);
      }
      assert.match(await acme('get', 'crb', '-o', 'name'), /reader-clusterrole/);
      // The engine's Events about the binding reach acme on a real host (1.20 refuses one whose involvedObject has no
      // namespace outside "default": the engine names `<id>-default`), read as kube shows them: no namespace.
      const events = await eventually(async () => {
        const out = await acme('get', 'events', '-n', 'default', '--field-selector', 'involvedObject.kind=ClusterResourceBinding', '-o', 'json');
        const items = (JSON.parse(out) as { items: Array<{ reason: string; involvedObject: { name: string; namespace?: string } }> }).items;
        return items.some((e) => e.reason === 'ScheduleBindingSucceed' && e.involvedObject.name === 'reader-clusterrole') ? items : undefined;
      }, 'ScheduleBindingSucceed on reader-clusterrole, on the real host');
      assert.ok(events.every((e) => e.involvedObject.namespace === undefined), JSON.stringify(events));
    });

    it('sends a tenant CRD and its custom resource; the resource lands once the CRD is established on the member', async () => {
      await env.apply('acme', CRD, 'crd.yaml');
      await acme('wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=60s');
      await env.apply('acme', WIDGET, 'widget.yaml');
      const crds = await eventually(() => onAll(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${acmeId}-example.com`), 'the CRD on both members', { timeoutMs: 60_000 });
      for (const c of crds) assert.equal((c.spec as { group: string }).group, `${acmeId}-example.com`);
      const widgets = await eventually(() => onAll(`/apis/${acmeId}-example.com/v1/namespaces/${acmeId}-default/widgets/w1`), 'w1 on both members', { timeoutMs: 90_000 });
      for (const w of widgets) assert.deepEqual(w.spec, { size: 3 });
      await eventually(async () => (await acme('get', 'rb', 'w1-widget', '-o', 'jsonpath={.status.conditions[?(@.type=="FullyApplied")].status}')) === 'True', 'w1-widget FullyApplied', { timeoutMs: 60_000 });
    });

    it('deleting a template removes it from every member; its binding and Works go too', async () => {
      await acme('delete', 'deployment', 'nginx');
      for (const member of MEMBERS) await eventually(async () => (await deployOn(member, 'nginx')) === undefined, `nginx gone from ${member}`);
      await eventually(async () => (await acme('get', 'rb', '-o', 'name')).includes('nginx-deployment') ? false : true, 'nginx-deployment gone');
      const works = await acme('get', 'works', '-A', '-o', 'name');
      assert.doesNotMatch(works, /nginx-/, works);
      await acme('delete', 'clusterrole', 'reader');
      await eventually(async () => (await get('member1', `/apis/rbac.authorization.k8s.io/v1/clusterroles/${acmeId}-reader`)) === undefined, 'reader gone from member1');
    });

    it('fails over: a member whose apiserver is stopped loses its replicas to the other (the policy tolerates 2 s)', async () => {
      await env.real.member2!.kube.stop();
      await eventually(async () => (await deployOn('member1', 'web'))?.replicas === 9, 'all 9 web replicas on member1', { timeoutMs: 90_000 });
      const rb = JSON.parse(await acme('get', 'rb', 'web-deployment', '-o', 'json')) as { spec: { clusters: unknown[] } };
      assert.deepEqual(rb.spec.clusters, [{ name: 'member1', replicas: 9 }]);
      assert.match(await acme('get', 'clusters'), /member2\s+\S+\s+Push\s+(False|Unknown)/);
      const list = await members.member1!.request<KubeList>('GET', '/apis/apps/v1/deployments');
      assert.deepEqual(list.body.items.map((d) => d.metadata.name).sort(), ['web'], 'only web is left on member1');
    });
  });
}
