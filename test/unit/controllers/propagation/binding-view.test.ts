import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { bindingView } from '../../../../src/controllers/propagation/binding-view.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

const binding = (name: string, extra: { spec?: unknown; status?: unknown } = {}): KubeObject => JSON.parse(JSON.stringify({
  apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding',
  metadata: { name, namespace: 'abc123-load', uid: `uid-${name}`, resourceVersion: '7', labels: { 'tenancy.warren.dev/tenant': 'abc123' }, finalizers: ['karmada.io/binding-controller'],
    managedFields: [{ manager: 'karmada-controller-manager', operation: 'Update', fieldsV1: { 'f:spec': {} } }] },
  spec: extra.spec ?? { resource: { kind: 'Deployment', name }, placement: { clusterAffinity: { clusterNames: ['m1', 'm2'] } }, clusters: [{ name: 'm1' }, { name: 'm2' }] },
  ...(extra.status !== undefined ? { status: extra.status } : { status: { conditions: [{ type: 'Scheduled', status: 'True' }], aggregatedStatus: [{ clusterName: 'm1', applied: true }] } }),
})) as KubeObject;

function withoutManagedFields(b: KubeObject): KubeObject {
  const { managedFields: _m, ...metadata } = b.metadata;
  return { ...b, metadata };
}

describe('binding view (what the engine keeps of a ResourceBinding)', () => {
  it('drops managedFields and shares the parts bindings repeat, frozen', () => {
    const [a, b] = [bindingView(binding('web-1')), bindingView(binding('web-2'))];
    assert.equal(a.metadata.managedFields, undefined);
    const spec = (x: KubeObject): Record<string, unknown> => x.spec as Record<string, unknown>;
    const status = (x: KubeObject): Record<string, unknown> => x.status as Record<string, unknown>;
    assert.equal(spec(a).placement, spec(b).placement);
    assert.equal(spec(a).clusters, spec(b).clusters);
    assert.equal(status(a).aggregatedStatus, status(b).aggregatedStatus);
    assert.equal(a.metadata.labels, b.metadata.labels);
    assert.notEqual(spec(a).resource, spec(b).resource, 'what names the template is its own');
    assert.ok(Object.isFrozen(spec(a).clusters) && Object.isFrozen((spec(a).clusters as object[])[0]));
    assert.throws(() => { (spec(a).clusters as object[]).push({ name: 'm3' }); }, TypeError);
  });

  it('equals the binding without managedFields, whatever its spec and status (property)', () => {
    const part = fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined });
    const body = fc.record({ placement: part, clusters: part, resource: part, requiredBy: part, conditions: part, aggregatedStatus: part, other: part }, { requiredKeys: [] });
    fc.assert(fc.property(body, body, fc.boolean(), (spec, status, odd) => {
      const b = binding('web', { spec: odd ? [spec] : spec, status });
      assert.deepEqual(bindingView(binding('web', { spec: odd ? [spec] : spec, status })), withoutManagedFields(b));
    }), { numRuns: 300 });
  });
});
