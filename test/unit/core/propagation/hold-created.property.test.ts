// Hold at create time (ADR 0023): the gateway creates a claimed workload held,
// before the apiserver defaults it. For every held kind and any tenant values,
// the created object is held in full, and the tenant's view of it is what kube
// would have stored: its own values, or kube's default where it gave none.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KubeObject } from '../../../../src/core/types.ts';
import { HELD_KINDS } from '../../../../src/core/propagation/held-kinds.ts';
import { fromHeld, fullyHeld, holdCreated, release } from '../../../../src/core/propagation/host-hold.ts';

const API_VERSIONS: Record<string, string[]> = { apps: ['apps/v1'], batch: ['batch/v1', 'batch/v1beta1'], '': ['v1'] };

const created = fc.constantFrom(...HELD_KINDS).chain((kind) => fc.record({
  apiVersion: fc.constantFrom(...API_VERSIONS[kind.group]!),
  values: fc.record(Object.fromEntries(kind.fields.map((f) => [f.name, fc.option((f.type === 'count' ? fc.nat(500) : fc.boolean()) as fc.Arbitrary<number | boolean>, { nil: undefined })]))),
  nodeSelector: fc.option(fc.dictionary(fc.constantFrom('disk', 'zone', 'kubernetes.io/os'), fc.constantFrom('ssd', 'a', 'linux'), { minKeys: 1 }), { nil: undefined }),
}).map(({ apiVersion, values, nodeSelector }) => {
  const spec: Record<string, unknown> = { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], ...(nodeSelector ? { nodeSelector } : {}) } } };
  for (const [k, v] of Object.entries(values)) if (v !== undefined) spec[k] = v;
  const obj = JSON.parse(JSON.stringify({ apiVersion, kind: kind.kind, metadata: { name: 'w', namespace: 'abcdef-default' }, spec })) as KubeObject;
  return { kind, obj };
}));

describe('holdCreated: a workload created held', () => {
  it('is held in full, and its view is the body with kube\'s defaults filled in (every held kind, any values)', () => {
    fc.assert(fc.property(created, ({ kind, obj }) => {
      const held = holdCreated(obj);
      assert.ok(fullyHeld(held), JSON.stringify(held));
      const expected = structuredClone(obj);
      const spec = expected.spec as Record<string, unknown>;
      for (const f of kind.fields) if (spec[f.name] === undefined && f.kubeDefault !== undefined) spec[f.name] = f.kubeDefault;
      assert.deepEqual(fromHeld(held), expected);
      assert.deepEqual(release(held), expected);
      assert.deepEqual(obj.spec, JSON.parse(JSON.stringify(obj.spec)), 'the body is not changed in place');
    }));
  });

  it('records kube\'s defaults: replicas 1, parallelism 1, suspend false; a Deployment\'s paused stays unset', () => {
    const of = (apiVersion: string, kind: string): KubeObject => ({ apiVersion, kind, metadata: { name: 'w' }, spec: {} });
    assert.equal(holdCreated(of('apps/v1', 'Deployment')).metadata.annotations?.['propagation.warren.dev/replicas'], '1');
    assert.equal(holdCreated(of('apps/v1', 'Deployment')).metadata.annotations?.['propagation.warren.dev/paused'], undefined);
    assert.equal(holdCreated(of('batch/v1', 'Job')).metadata.annotations?.['propagation.warren.dev/parallelism'], '1');
    assert.equal(holdCreated(of('batch/v1beta1', 'CronJob')).metadata.annotations?.['propagation.warren.dev/suspend'], 'false');
    const configMap: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
    assert.deepEqual(holdCreated(configMap), configMap, 'a kind without a held form comes back as it is');
  });
});
