// Boundary: what the cluster's own controllers follow for a tenant, and what
// they write back (session 13, a1). Globex attacks, acme is the victim:
//  - a `system-*` priority class in a pod spec (the scheduler would preempt
//    acme's pods for it, the kubelet evict them first): Pod, Deployment,
//    merge patch, server-side apply → 403 in globex's terms, nothing stored;
//    and a pod claiming spec.priority outright (the host's Priority admission);
//  - a Service's externalIPs, or a load-balancer address written through
//    services/status (CVE-2020-8554: every node's kube-proxy would send that
//    address's traffic, from acme's pods too, to globex's pods): 403;
//  - a volume named in a StatefulSet's claim templates (the host's StatefulSet
//    controller makes the claim, the binder hands the platform's volume over):
//    403, nothing stored;
//  - the same two through OverridePolicies on member2 (an override is judged by
//    no gateway admission), and an override raising a Deployment of 1 replica
//    to 400 (the quota counted 1): member2 gets none of the copies, the
//    bindings say why;
//  - an Event the host's scheduler writes in globex's namespace about a pod of
//    acme's (kube 1.20: "Preempted by <ns>/<pod> on node <node>"): globex reads
//    it by get, list, watch, events.k8s.io and the all-namespaces Table without
//    acme's id, and its own namespace in its own terms.
// Judged on the host and on member2 directly, never only by the gateway's answer.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/core/types.ts';
import { PATCH } from '../helpers/kube-http.ts';
import { eventually } from '../helpers/poll.ts';
import { useAdversaryEnv } from './support/adversary-env.ts';
import { assertRefused, consistently } from './support/verdicts.ts';

const RESTRICTED = { allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } };
const podSpec = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ ...extra, containers: [{ name: 'c', image: 'nginx', securityContext: RESTRICTED }] });
const deployment = (name: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'app' },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: podSpec(extra) } },
});
const PLATFORM_PV = (name: string): KubeObject => ({
  apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name },
  spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', hostPath: { path: `/tmp/${name}` } },
} as KubeObject);

/** An OverridePolicy of one plaintext operation on member2, for the one object it names. */
const override = (name: string, target: { apiVersion: string; kind: string }, op: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'policy.karmada.io/v1alpha1', kind: 'OverridePolicy', metadata: { name, namespace: 'app' },
  spec: { resourceSelectors: [{ ...target, name }], overrideRules: [{ targetCluster: { clusterNames: ['member2'] }, overriders: { plaintext: [op] } }] },
});
const DEPLOYMENT = { apiVersion: 'apps/v1', kind: 'Deployment' };
const CLAIM = { apiVersion: 'v1', kind: 'PersistentVolumeClaim' };

// JSON documents in one YAML stream, for kubectl apply.
const GLOBEX_MEMBER_ATTACK = [
  { ...CLAIM, metadata: { name: 'grab', namespace: 'app' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: '', resources: { requests: { storage: '1Gi' } } } },
  deployment('bully'),
  deployment('wide'),
  {
    apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name: 'attack', namespace: 'app' },
    spec: { resourceSelectors: [{ ...CLAIM, name: 'grab' }, { ...DEPLOYMENT, name: 'bully' }, { ...DEPLOYMENT, name: 'wide' }], placement: { clusterAffinity: { clusterNames: ['member2'] } } },
  },
  override('grab', CLAIM, { path: '/spec/volumeName', operator: 'add', value: 'member-pv' }),
  override('bully', DEPLOYMENT, { path: '/spec/template/spec/priorityClassName', operator: 'add', value: 'system-node-critical' }),
  override('wide', DEPLOYMENT, { path: '/spec/replicas', operator: 'replace', value: 400 }),
].map((doc) => JSON.stringify(doc)).join('\n---\n');

describe('adversarial: reserved references and host-written text', { timeout: 300_000 }, () => {
  const env = useAdversaryEnv('reserved-references');
  let acmeId = '';
  let globexId = '';
  const globex = () => env.http('globex');
  const onHost = async (path: string): Promise<KubeObject | undefined> => {
    const res = await env.host().request<KubeObject>('GET', path);
    return res.status === 200 ? res.body : undefined;
  };

  before(async () => {
    acmeId = env.idOf('acme');
    globexId = env.idOf('globex');
    await env.as('acme')('create', 'namespace', 'shop');
    await env.as('globex')('create', 'namespace', 'app');
    await env.as('globex')('create', 'deployment', 'plain', '-n', 'app', '--image=nginx', '--replicas=0');
    for (const [where, client] of [['host', env.host()], ['member2', env.member('member2')]] as const) {
      const res = await client.request('POST', '/api/v1/persistentvolumes', PLATFORM_PV(where === 'host' ? 'host-pv' : 'member-pv'));
      assert.equal(res.status, 201, `the platform's volume on ${where}: ${JSON.stringify(res.body)}`);
    }
  });

  it('a system-* priority class is refused in every pod spec and every write, in globex\'s terms, and nothing is stored', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'critical', namespace: 'app' }, spec: podSpec({ priorityClassName: 'system-node-critical' }) };
    assertRefused(await globex().post('/api/v1/namespaces/app/pods', pod), 403, 'Pod with system-node-critical', [acmeId, globexId]);
    assertRefused(await globex().post('/apis/apps/v1/namespaces/app/deployments', deployment('critical', { priorityClassName: 'system-cluster-critical' })), 403, 'Deployment with system-cluster-critical', [acmeId, globexId]);
    const merge = await globex().patch('/apis/apps/v1/namespaces/app/deployments/plain', PATCH.merge, { spec: { template: { spec: { priorityClassName: 'system-node-critical' } } } });
    assertRefused(merge, 403, 'merge patch adding system-node-critical', [acmeId, globexId]);
    const apply = await globex().patch('/apis/apps/v1/namespaces/app/deployments/applied?fieldManager=hank', PATCH.apply, JSON.stringify(deployment('applied', { priorityClassName: 'system-node-critical' })));
    assertRefused(apply, 403, 'server-side apply with system-node-critical', [acmeId, globexId]);
    const kubectlRun = await env.run('globex', 'run', 'critical2', '-n', 'app', '--image=nginx', '--overrides={"spec":{"priorityClassName":"system-cluster-critical"}}');
    assert.notEqual(kubectlRun.code, 0, `kubectl run with system-cluster-critical: ${kubectlRun.stdout}`);
    assert.match(kubectlRun.stderr, /reserved/, kubectlRun.stderr);
    assert.equal(await onHost(`/api/v1/namespaces/${globexId}-app/pods/critical`), undefined, 'no critical Pod on the host');
    assert.equal(await onHost(`/api/v1/namespaces/${globexId}-app/pods/critical2`), undefined, 'no critical2 Pod on the host');
    assert.equal(await onHost(`/apis/apps/v1/namespaces/${globexId}-app/deployments/critical`), undefined, 'no critical Deployment on the host');
    assert.equal(await onHost(`/apis/apps/v1/namespaces/${globexId}-app/deployments/applied`), undefined, 'no applied Deployment on the host');
    const plain = await onHost(`/apis/apps/v1/namespaces/${globexId}-app/deployments/plain`);
    assert.equal((plain?.spec as { template?: { spec?: { priorityClassName?: string } } } | undefined)?.template?.spec?.priorityClassName, undefined, 'plain keeps no priority class');
    // A class the platform made is the platform's offer: usable.
    const offered = await env.host().request('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'tenant-high' }, value: 1000 });
    assert.equal(offered.status, 201, JSON.stringify(offered.body));
    const ok = await globex().post('/apis/apps/v1/namespaces/app/deployments', deployment('offered', { priorityClassName: 'tenant-high' }));
    assert.equal(ok.status, 201, `a platform-offered class is usable: ${ok.text.slice(0, 300)}`);
  });

  it('a pod claiming a priority outright (no class) is refused by the host\'s Priority admission, nothing stored', async () => {
    // Session 14 (k1): the embedded host stored a forged spec.priority (no class named, so the gateway's
    // reserved-class rule had nothing to see): a pod above every system class. Real kube refuses it; now so does the embedded host.
    const forged = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'forged', namespace: 'app' }, spec: { ...podSpec(), priority: 2000001000 } };
    const res = await globex().post('/api/v1/namespaces/app/pods', forged);
    assertRefused(res, 403, 'Pod with spec.priority 2000001000', [acmeId, globexId]);
    assert.match(res.body.message, /^pods "forged" is forbidden: the integer value of priority \(2000001000\) must not be provided in pod spec/);
    assert.equal(await onHost(`/api/v1/namespaces/${globexId}-app/pods/forged`), undefined, 'no forged Pod on the host');
  });

  it('a StatefulSet claim template naming the platform\'s volume is refused, nothing stored on the host', async () => {
    const sts = {
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', namespace: 'app' },
      spec: {
        replicas: 1, serviceName: 'db', selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: podSpec() },
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: '', volumeName: 'host-pv', resources: { requests: { storage: '1Gi' } } } }],
      },
    };
    assertRefused(await globex().post('/apis/apps/v1/namespaces/app/statefulsets', sts), 403, 'StatefulSet claim template naming host-pv', [acmeId, globexId]);
    assert.equal(await onHost(`/apis/apps/v1/namespaces/${globexId}-app/statefulsets/db`), undefined, 'no StatefulSet db on the host');
    const pv = await onHost('/api/v1/persistentvolumes/host-pv');
    assert.equal((pv?.spec as { claimRef?: unknown } | undefined)?.claimRef, undefined, 'host-pv is offered to nobody');
  });

  it('a Service may not capture addresses for every tenant (CVE-2020-8554): externalIPs and services/status refused, nothing stored', async () => {
    const svc = (name: string, externalIPs?: string[]) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'app' }, spec: { selector: { app: name }, ports: [{ port: 80 }], ...(externalIPs ? { externalIPs } : {}) } });
    // The cluster DNS's usual address, and an outside one: either would be captured on every node.
    assertRefused(await globex().post('/api/v1/namespaces/app/services', svc('mitm', ['10.96.0.10'])), 403, 'Service with externalIPs', [acmeId, globexId]);
    assert.equal((await globex().post('/api/v1/namespaces/app/services', svc('plain'))).status, 201, 'a plain Service');
    assertRefused(await globex().patch('/api/v1/namespaces/app/services/plain', PATCH.merge, { spec: { externalIPs: ['8.8.8.8'] } }), 403, 'merge patch adding externalIPs', [acmeId, globexId]);
    const status = await globex().patch('/api/v1/namespaces/app/services/plain/status', PATCH.merge, { status: { loadBalancer: { ingress: [{ ip: '10.96.0.10' }] } } });
    assertRefused(status, 403, 'services/status with a load-balancer address', [acmeId, globexId]);
    assert.equal(await onHost(`/api/v1/namespaces/${globexId}-app/services/mitm`), undefined, 'no mitm Service on the host');
    const plain = await onHost(`/api/v1/namespaces/${globexId}-app/services/plain`);
    assert.equal((plain?.spec as { externalIPs?: unknown } | undefined)?.externalIPs, undefined, 'plain has no external IPs on the host');
    assert.equal((plain?.status as { loadBalancer?: { ingress?: unknown } } | undefined)?.loadBalancer?.ingress, undefined, 'plain has no load-balancer address on the host');
  });

  it('overrides cannot put a volume or a system priority on member2, nor raise replicas: no copy lands, the binding says why', async () => {
    await env.apply('globex', GLOBEX_MEMBER_ATTACK, 'globex-member-attack.yaml');
    const bindingSays = async (name: string): Promise<string | undefined> => {
      const res = await globex().get(`/apis/work.karmada.io/v1alpha2/namespaces/app/resourcebindings/${name}`);
      const agg = (res.body as { status?: { aggregatedStatus?: Array<{ clusterName?: string; appliedMessage?: string }> } } | undefined)?.status?.aggregatedStatus ?? [];
      return agg.find((a) => a.clusterName === 'member2')?.appliedMessage;
    };
    // The positive signal: the engine acted on both and said why on each binding.
    const pvcWhy = await eventually(() => bindingSays('grab-persistentvolumeclaim'), 'the claim\'s binding says why');
    assert.match(pvcWhy, /spec\.volumeName: "member-pv"/);
    const deployWhy = await eventually(() => bindingSays('bully-deployment'), 'the Deployment\'s binding says why');
    assert.match(deployWhy, /priorityClassName: "system-node-critical" is reserved/);
    const wideWhy = await eventually(() => bindingSays('wide-deployment'), 'the replicas override\'s binding says why');
    assert.match(wideWhy, /asks for more than its template \(400 pods where the template asks for 1\)/);
    for (const text of [pvcWhy, deployWhy, wideWhy]) assert.ok(!text.includes(`${globexId}-`) && !text.includes(`${acmeId}-`), `in globex's terms: ${text}`);
    const member2 = env.member('member2');
    await consistently(async () => {
      const pvc = await member2.request<KubeObject>('GET', `/api/v1/namespaces/${globexId}-app/persistentvolumeclaims/grab`);
      if (pvc.status === 200) return `globex's claim is on member2 (volumeName ${String((pvc.body.spec as { volumeName?: string }).volumeName)})`;
      const deploy = await member2.request<KubeObject>('GET', `/apis/apps/v1/namespaces/${globexId}-app/deployments/bully`);
      if (deploy.status === 200) return 'globex\'s bully Deployment is on member2';
      const wide = await member2.request<KubeObject>('GET', `/apis/apps/v1/namespaces/${globexId}-app/deployments/wide`);
      if (wide.status === 200) return `globex's wide Deployment is on member2 with ${String((wide.body.spec as { replicas?: number }).replicas)} replicas`;
      const pv = await member2.request<KubeObject>('GET', '/api/v1/persistentvolumes/member-pv');
      if ((pv.body.spec as { claimRef?: unknown }).claimRef !== undefined) return 'member-pv was claimed';
      return undefined;
    }, 'member2 after the override attack');
  });

  it('an Event the host writes about another tenant\'s pod reaches globex without acme\'s id, in every read', async () => {
    const victim = `${globexId}-app`;
    const write = async (name: string, message: string): Promise<void> => {
      const res = await env.host().request('POST', `/api/v1/namespaces/${victim}/events`, {
        apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: victim },
        involvedObject: { apiVersion: 'v1', kind: 'Pod', name: 'victim', namespace: victim },
        related: { apiVersion: 'v1', kind: 'Pod', name: 'web-0', namespace: `${acmeId}-shop` },
        reason: 'Preempted', type: 'Normal', source: { component: 'default-scheduler' }, message,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    };
    // kube 1.20's scheduler, on the victim of a preemption: the preemptor's namespace and name.
    await write('victim.preempted', `Preempted by ${acmeId}-shop/web-0 on node node-1`);
    await write('victim.own', `Preempted by ${globexId}-app/bully-1 on node node-1`);
    const reads: Array<[string, string, Record<string, string>?]> = [
      ['get', '/api/v1/namespaces/app/events/victim.preempted'],
      ['list', '/api/v1/namespaces/app/events'],
      ['all namespaces', '/api/v1/events'],
      ['events.k8s.io', '/apis/events.k8s.io/v1/namespaces/app/events/victim.preempted'],
      ['events.k8s.io list', '/apis/events.k8s.io/v1/events'],
      ['Table', '/api/v1/namespaces/app/events', { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' }],
      ['all-namespaces Table', '/api/v1/events', { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' }],
      ['watch', '/api/v1/namespaces/app/events?watch=1&timeoutSeconds=2'],
      ['all-namespaces watch', '/api/v1/events?watch=1&timeoutSeconds=2'],
    ];
    for (const [what, path, headers] of reads) {
      const res = await globex().get(path, headers);
      assert.equal(res.status, 200, `${what}: ${res.text.slice(0, 200)}`);
      assert.match(res.text, /Preempted by/, `${what}: the event is there`);
      assert.ok(!res.text.includes(acmeId), `${what}: acme's id reaches globex: ${res.text.slice(0, 600)}`);
      assert.ok(!res.text.includes(`${globexId}-`), `${what}: globex's own prefix shown: ${res.text.slice(0, 600)}`);
      if (what !== 'get' && what !== 'events.k8s.io') assert.match(res.text, /Preempted by app\/bully-1/, `${what}: globex's own namespace in its own terms`);
    }
    const kubectl = await env.run('globex', 'get', 'events', '-A');
    assert.equal(kubectl.code, 0, kubectl.stderr);
    assert.ok(!kubectl.stdout.includes(acmeId), `kubectl get events -A: ${kubectl.stdout}`);
  });
});
