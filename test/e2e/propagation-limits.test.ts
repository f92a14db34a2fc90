// Per-cluster replica limits (placement.replicaScheduling.clusterReplicaLimits, Warren's
// own) and the Fresh reschedule Karmada triggers with spec.rescheduleTriggeredAt, through
// the gateway with real kubectl as tenant acme, checked on the embedded members themselves.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeList, KubeObject } from '../../src/core/types.ts';
import type { ResourceBinding } from '../../src/core/propagation/karmada-types.ts';
import { eventually } from '../helpers/poll.ts';
import { usePropagationEnv } from '../helpers/propagation-env.ts';
import { createUpstream } from '../../src/kube/upstream-client.ts';


const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, labels: { app: web } }
spec:
  replicas: 6
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec: { containers: [{ name: web, image: nginx }] }
`;
const policy = (replicaScheduling: string): string => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: web-limits }
spec:
  resourceSelectors: [{ apiVersion: apps/v1, kind: Deployment, name: web }]
  placement:
    clusterAffinity: { clusterNames: [member1, member2] }
    replicaScheduling: ${replicaScheduling}
`;
const STATIC_MAX2 = `{ replicaSchedulingType: Divided, replicaDivisionPreference: Weighted, weightPreference: { staticWeightList: [
      { targetCluster: { clusterNames: [member1] }, weight: 1 }, { targetCluster: { clusterNames: [member2] }, weight: 1 }] },
      clusterReplicaLimits: [{ targetCluster: { clusterNames: [member1] }, maxReplicas: 2 }] }`;
const DYNAMIC = `{ replicaSchedulingType: Divided, replicaDivisionPreference: Weighted, weightPreference: { dynamicWeight: AvailableReplicas } }`;

describe('per-cluster replica limits and Fresh rescheduling', { timeout: 150_000 }, () => {
  const env = usePropagationEnv('limits');
  const { members } = env;
  const run = (...args: string[]) => env.run('acme', ...args);
  const acme = env.as('acme');
  const applyText = (name: string, text: string): Promise<void> => env.apply('acme', text, `${name}.yaml`);
  const binding = async (): Promise<ResourceBinding> => JSON.parse(await acme('get', 'resourcebinding', 'web-deployment', '-o', 'json')) as ResourceBinding;
  /** Replicas of web per member, as the members themselves have them. */
  async function spread(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const [name, m] of Object.entries(members)) {
      const res = await m.request<KubeList>('GET', '/apis/apps/v1/deployments');
      const d = res.body.items.find((i: KubeObject) => i.metadata.name === 'web');
      if (d) out[name] = (d.spec as { replicas: number }).replicas;
    }
    return out;
  }
  const spreadIs = (want: Record<string, number>) => eventually(async () => {
    const got = await spread();
    return JSON.stringify(got) === JSON.stringify(want) ? got : undefined;
  }, `members hold ${JSON.stringify(want)}`);


  it('refuses limits with min above max (422 from the policy validators)', async () => {
    const file = join(env.root, 'bad.yaml');
    writeFileSync(file, policy(`{ replicaSchedulingType: Divided, clusterReplicaLimits: [{ targetCluster: {}, minReplicas: 3, maxReplicas: 2 }] }`));
    const r = await run('apply', '-f', file);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /is invalid: .*clusterReplicaLimits\[0\].*minReplicas must not be greater than maxReplicas/s);
  });

  it('static 1:1 with maxReplicas 2 on member1 puts 2 on member1 and 4 on member2', async () => {
    await applyText('deployment', deployment);
    await applyText('policy', policy(STATIC_MAX2));
    await spreadIs({ member1: 2, member2: 4 });
    const b = await binding();
    assert.deepEqual(b.spec.clusters, [{ name: 'member1', replicas: 2 }, { name: 'member2', replicas: 4 }]);
  });

  it('Steady keeps 2/4 after the limit is dropped; rescheduleTriggeredAt re-divides Fresh to 3/3', async () => {
    await applyText('policy', policy(DYNAMIC));
    // The detector rescheduled (Steady) once the binding carries the new placement and is Scheduled.
    const steady = await eventually(async () => {
      const b = await binding();
      const scheduled = b.status?.conditions?.find((c) => c.type === 'Scheduled');
      return b.spec.placement?.replicaScheduling?.weightPreference?.dynamicWeight === 'AvailableReplicas'
        && scheduled?.status === 'True' && b.status?.schedulerObservedGeneration === b.metadata.generation ? b : undefined;
    }, 'the binding rescheduled with the dynamic placement');
    assert.deepEqual(steady.spec.clusters, [{ name: 'member1', replicas: 2 }, { name: 'member2', replicas: 4 }], 'Steady keeps what fits');
    assert.deepEqual(await spread(), { member1: 2, member2: 4 });

    // A trigger later than lastScheduledTime, at whole seconds.
    const last = Date.parse(steady.status?.lastScheduledTime ?? '');
    assert.ok(!Number.isNaN(last), 'lastScheduledTime is set');
    // Not in the future: a trigger ahead of the clock would keep rescheduling until the clock
    // passes it (Karmada's rule too). Wait until a whole second after lastScheduledTime has begun.
    while (Date.now() < last + 1000) await new Promise((r) => setTimeout(r, 50));
    const trigger = new Date(Date.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    // Bindings are the engine's (ADR 19): the tenant may not set the trigger; the platform (a rebalancer) does, upstream.
    const patch = JSON.stringify({ spec: { rescheduleTriggeredAt: trigger } });
    const refused = await run('patch', 'resourcebinding', 'web-deployment', '--type', 'merge', '-p', patch);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /Forbidden|forbidden.*managed by the propagation engine/);
    const host = createUpstream({ path: env.up().adminKubeconfigPath });
    try {
      const res = await host.request('PATCH', `/apis/work.karmada.io/v1alpha2/namespaces/${env.idOf('acme')}-default/resourcebindings/web-deployment`, JSON.parse(patch), { 'Content-Type': 'application/merge-patch+json' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    } finally {
      host.close();
    }
    await spreadIs({ member1: 3, member2: 3 });
    // The status write (lastScheduledTime) follows the spec write the members already acted on.
    const fresh = await eventually(async () => {
      const b = await binding();
      return Date.parse(b.status?.lastScheduledTime ?? '') >= Date.parse(trigger) ? b : undefined;
    }, 'lastScheduledTime to catch up with the trigger, so no further reschedule');
    assert.equal(fresh.spec.rescheduleTriggeredAt, trigger, 'the detector keeps the trigger');
    assert.deepEqual(fresh.spec.clusters, [{ name: 'member1', replicas: 3 }, { name: 'member2', replicas: 3 }]);
  });

  it('mins that exceed the replicas leave the members as they are and say why (Scheduled False, Unschedulable)', async () => {
    await applyText('policy', policy(`{ replicaSchedulingType: Divided, clusterReplicaLimits: [{ targetCluster: {}, minReplicas: 4 }] }`));
    const failed = await eventually(async () => {
      const c = (await binding()).status?.conditions?.find((x) => x.type === 'Scheduled');
      return c?.status === 'False' ? c : undefined;
    }, 'Scheduled False');
    assert.equal(failed.reason, 'Unschedulable');
    assert.match(failed.message ?? '', /minReplicas of the selected clusters sum to 8, more than the 6 replicas/);
    assert.deepEqual(await spread(), { member1: 3, member2: 3 });
  });
});
