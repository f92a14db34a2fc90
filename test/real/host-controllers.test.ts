// The host that runs controllers (ADR 0023): `warren serve` on a real 1.20
// control plane with its controller-manager, two real members. What the model
// says, checked on the host itself:
//   - a tenant Deployment no policy selects runs on the host, as on any
//     cluster: the host's deployment controller gives it a ReplicaSet;
//   - a propagated Deployment runs on the members only: it is held on the host
//     (paused, 0 replicas), so no ReplicaSet there runs a replica of it (one
//     the host made before the policy selected it is scaled to 0, its pods go:
//     propagation moves a workload, it does not copy it) and the tenant still
//     reads its own replicas; and its status has one writer (the host's
//     controller; the engine's aggregate is an annotation the tenant reads).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectlAs, type RunResult } from '../fixtures/up/warren-up-process.ts';
import { eventually } from '../helpers/poll.ts';
import { realKubeSkipReason, startRealWarren, type RealWarren } from '../helpers/real-warren.ts';
import { KubeHttp } from '../helpers/kube-http.ts';
import { reportReplicasRunning } from '../helpers/real-members.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'karmada');
const LOCAL = `
apiVersion: apps/v1
kind: Deployment
metadata: { name: local, labels: { app: local } }
spec:
  replicas: 1
  selector: { matchLabels: { app: local } }
  template:
    metadata: { labels: { app: local } }
    spec: { containers: [{ name: local, image: nginx }] }
`;
interface ManagedField { manager: string; operation: string; subresource?: string; fieldsV1?: { 'f:status'?: unknown } }

const skip = realKubeSkipReason();

describe('a host that runs controllers (ADR 0023)', { timeout: 600_000, ...(skip ? { skip } : {}) }, () => {
  let w: RealWarren;
  let acmeId = '';
  let acmeKc = '';
  const acme = async (...args: string[]): Promise<string> => {
    // Generous: the machine is shared, and kubectl apply first downloads the OpenAPI document.
    const r: RunResult = await kubectlAs(acmeKc)(args, 120_000);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  interface ReplicaSet { metadata: { name: string; ownerReferences?: Array<{ name: string }> }; spec: { replicas?: number }; status?: { replicas?: number } }
  const replicaSetsOf = async (owner: string): Promise<ReplicaSet[]> => {
    const res = await w.hostHttp.get(`/apis/apps/v1/namespaces/${acmeId}-default/replicasets`);
    assert.equal(res.status, 200);
    return (res.body.items as ReplicaSet[]).filter((rs) => rs.metadata.ownerReferences?.some((o) => o.name === owner));
  };
  const replicaSetsOnHost = async (owner: string): Promise<string[]> => (await replicaSetsOf(owner)).map((rs) => rs.metadata.name);
  const podsOnHost = async (app: string): Promise<string[]> => {
    const res = await w.hostHttp.get(`/api/v1/namespaces/${acmeId}-default/pods?labelSelector=${encodeURIComponent(`app=${app}`)}`);
    assert.equal(res.status, 200);
    return (res.body.items as Array<{ metadata: { name: string; deletionTimestamp?: string } }>).filter((p) => !p.metadata.deletionTimestamp).map((p) => p.metadata.name);
  };
  const onMember = async (i: number, name: string): Promise<number | undefined> => {
    const http = new KubeHttp(w.members[i]!.kubeconfig);
    const res = await http.get(`/apis/apps/v1/namespaces/${acmeId}-default/deployments/${name}`);
    return res.status === 200 ? (res.body.spec.replicas as number) : undefined;
  };

  before(async () => {
    w = await startRealWarren({ members: 2 });
    acmeId = await w.tenantId('acme');
    acmeKc = await w.kubeconfigOf('acme');
    await acme('apply', '-f', join(FIXTURES, 'deployment.yaml'));
    await acme('apply', '-f', join(FIXTURES, 'propagationpolicy.yaml'));
    for (const i of [0, 1]) await eventually(async () => (await onMember(i, 'nginx')) === 1, `nginx on member${i + 1}`, { timeoutMs: 90_000 });
  });
  after(async () => { await w?.stop(); });

  it('a Deployment no policy selects runs on the host, as on any cluster (the host makes its ReplicaSet)', async () => {
    const file = join(w.dir, 'local.yaml');
    writeFileSync(file, LOCAL);
    await acme('apply', '-f', file);
    await eventually(async () => (await replicaSetsOnHost('local')).length === 1, 'a ReplicaSet for local on the host', { timeoutMs: 90_000 });
    assert.equal(await onMember(0, 'local'), undefined, 'and it is not on a member');
  });

  it('a propagated Deployment is not run on the host: held there, no ReplicaSet of it runs a replica, the tenant keeps its spec', async () => {
    const path = `/apis/apps/v1/namespaces/${acmeId}-default/deployments/nginx`;
    // Give the host's deployment controller time to act on the held template: it has, once it observed the held generation.
    const held = await eventually(async () => {
      const d = await w.hostHttp.get(path);
      const ok = d.status === 200 && d.body.spec.replicas === 0 && d.body.spec.paused === true && (d.body.status?.observedGeneration ?? 0) >= d.body.metadata.generation;
      return ok ? d.body : undefined;
    }, 'nginx held on the host and seen held by its controller', { timeoutMs: 90_000 });
    assert.equal(held.metadata.labels['propagation.warren.dev/held'], 'true');
    // The fixture is applied before its policy: the host made a ReplicaSet before the hold, which then scales it to 0.
    await eventually(async () => (await replicaSetsOf('nginx')).every((rs) => (rs.spec.replicas ?? 0) === 0 && (rs.status?.replicas ?? 0) === 0),
      'every ReplicaSet of nginx on the host at 0', { timeoutMs: 90_000 });
    await eventually(async () => (await podsOnHost('nginx')).length === 0, 'no pod of nginx on the host', { timeoutMs: 90_000 });
    // A change of the template makes no new ReplicaSet on the host (paused), and reaches the members.
    const before = await replicaSetsOnHost('nginx');
    await acme('set', 'image', 'deployment/nginx', 'nginx=nginx:1.25');
    await eventually(async () => {
      const m = await new KubeHttp(w.members[0]!.kubeconfig).get(path);
      return m.status === 200 && m.body.spec.template.spec.containers[0].image === 'nginx:1.25';
    }, 'the new image on member1', { timeoutMs: 90_000 });
    await eventually(async () => {
      const d = await w.hostHttp.get(path);
      return d.status === 200 && (d.body.status?.observedGeneration ?? 0) >= d.body.metadata.generation;
    }, 'the host controller has seen the new template', { timeoutMs: 90_000 });
    assert.deepEqual(await replicaSetsOnHost('nginx'), before, 'no new ReplicaSet for the new template on the host');
    assert.equal((await acme('get', 'deployment', 'nginx', '-o', 'jsonpath={.spec.replicas}')).trim(), '2', 'the tenant reads its own replicas (the fixture\'s 2; the host holds 0)');
    assert.equal(await onMember(0, 'nginx'), 1, 'member1 keeps its share (1 of 2)');
  });

  it('the status of a propagated Deployment has one writer; the tenant reads the members\' aggregate', async () => {
    // What the members' deployment controllers would write once their replica runs (kept current, as they do: the
    // previous test's new image may still be on its way to member2), so the engine has a status to report.
    const admins = w.members.map((m) => new KubeHttp(m.kubeconfig));
    const path = `/apis/apps/v1/namespaces/${acmeId}-default/deployments/nginx`;
    // 180 s: at load 27 (session 9's second whole run) 90 s ran out here; the last health seen goes into the
    // timeout's message, so a failure says whether a member's status never came or never turned Healthy.
    let health = '(no answer yet)';
    await eventually(async () => {
      for (const admin of admins) if (!(await reportReplicasRunning(admin, path, 1))) { health = 'a member\'s status write did not land yet'; return false; }
      health = await acme('get', 'rb', 'nginx-deployment', '-o', 'jsonpath={.status.aggregatedStatus[*].health}');
      return health === 'Healthy Healthy';
    }, 'both members healthy in the binding', { timeoutMs: 180_000 }).catch((err: Error) => {
      throw new Error(`${err.message}; the binding's health last read: ${JSON.stringify(health)}`);
    });
    const d = await w.hostHttp.get(`/apis/apps/v1/namespaces/${acmeId}-default/deployments/nginx`);
    assert.equal(d.status, 200);
    const writers = new Set((d.body.metadata.managedFields as ManagedField[]).filter((f) => f.fieldsV1?.['f:status'] !== undefined).map((f) => f.manager));
    assert.deepEqual([...writers], ['kube-controller-manager'], `status writers: ${[...writers].join(', ')}`);
    await eventually(async () => (await acme('get', 'deployment', 'nginx', '-o', 'jsonpath={.status.readyReplicas}')).trim() === '2',
      'the tenant reads the members\' 1 + 1 ready replicas', { timeoutMs: 60_000 });
    assert.equal(d.body.status?.readyReplicas ?? 0, 0, 'while the host\'s own status says nothing runs there');
  });
});
