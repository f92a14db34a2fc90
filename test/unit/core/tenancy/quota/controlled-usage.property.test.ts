// Session 14 (v2): a controller reference is the tenant's to write, so no object
// the tenant adds, whatever controller it names, may lower what the quota counts,
// and the quota never counts fewer pods than run. fast-check over sets of Pods,
// ReplicaSets, Jobs, Deployments, CronJobs and StatefulSets whose controller
// references name any of them (or nothing) by uid, under any kind.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KubeObject } from '../../../../../src/core/types.ts';
import { buildUsage, type QuotaObject } from '../../../../../src/core/tenancy/quota/object-demand.ts';
import { compare } from '../../../../../src/core/tenancy/quota/quantity-math.ts';

const RESOURCES: ReadonlyArray<readonly [string, string, string]> = [['', 'pods', 'Pod'], ['apps', 'replicasets', 'ReplicaSet'], ['batch', 'jobs', 'Job'], ['apps', 'deployments', 'Deployment'], ['batch', 'cronjobs', 'CronJob'], ['apps', 'statefulsets', 'StatefulSet']];
const KINDS = [...RESOURCES.map((r) => r[2]), 'Operator'];
const UIDS = ['u0', 'u1', 'u2', 'u3', 'u4', 'u5'];
const podSpec = { containers: [{ name: 'c', resources: { requests: { cpu: '100m', memory: '1Mi' } } }] };

const objectArb = (name: string): fc.Arbitrary<QuotaObject> => fc.record({
  r: fc.constantFrom(...RESOURCES),
  uid: fc.option(fc.constantFrom(...UIDS), { nil: undefined }),
  owner: fc.option(fc.record({ kind: fc.constantFrom(...KINDS), uid: fc.constantFrom(...UIDS), controller: fc.boolean() }), { nil: undefined }),
  n: fc.nat(6),
  suspend: fc.boolean(),
}).map(({ r: [group, resource, kind], uid, owner, n, suspend }) => {
  const metadata = { name, namespace: 'ns', ...(uid ? { uid } : {}), ...(owner ? { ownerReferences: [{ apiVersion: 'v1', name: 'o', ...owner }] } : {}) };
  const template = { spec: podSpec };
  const spec = resource === 'pods' ? podSpec
    : resource === 'jobs' ? { parallelism: n, suspend, template }
      : resource === 'cronjobs' ? { suspend, jobTemplate: { spec: { parallelism: n, template } } }
        : { replicas: n, template };
  return { group, resource, obj: { apiVersion: 'v1', kind, metadata, spec } as KubeObject };
});

const setArb = fc.array(fc.nat(), { maxLength: 10 }).chain((ids) => fc.tuple(...ids.map((_, i) => objectArb(`o${i}`))));

describe('tenant quota: controller references never make pods free (fast-check)', () => {
  it('adding any object, naming any controller, never lowers requests.cpu, requests.memory or count/pods', () => {
    fc.assert(fc.property(setArb, objectArb('added'), (items, added) => {
      const before = buildUsage(items);
      const after = buildUsage([...items, added]);
      for (const r of ['requests.cpu', 'requests.memory', 'count/pods'] as const) assert.ok(compare(after[r], before[r]) >= 0, `${r} fell`);
    }), { numRuns: 400 });
  });

  it('count/pods is never fewer than the Pods that exist, and requests.cpu never less than theirs', () => {
    fc.assert(fc.property(setArb, (items) => {
      const usage = buildUsage(items);
      const pods = items.filter((i) => i.resource === 'pods').length;
      assert.ok(compare(usage['count/pods'], { num: BigInt(pods), den: 1n }) >= 0, 'pods undercounted');
      assert.ok(compare(usage['requests.cpu'], { num: BigInt(pods), den: 10n }) >= 0, 'cpu undercounted');
    }), { numRuns: 400 });
  });
});
