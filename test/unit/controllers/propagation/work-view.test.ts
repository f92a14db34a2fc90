import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { specHash, workView } from '../../../../src/controllers/propagation/work-view.ts';
import { memberView } from '../../../../src/controllers/propagation/member-view.ts';
import { jsonEqual } from '../../../../src/core/json-equal.ts';
import { interpretHealth, reflectStatus } from '../../../../src/core/propagation/status/index.ts';
import type { Work } from '../../../../src/core/propagation/karmada-types.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

const manifest = (replicas: number): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'load', labels: { app: 'web' } },
  spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } },
});

const work = (replicas: number): Work => ({
  apiVersion: 'work.karmada.io/v1alpha1', kind: 'Work',
  metadata: {
    name: 'web-deployment', namespace: 'abc123-karmada-es-member1', uid: 'u1', resourceVersion: '7', generation: 1,
    labels: { 'karmada.io/managed': 'true' }, annotations: { 'work.karmada.io/created-by': 'b1' }, finalizers: ['f'],
    managedFields: [{ manager: 'warren', operation: 'Update', fieldsV1: { 'f:spec': {} } }],
  },
  spec: { workload: { manifests: [manifest(replicas)] } },
  status: { conditions: [{ type: 'Applied', status: 'True', reason: 'AppliedSuccessful', message: 'ok' }] },
});

// JSON values as the API carries them (no undefined inside arrays, no NaN).
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.integer(), fc.string(), fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 5 })),
})).value;

/** The same value with every object's keys in reverse order. */
function reordered(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reordered);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reordered(x)]));
  return v;
}

describe('Work views (what the engine keeps of a Work)', () => {
  it('keep identity, marks, finalizers and status; drop the spec and managedFields for a hash of the spec', () => {
    const view = workView(work(2));
    assert.equal(view.spec, undefined);
    assert.equal(view.metadata.managedFields, undefined);
    assert.deepEqual(view.metadata.labels, { 'karmada.io/managed': 'true' });
    assert.deepEqual(view.metadata.finalizers, ['f']);
    assert.equal(view.metadata.resourceVersion, '7');
    assert.deepEqual(view.status, work(2).status);
    assert.equal(view.specHash, specHash(work(2).spec));
    assert.notEqual(view.specHash, specHash(work(3).spec), 'another manifest is another hash');
  });

  it('take a known hash as given (a status write leaves the spec as it was)', () => {
    assert.equal(workView(work(2), 'known').specHash, 'known');
  });

  it('hash equal specs alike whatever their key order, and unequal ones apart (property)', () => {
    fc.assert(fc.property(json, json, (a, b) => {
      assert.equal(specHash(a), specHash(reordered(a)));
      if (!jsonEqual(a, b)) assert.notEqual(specHash(a), specHash(b));
      else assert.equal(specHash(a), specHash(b));
    }), { numRuns: 300 });
  });

  it('ignore members whose value is undefined, as JSON does', () => {
    assert.equal(specHash({ a: 1, b: undefined }), specHash({ a: 1 }));
  });
});

describe('member views (what the engine keeps of its copies on members)', () => {
  const copy = (status: Record<string, unknown>): KubeObject => ({
    ...manifest(3), metadata: { ...manifest(3).metadata, generation: 4, resourceVersion: '9', annotations: { 'resourcetemplate.karmada.io/generation': '2' }, managedFields: [{ manager: 'karmada-work' }] },
    status,
  });

  it('keep metadata without managedFields, the status, and only the scalars of the spec', () => {
    const view = memberView(copy({ replicas: 3 }));
    assert.equal(view.metadata.managedFields, undefined);
    assert.equal(view.metadata.generation, 4);
    assert.deepEqual(view.spec, { replicas: 3 });
    assert.deepEqual(view.status, { replicas: 3 });
  });

  it('judge health and reflect status as the whole copy does', () => {
    const statuses = [
      {},
      { observedGeneration: 4, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3, conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'ok' }] },
      { observedGeneration: 3, replicas: 3, updatedReplicas: 1, availableReplicas: 1 },
      { observedGeneration: 4, replicas: 3, updatedReplicas: 2, availableReplicas: 2 },
    ];
    for (const s of statuses) {
      assert.equal(interpretHealth(memberView(copy(s))), interpretHealth(copy(s)));
      assert.deepEqual(reflectStatus(memberView(copy(s))), reflectStatus(copy(s)));
    }
    const service: KubeObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] }, status: { loadBalancer: {} } };
    assert.equal(interpretHealth(memberView(service)), interpretHealth(service));
    assert.equal(interpretHealth(memberView(service)), 'Unhealthy');
  });
});
