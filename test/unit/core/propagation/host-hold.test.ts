import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KubeObject } from '../../../../src/core/types.ts';
import { heldMarkIn } from '../../../../src/core/propagation/held-input.ts';
import {
  desiredOf, fromHeld, hasHeldForm, HELD_LABEL, HELD_MARKS, HELD_STATUS_ANNOTATION, hold, isHeld, PAUSED_ANNOTATION,
  reholdWrite, release, REPLICAS_ANNOTATION, setHeldReplicas, showTenantView, withHeldStatus,
} from '../../../../src/core/propagation/host-hold.ts';

const key = fc.stringMatching(/^[a-z][a-z0-9.-]{0,12}(\/[a-z0-9]{1,8})?$/).filter((k) => !k.startsWith('propagation.warren.dev'));
const strings = fc.option(fc.dictionary(key, fc.string({ maxLength: 8 }), { minKeys: 1, maxKeys: 3 }), { nil: undefined });
const statusArb = fc.record({ replicas: fc.nat(50), readyReplicas: fc.nat(50), observedGeneration: fc.nat(9) }).map((s) => ({ ...s }));

/** A Deployment in its tenant form: no held marks, spec always there, optional fields absent rather than empty. */
const deployment = fc.record({
  labels: strings,
  annotations: strings,
  replicas: fc.option(fc.nat(1000), { nil: undefined }),
  paused: fc.option(fc.boolean(), { nil: undefined }),
  status: fc.option(statusArb, { nil: undefined }),
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
const withoutStatus = (d: KubeObject): KubeObject => { const { status: _s, ...rest } = d; return rest as KubeObject; };
const spec = (d: KubeObject): { replicas?: number; paused?: boolean } => d.spec as { replicas?: number; paused?: boolean };

describe('host-hold: the held form of a propagated Deployment (ADR 0023)', () => {
  it('round-trips: release(hold(d)) is d, status (the host\'s) included, for every tenant-form Deployment', () => {
    fc.assert(fc.property(deployment, (d) => { assert.deepEqual(release(hold(d)), d); }));
  });

  it('the tenant view of a held object is its own spec with the engine\'s status (none before the engine wrote one)', () => {
    fc.assert(fc.property(deployment, fc.option(statusArb, { nil: undefined }), (d, engine) => {
      const held = engine ? withHeldStatus(hold(d), engine) : hold(d);
      const view = fromHeld(held);
      assert.deepEqual(view, engine ? { ...withoutStatus(d), status: engine } : withoutStatus(d));
    }));
  });

  it('the held form runs nothing on the host: paused, 0 replicas, marked, the host\'s status untouched', () => {
    fc.assert(fc.property(deployment, (d) => {
      const held = hold(d);
      assert.equal(spec(held).replicas, 0);
      assert.equal(spec(held).paused, true);
      assert.ok(isHeld(held));
      assert.deepEqual(held.status, d.status, 'the host owns .status: holding does not write it');
    }));
  });

  it('a tenant\'s write of a held object is held again, keeping the engine\'s status annotation and the host\'s .status', () => {
    fc.assert(fc.property(deployment, deployment, statusArb, statusArb, (stored, written, engine, host) => {
      const live = { ...withHeldStatus(hold(stored), engine), status: host };
      const sent = reholdWrite(written, live);
      assert.ok(isHeld(sent));
      assert.equal(spec(sent).replicas, 0);
      assert.deepEqual(sent.status, host, 'the write changes no status upstream');
      assert.deepEqual(fromHeld(sent), { ...withoutStatus(written), status: engine }, 'the tenant reads back what it wrote');
    }));
  });

  it('shows none of the marks, held or not, in labels, annotations or managedFields', () => {
    fc.assert(fc.property(deployment, fc.boolean(), (d, held) => {
      const obj = held ? withHeldStatus(hold(d), { replicas: 1 }) : d;
      obj.metadata.managedFields = [{ manager: 'x', fieldsV1: { 'f:metadata': { 'f:labels': { [`f:${HELD_LABEL}`]: {} }, 'f:annotations': { [`f:${REPLICAS_ANNOTATION}`]: {} } } } }];
      const view = JSON.stringify(fromHeld(obj).metadata);
      for (const mark of HELD_MARKS) assert.ok(!view.includes(mark), `${mark} in the tenant view`);
    }));
  });

  it('reads marks it did not write as absent, not as a guess', () => {
    const held: KubeObject = {
      apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 0, paused: true },
      metadata: { name: 'web', labels: { [HELD_LABEL]: 'true' }, annotations: { [REPLICAS_ANNOTATION]: '-1', [PAUSED_ANNOTATION]: 'yes', [HELD_STATUS_ANNOTATION]: '[1]' } },
      status: { replicas: 0 },
    };
    assert.deepEqual(fromHeld(held), { apiVersion: 'apps/v1', kind: 'Deployment', spec: {}, metadata: { name: 'web' } });
    assert.deepEqual(desiredOf({ metadata: { annotations: { [REPLICAS_ANNOTATION]: '99999999999' } } }), {}, 'beyond int32');
  });

  it('a Table row\'s partial object (no spec, no status) only loses the marks', () => {
    const partial: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { [HELD_LABEL]: 'true', app: 'web' }, annotations: { [REPLICAS_ANNOTATION]: '3' } } };
    showTenantView(partial);
    assert.deepEqual(partial, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web' } } });
  });

  it('holding a marked object that a write partly unheld keeps the tenant\'s value of each field still held', () => {
    const held = hold({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 2, paused: false } });
    const applied = { ...held, spec: { ...(held.spec as object), replicas: 7 } }; // an apply set replicas, paused stayed held
    const again = hold(applied);
    assert.deepEqual(fromHeld(again).spec, { replicas: 7, paused: false });
    assert.deepEqual(hold(held), held, 'holding a held object changes nothing');
  });

  it('the scale of a held object sets the tenant\'s replicas and nothing the host acts on', () => {
    const live = hold({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 2 } });
    const scaled = setHeldReplicas(live, 5);
    assert.equal(spec(scaled).replicas, 0);
    assert.equal(spec(fromHeld(scaled)).replicas, 5);
  });

  it('finds a mark a tenant tries to write in its labels or annotations', () => {
    for (const mark of HELD_MARKS) {
      assert.equal(heldMarkIn({ metadata: { labels: { [mark]: 'true' } } }), mark);
      assert.equal(heldMarkIn({ metadata: { annotations: { [mark]: '1' } } }), mark);
    }
    assert.equal(heldMarkIn({ metadata: { labels: { app: 'web' }, annotations: { 'propagation.warren.dev/other': 'x' } } }), undefined);
    assert.equal(heldMarkIn({ metadata: null } as unknown as KubeObject), undefined);
  });

  it('has a held form for every workload kind a host controller runs, by group and kind (ADR 0023)', () => {
    for (const [apiVersion, kind] of [['apps/v1', 'Deployment'], ['apps/v1', 'StatefulSet'], ['apps/v1', 'DaemonSet'], ['apps/v1', 'ReplicaSet'], ['v1', 'ReplicationController'],
      ['batch/v1', 'Job'], ['batch/v1', 'CronJob'], ['batch/v1beta1', 'CronJob']] as const) assert.equal(hasHeldForm({ apiVersion, kind }), true, `${apiVersion} ${kind}`);
    for (const [apiVersion, kind] of [['v1', 'Pod'], ['apps/v1', 'ControllerRevision'], ['v1', 'Deployment'], ['example.com/v1', 'Deployment'], ['v1', 'PodTemplate']] as const) {
      assert.equal(hasHeldForm({ apiVersion, kind }), false, `${apiVersion} ${kind}`);
    }
  });
});
