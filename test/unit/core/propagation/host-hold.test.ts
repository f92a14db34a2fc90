import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KubeObject } from '../../../../src/core/types.ts';
import { fromHeld, hasHeldForm, HELD_LABEL, HELD_MARKS, HELD_STATUS_ANNOTATION, isHeld, toHeld } from '../../../../src/core/propagation/host-hold.ts';

const key = fc.stringMatching(/^[a-z][a-z0-9.-]{0,12}(\/[a-z0-9]{1,8})?$/).filter((k) => !k.startsWith('propagation.warren.dev'));
const strings = fc.option(fc.dictionary(key, fc.string({ maxLength: 8 }), { minKeys: 1, maxKeys: 3 }), { nil: undefined });

/** A Deployment in its tenant form: no held marks, spec always there, optional fields absent rather than empty. */
const deployment = fc.record({
  labels: strings,
  annotations: strings,
  replicas: fc.option(fc.nat(1000), { nil: undefined }),
  paused: fc.option(fc.boolean(), { nil: undefined }),
  status: fc.option(fc.record({ replicas: fc.nat(50), readyReplicas: fc.nat(50), observedGeneration: fc.nat(9) }), { nil: undefined }),
}).map(({ labels, annotations, replicas, paused, status }): KubeObject => {
  const spec: Record<string, unknown> = { selector: { matchLabels: { app: 'web' } } };
  if (replicas !== undefined) spec.replicas = replicas;
  if (paused !== undefined) spec.paused = paused;
  // Through JSON: fast-check's records have a null prototype, objects from an apiserver do not.
  return JSON.parse(JSON.stringify({
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: 'web', namespace: 'abcdef-default', ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) },
    spec, ...(status ? { status } : {}),
  })) as KubeObject;
});

describe('host-hold: the held form of a propagated Deployment (ADR 0023)', () => {
  it('round-trips: fromHeld(toHeld(d)) is d, for every tenant-form Deployment', () => {
    fc.assert(fc.property(deployment, (d) => { assert.deepEqual(fromHeld(toHeld(d)), d); }));
  });

  it('the held form runs nothing on the host: paused, 0 replicas, marked, no status of its own', () => {
    fc.assert(fc.property(deployment, (d) => {
      const held = toHeld(d);
      assert.equal((held.spec as { replicas: number }).replicas, 0);
      assert.equal((held.spec as { paused: boolean }).paused, true);
      assert.ok(isHeld(held));
      assert.equal(held.status, undefined, 'the host owns .status; the engine\'s status is in the annotation');
    }));
  });

  it('leaves an object that is not held as it is, and shows none of its marks', () => {
    fc.assert(fc.property(deployment, (d) => {
      assert.equal(fromHeld(d), d);
      const view = JSON.stringify(fromHeld(toHeld(d)).metadata);
      for (const mark of HELD_MARKS) assert.ok(!view.includes(mark), `${mark} in the tenant view`);
    }));
  });

  it('the tenant reads the status the engine wrote, never the host\'s', () => {
    const held = toHeld({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 3 } });
    held.metadata.annotations = { ...held.metadata.annotations, [HELD_STATUS_ANNOTATION]: JSON.stringify({ readyReplicas: 3 }) };
    held.status = { replicas: 0, conditions: [{ type: 'Progressing', status: 'Unknown', reason: 'DeploymentPaused' }] };
    assert.deepEqual(fromHeld(held).status, { readyReplicas: 3 });
    assert.deepEqual(fromHeld(held).spec, { replicas: 3 });
  });

  it('reads marks it did not write as absent, not as a guess', () => {
    const held: KubeObject = {
      apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 0, paused: true },
      metadata: { name: 'web', labels: { [HELD_LABEL]: 'true' }, annotations: { 'propagation.warren.dev/replicas': '-1', 'propagation.warren.dev/paused': 'yes', [HELD_STATUS_ANNOTATION]: '[1]' } },
    };
    assert.deepEqual(fromHeld(held), { apiVersion: 'apps/v1', kind: 'Deployment', spec: {}, metadata: { name: 'web' } });
  });

  it('has a held form for apps/v1 Deployments only, so far', () => {
    assert.equal(hasHeldForm({ apiVersion: 'apps/v1', kind: 'Deployment' }), true);
    assert.equal(hasHeldForm({ apiVersion: 'apps/v1', kind: 'StatefulSet' }), false);
  });
});
