// Propagation under a tenant's quota (session 14, q1), on `warren up` with two
// members, through real kubectl as the tenant: the quota counts a template once,
// and the members together never run more. A Deployment duplicated on both
// members runs on the first one only and its binding says why; divided, it is
// spread over both. An override that changes a CronJob's schedule (more Jobs
// from the same template) is refused on that member. acme's quota is the
// repository's (tenants/acme.yaml: cpu, memory and objectsPerResource).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/core/types.ts';
import { eventually } from '../helpers/poll.ts';
import { usePropagationEnv } from '../helpers/propagation-env.ts';

const WAIT = { timeoutMs: 120_000, intervalMs: 500 };
const POD = '{ containers: [{ name: web, image: nginx, resources: { requests: { cpu: 100m, memory: 64Mi } } }] }';
const deployment = (placement: string): string => `
apiVersion: apps/v1
kind: Deployment
metadata: { name: dup, namespace: default }
spec: { replicas: 2, selector: { matchLabels: { app: dup } }, template: { metadata: { labels: { app: dup } }, spec: ${POD} } }
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: dup, namespace: default }
spec:
  resourceSelectors: [{ apiVersion: apps/v1, kind: Deployment, name: dup }]
  placement: ${placement}
`;
const DUPLICATED = '{ clusterAffinity: { clusterNames: [member1, member2] } }';
const DIVIDED = `{ clusterAffinity: { clusterNames: [member1, member2] }, replicaScheduling: { replicaSchedulingType: Divided, replicaDivisionPreference: Weighted,
    weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: [member1] }, weight: 1 }, { targetCluster: { clusterNames: [member2] }, weight: 1 }] } } }`;
const CRONJOB = `
apiVersion: batch/v1
kind: CronJob
metadata: { name: nightly, namespace: default }
spec: { schedule: "0 3 * * *", concurrencyPolicy: Forbid, jobTemplate: { spec: { template: { spec: { restartPolicy: Never, containers: [{ name: web, image: nginx, resources: { requests: { cpu: 100m, memory: 64Mi } } }] } } } } }
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: nightly, namespace: default }
spec:
  resourceSelectors: [{ apiVersion: batch/v1, kind: CronJob, name: nightly }]
  placement: { clusterAffinity: { clusterNames: [member1, member2] }, replicaScheduling: { replicaSchedulingType: Divided } }
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: { name: nightly, namespace: default }
spec:
  resourceSelectors: [{ apiVersion: batch/v1, kind: CronJob, name: nightly }]
  overrideRules:
  - targetCluster: { clusterNames: [member2] }
    overriders: { plaintext: [{ path: /spec/schedule, operator: replace, value: "* * * * *" }] }
`;

describe('propagation e2e: the quota is not multiplied on members', { timeout: 600_000 }, () => {
  const env = usePropagationEnv('propagation-quota');
  const onMember = async (member: string, path: string): Promise<KubeObject | undefined> => {
    const res = await env.members[member]!.request<KubeObject>('GET', path);
    return res.status === 200 ? res.body : undefined;
  };
  /** The binding's FullyApplied condition as the tenant reads it, once it is False. */
  const notFullyApplied = (binding: string) => eventually(async () => {
    const r = await env.run('acme', 'get', 'rb', binding, '-o', 'json');
    const b = r.code === 0 ? JSON.parse(r.stdout) as { status?: { conditions?: Array<{ type: string; status: string; message?: string }> } } : undefined;
    const c = b?.status?.conditions?.find((x) => x.type === 'FullyApplied');
    return c?.status === 'False' ? c : undefined;
  }, `${binding} not fully applied`, WAIT);

  it('a Deployment duplicated on two members runs on the first only, and its binding says why; divided, it runs on both', async () => {
    const ns = `${env.idOf('acme')}-default`;
    const path = `/apis/apps/v1/namespaces/${ns}/deployments/dup`;
    await env.apply('acme', deployment(DUPLICATED), 'dup.yaml');
    const first = await eventually(() => onMember('member1', path), 'dup on member1', WAIT);
    assert.equal((first.spec as { replicas: number }).replicas, 2);
    const condition = await notFullyApplied('dup-deployment');
    assert.match(condition.message ?? '', /member2.*not applied to this cluster: the placement runs the whole template \(2 pods\) on each of 2 clusters, 2x what the tenant's quota counted; member1 runs it/s);
    assert.doesNotMatch(condition.message ?? '', new RegExp(`${env.idOf('acme')}-`), 'in the tenant\'s terms');
    assert.equal(await onMember('member2', path), undefined, 'no copy on member2');

    await env.apply('acme', deployment(DIVIDED), 'dup.yaml');
    await eventually(async () => {
      const [a, b] = await Promise.all([onMember('member1', path), onMember('member2', path)]);
      const replicas = [a, b].map((d) => (d?.spec as { replicas?: number } | undefined)?.replicas);
      return replicas[0] === 1 && replicas[1] === 1 ? replicas : undefined;
    }, 'one replica on each member', WAIT);
  });

  it('an override of a CronJob\'s schedule is refused on its member; the other member runs the template', async () => {
    const ns = `${env.idOf('acme')}-default`;
    const path = `/apis/batch/v1/namespaces/${ns}/cronjobs/nightly`;
    await env.apply('acme', CRONJOB, 'nightly.yaml');
    const kept = await eventually(() => onMember('member1', path), 'nightly on member1', WAIT);
    assert.equal((kept.spec as { schedule: string }).schedule, '0 3 * * *');
    const condition = await notFullyApplied('nightly-cronjob');
    assert.match(condition.message ?? '', /asks for more than its template \(schedule "\* \* \* \* \*" where the template has "0 3 \* \* \*"\)/);
    assert.equal(await onMember('member2', path), undefined, 'no copy on member2');
  });
});
