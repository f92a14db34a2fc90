// Property (session 14, q1): whatever workloads a tenant writes, and however it
// changes them afterwards (replicas, parallelism, a scale, a patch of the pod
// template), the writes the quota lets through never leave the tenant asking
// for more pods than objectsPerResource, nor store a pod template with a
// container that requests nothing of a limited cpu or memory. Run on the
// gateway's own judgement (judgeWrite) over a snapshot that admitted writes
// update, as the admitter does; the oracle counts pods by kube's schema, in a
// table written apart from the code under test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KubeObject } from '../../../../src/core/types.ts';
import { judgeWrite } from '../../../../src/gateway/admission/quota-write.ts';
import type { TenantObjects } from '../../../../src/gateway/admission/quota-usage-cache.ts';

const LIMIT = 10;
const LIMITS = { cpu: '100', memory: '100Gi', objectsPerResource: LIMIT };

interface Kind { group: string; resource: string; kind: string; scalable: boolean }
const KINDS: Kind[] = [
  { group: '', resource: 'pods', kind: 'Pod', scalable: false },
  { group: 'apps', resource: 'deployments', kind: 'Deployment', scalable: true },
  { group: 'apps', resource: 'replicasets', kind: 'ReplicaSet', scalable: true },
  { group: 'apps', resource: 'statefulsets', kind: 'StatefulSet', scalable: true },
  { group: '', resource: 'replicationcontrollers', kind: 'ReplicationController', scalable: true },
  { group: 'batch', resource: 'jobs', kind: 'Job', scalable: false },
  { group: 'batch', resource: 'cronjobs', kind: 'CronJob', scalable: false },
  { group: 'apps', resource: 'daemonsets', kind: 'DaemonSet', scalable: false },
];

/** Where kube keeps the pod spec, and how many pods an object runs (kube's schema). */
function podSpecPath(obj: KubeObject): Record<string, unknown> | undefined {
  const spec = obj.spec as Record<string, any> | undefined;
  if (obj.kind === 'Pod') return spec;
  if (obj.kind === 'CronJob') return spec?.jobTemplate?.spec?.template?.spec;
  return spec?.template?.spec;
}
function oraclePods(obj: KubeObject): number {
  const spec = obj.spec as Record<string, any>;
  switch (obj.kind) {
    case 'Pod': return 1;
    case 'Job': return spec.parallelism ?? 1;
    case 'CronJob': return spec.jobTemplate.spec.parallelism ?? 1;
    case 'DaemonSet': return 1;
    default: return spec.replicas ?? 1;
  }
}
const missesRequest = (obj: KubeObject): boolean => ((podSpecPath(obj)?.containers ?? []) as Array<{ resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> } }>)
  .some((c) => ['cpu', 'memory'].some((r) => c.resources?.requests?.[r] === undefined && c.resources?.limits?.[r] === undefined));

const arbResources = fc.constantFrom<object | undefined>(
  { requests: { cpu: '10m', memory: '1Mi' } }, { limits: { cpu: '10m', memory: '1Mi' } }, { requests: { cpu: '10m' } }, {}, undefined);

function build(kind: Kind, name: string, count: number, resources: object | undefined): KubeObject {
  const pod = { containers: [{ name: 'c', image: 'nginx', ...(resources ? { resources } : {}) }] };
  const template = { metadata: { labels: { app: name } }, spec: pod };
  const meta = { name, namespace: 'a-shop' };
  const apiVersion = kind.group ? `${kind.group}/v1` : 'v1';
  const specs: Record<string, object> = {
    Pod: pod,
    Job: { parallelism: count, template },
    CronJob: { schedule: '* * * * *', jobTemplate: { spec: { parallelism: count, template } } },
    DaemonSet: { template },
  };
  return { apiVersion, kind: kind.kind, metadata: meta, spec: specs[kind.kind] ?? { replicas: count, template } };
}

const arbWrite = fc.record({
  kind: fc.constantFrom(...KINDS),
  name: fc.constantFrom('a', 'b', 'c'),
  count: fc.integer({ min: 0, max: 30 }),
  resources: arbResources,
  scale: fc.boolean(),
});

describe('property: no sequence of writes escapes the pods or requests a quota counts', () => {
  it('admitted writes keep the pods within objectsPerResource and every admitted pod template requests cpu and memory', () => {
    const seen = { admitted: 0, refusedPods: 0, refusedRequests: 0, refusedDaemonSet: 0 };
    fc.assert(fc.property(fc.array(arbWrite, { minLength: 1, maxLength: 12 }), (writes) => {
      const snapshot: TenantObjects = { objects: new Map() };
      for (const w of writes) {
        const target = { group: w.kind.group, resource: w.kind.resource, scale: w.scale && w.kind.scalable };
        const written = target.scale ? { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: w.name }, spec: { replicas: w.count } } as KubeObject : build(w.kind, w.name, w.count, w.resources);
        const judged = judgeWrite({ limits: LIMITS, snapshot, target, namespace: 'a-shop', name: w.name, written });
        if (!judged) continue; // a scale of nothing stored: the upstream answers 404
        if (judged.refusal) {
          assert.equal(judged.refusal.code, 403);
          const m = judged.refusal.message;
          if (/count\/pods/.test(m)) seen.refusedPods++;
          else if (/must specify/.test(m)) seen.refusedRequests++;
          else if (/DaemonSet/.test(m)) seen.refusedDaemonSet++;
          else assert.fail(`an unexpected refusal: ${m}`);
          continue;
        }
        seen.admitted++;
        snapshot.objects.set(judged.key, judged.next);
        assert.equal(missesRequest(judged.next.obj), false, `admitted without requests: ${JSON.stringify(judged.next.obj)}`);
        assert.notEqual(judged.next.obj.kind, 'DaemonSet', 'a DaemonSet admitted');
        const pods = [...snapshot.objects.values()].reduce((sum, o) => sum + oraclePods(o.obj), 0);
        assert.ok(pods <= LIMIT, `${pods} pods stored against a limit of ${LIMIT}`);
      }
    }), { numRuns: 600 });
    assert.ok(seen.admitted > 100 && seen.refusedPods > 50 && seen.refusedRequests > 50 && seen.refusedDaemonSet > 10, JSON.stringify(seen));
  });
});
