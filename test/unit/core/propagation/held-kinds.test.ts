// The held form of every workload kind (ADR 0023, held-kinds.ts): a pure pair
// per kind with a round-trip property, the held values the host's controllers
// act on without running anything, the tenant's view, marks refused in input,
// and the Table cells printed for the tenant.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KubeObject } from '../../../../src/core/types.ts';
import { heldFieldsInvalid, heldMarkIn } from '../../../../src/core/propagation/held-input.ts';
import { HELD_KINDS, HELD_NODE_SELECTOR_KEY } from '../../../../src/core/propagation/held-kinds.ts';
import { fromHeld, fullyHeld, hold, isHeld, reholdWrite, release, withHeldStatus } from '../../../../src/core/propagation/host-hold.ts';
import { heldRowCells } from '../../../../src/core/propagation/held-table.ts';
import { toTenantObject } from '../../../../src/core/tenancy/object-translation.ts';

const API_VERSION: Record<string, string[]> = {
  Deployment: ['apps/v1'], StatefulSet: ['apps/v1'], ReplicaSet: ['apps/v1'], DaemonSet: ['apps/v1'],
  ReplicationController: ['v1'], Job: ['batch/v1'], CronJob: ['batch/v1', 'batch/v1beta1'],
};
const key = fc.stringMatching(/^[a-z][a-z0-9.-]{0,10}(\/[a-z0-9]{1,6})?$/).filter((k) => !k.startsWith('propagation.warren.dev'));
const labels = fc.option(fc.dictionary(key, fc.string({ maxLength: 6 }), { minKeys: 1, maxKeys: 3 }), { nil: undefined });

/** An object of a held kind in its tenant form: its held fields optional, a DaemonSet's nodeSelector optional. */
const tenantObject = fc.record({
  row: fc.constantFrom(...HELD_KINDS),
  versionPick: fc.nat(1),
  labels,
  count: fc.option(fc.nat(2147483647), { nil: undefined }),
  flag: fc.option(fc.boolean(), { nil: undefined }),
  nodeSelector: labels,
  status: fc.option(fc.record({ replicas: fc.nat(9), succeeded: fc.nat(9) }), { nil: undefined }),
}).map(({ row, versionPick, labels: l, count, flag, nodeSelector, status }): KubeObject => {
  const versions = API_VERSION[row.kind]!;
  const spec: Record<string, unknown> = { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'i' }], ...(nodeSelector ? { nodeSelector } : {}) } } };
  for (const f of row.fields) {
    const value = f.type === 'count' ? count : flag;
    if (value !== undefined) spec[f.name] = value;
  }
  return JSON.parse(JSON.stringify({
    apiVersion: versions[versionPick % versions.length], kind: row.kind,
    metadata: { name: 'x', namespace: 'abcdef-default', ...(l ? { labels: l } : {}) }, spec, ...(status ? { status } : {}),
  })) as KubeObject;
});
const withoutStatus = (o: KubeObject): KubeObject => { const { status: _s, ...rest } = o; return rest as KubeObject; };

describe('held kinds: every workload kind a host controller runs has a held form (ADR 0023)', () => {
  it('round-trips for every kind: release(hold(o)) is o, the host\'s status included', () => {
    fc.assert(fc.property(tenantObject, (o) => { assert.deepEqual(release(hold(o)), o); }), { numRuns: 500 });
  });

  it('the held form runs nothing: each held field at its held value, a DaemonSet bound to the node term, the host\'s status untouched', () => {
    fc.assert(fc.property(tenantObject, (o) => {
      const held = hold(o);
      assert.ok(isHeld(held) && fullyHeld(held));
      assert.deepEqual(held.status, o.status);
      const spec = held.spec as Record<string, any>;
      const row = HELD_KINDS.find((k) => k.kind === o.kind)!;
      for (const f of row.fields) assert.equal(spec[f.name], f.held, `${o.kind}.spec.${f.name}`);
      if (row.nodeSelector) assert.equal(spec.template.spec.nodeSelector[HELD_NODE_SELECTOR_KEY], 'true');
      assert.deepEqual(hold(held), held, 'holding a held object changes nothing');
    }), { numRuns: 300 });
  });

  it('the tenant view is its own spec with the engine\'s status; a tenant write of it is held again', () => {
    fc.assert(fc.property(tenantObject, tenantObject, (stored, written) => {
      fc.pre(stored.kind === written.kind);
      const engine = { replicas: 1, succeeded: 1 };
      const live = { ...withHeldStatus(hold(stored), engine), status: { host: true } };
      assert.deepEqual(fromHeld(live), { ...withoutStatus(stored), status: engine });
      const sent = reholdWrite({ ...written, apiVersion: stored.apiVersion }, live);
      assert.ok(fullyHeld(sent));
      assert.deepEqual(sent.status, { host: true }, 'the write changes no status upstream');
      assert.deepEqual(fromHeld(sent), { ...withoutStatus({ ...written, apiVersion: stored.apiVersion }), status: engine });
    }), { numRuns: 300 });
  });

  it('not fully held when a held field or the node term was changed behind the gateway\'s back', () => {
    const ds = hold({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd' }, spec: { template: { spec: { containers: [] } } } });
    const unbound = structuredClone(ds);
    delete (unbound.spec as any).template.spec.nodeSelector;
    assert.equal(fullyHeld(unbound), false);
    const job = hold({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { parallelism: 3 } });
    assert.equal(fullyHeld({ ...job, spec: { parallelism: 3 } }), false);
    assert.deepEqual(fromHeld(hold({ ...job, spec: { parallelism: 5 } })).spec, { parallelism: 5 }, 'a newer write of a held field wins over the record');
  });

  it('refuses the node term in a DaemonSet a tenant writes (its view never has it), not elsewhere', () => {
    const ds = (nodeSelector: Record<string, string>): KubeObject => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd' }, spec: { template: { spec: { nodeSelector } } } });
    assert.match(heldMarkIn(ds({ [HELD_NODE_SELECTOR_KEY]: 'false' })) ?? '', /nodeSelector propagation\.warren\.dev\/held/);
    assert.equal(heldMarkIn(ds({ disk: 'ssd' })), undefined);
    assert.equal(heldMarkIn({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { nodeSelector: { [HELD_NODE_SELECTOR_KEY]: 'true' } } }), undefined);
  });

  it('checks the tenant\'s held values as kube would (upstream only sees the held ones)', () => {
    const job = (parallelism: unknown): KubeObject => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { parallelism } });
    assert.equal(heldFieldsInvalid(job(2)), null);
    assert.match(heldFieldsInvalid(job(-1))?.message ?? '', /^Job\.batch "j" is invalid: spec\.parallelism: Invalid value: -1: must be greater than or equal to 0/);
    assert.equal(heldFieldsInvalid(job(-1))?.code, 422);
    const cron = heldFieldsInvalid({ apiVersion: 'batch/v1beta1', kind: 'CronJob', metadata: { name: 'c' }, spec: { suspend: 'yes' } });
    assert.match(cron?.message ?? '', /spec\.suspend: Invalid value: "yes": must be a boolean/);
    assert.match(heldFieldsInvalid({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'r' }, spec: { replicas: 1.5 } })?.message ?? '', /spec\.replicas/);
    assert.equal(heldFieldsInvalid({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd' }, spec: {} }), null);
  });
});

describe('held kinds: Table cells printed from the tenant\'s values and the engine\'s status', () => {
  const cols = (...names: string[]): Array<{ name: string }> => names.map((name) => ({ name }));
  const heldWith = (o: KubeObject, status: Record<string, unknown>): KubeObject => withHeldStatus(hold(o), status);
  const now = new Date('2026-11-26T12:00:00Z');

  it('StatefulSet Ready, ReplicaSet/RC Desired-Current-Ready', () => {
    const sts = heldWith({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 's' }, spec: { replicas: 3 } }, { readyReplicas: 2 });
    assert.deepEqual(heldRowCells(cols('Name', 'Ready', 'Age'), ['s', '0/0', '1m'], sts, now), ['s', '2/3', '1m']);
    for (const [apiVersion, kind] of [['apps/v1', 'ReplicaSet'], ['v1', 'ReplicationController']]) {
      const rs = heldWith({ apiVersion, kind, metadata: { name: 'r' }, spec: { replicas: 4 } }, { replicas: 4, readyReplicas: 1 });
      assert.deepEqual(heldRowCells(cols('Name', 'Desired', 'Current', 'Ready', 'Age'), ['r', 0, 0, 0, '1m'], rs, now), ['r', 4, 4, 1, '1m'], kind);
    }
  });

  it('DaemonSet counts from the engine, Node Selector without the held term', () => {
    const ds = heldWith({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd' }, spec: {} }, { desiredNumberScheduled: 2, currentNumberScheduled: 2, numberReady: 1, updatedNumberScheduled: 2, numberAvailable: 1 });
    const columns = cols('Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age');
    assert.deepEqual(heldRowCells(columns, ['d', 0, 0, 0, 0, 0, `${HELD_NODE_SELECTOR_KEY}=true`, '1m'], ds, now), ['d', 2, 2, 1, 2, 1, '<none>', '1m']);
    assert.deepEqual(heldRowCells(columns, ['d', 0, 0, 0, 0, 0, `disk=ssd,${HELD_NODE_SELECTOR_KEY}=true`, '1m'], ds, now)[6], 'disk=ssd');
  });

  it('Job Completions, Duration and Status; CronJob Suspend, Active and Last Schedule', () => {
    const status = { succeeded: 2, startTime: '2026-11-26T11:59:00Z', completionTime: '2026-11-26T11:59:30Z', conditions: [{ type: 'Complete', status: 'True' }] };
    const job = heldWith({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { parallelism: 2, completions: 4 } }, status);
    assert.deepEqual(heldRowCells(cols('Name', 'Status', 'Completions', 'Duration', 'Age'), ['j', 'Running', '0/4', '5m', '5m'], job, now), ['j', 'Complete', '2/4', '30s', '5m']);
    const queue = heldWith({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'q' }, spec: { parallelism: 3 } }, { succeeded: 1 });
    assert.deepEqual(heldRowCells(cols('Name', 'Completions'), ['q', '0/1'], queue, now), ['q', '1/1 of 3']);
    const cron = heldWith({ apiVersion: 'batch/v1beta1', kind: 'CronJob', metadata: { name: 'c' }, spec: { schedule: '* * * * *', suspend: false } },
      { active: [{ name: 'c-1' }], lastScheduleTime: '2026-11-26T11:58:00Z' });
    assert.deepEqual(heldRowCells(cols('Name', 'Schedule', 'Suspend', 'Active', 'Last Schedule', 'Age'), ['c', '* * * * *', 'True', 0, '<none>', '1h'], cron, now),
      ['c', '* * * * *', 'False', 1, '2m', '1h']);
  });
});

describe('held kinds: a held DaemonSet\'s ControllerRevisions in the tenant\'s view', () => {
  const revision = (owner: string, nodeSelector: Record<string, string>): KubeObject => ({
    apiVersion: 'apps/v1', kind: 'ControllerRevision', revision: 2,
    metadata: { name: 'agent-1', namespace: 'aaaaaa-default', ownerReferences: [{ apiVersion: 'apps/v1', kind: owner, name: 'agent', uid: 'u', controller: true }] },
    data: { spec: { template: { spec: { containers: [], nodeSelector } } } },
  } as unknown as KubeObject);

  it('drops the node term of a DaemonSet\'s revision, and only of a DaemonSet\'s', () => {
    const shown = toTenantObject({ id: 'aaaaaa' }, revision('DaemonSet', { [HELD_NODE_SELECTOR_KEY]: 'true' })) as unknown as { data: any };
    assert.deepEqual(shown.data.spec.template.spec, { containers: [] });
    const kept = toTenantObject({ id: 'aaaaaa' }, revision('DaemonSet', { disk: 'ssd', [HELD_NODE_SELECTOR_KEY]: 'true' })) as unknown as { data: any };
    assert.deepEqual(kept.data.spec.template.spec.nodeSelector, { disk: 'ssd' });
    const sts = toTenantObject({ id: 'aaaaaa' }, revision('StatefulSet', { [HELD_NODE_SELECTOR_KEY]: 'true' })) as unknown as { data: any };
    assert.deepEqual(sts.data.spec.template.spec.nodeSelector, { [HELD_NODE_SELECTOR_KEY]: 'true' }, 'a StatefulSet\'s own selector is the tenant\'s');
  });
});

describe('held kinds: the node term in managedFields', () => {
  it('is not shown (the engine\'s entry names it under f:spec)', () => {
    const ds = hold({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd' }, spec: { template: { spec: { containers: [] } } } });
    ds.metadata.managedFields = [{ manager: 'warren-propagation', fieldsV1: { 'f:metadata': {}, 'f:spec': { 'f:template': { 'f:spec': { 'f:nodeSelector': { [`f:${HELD_NODE_SELECTOR_KEY}`]: {} } } } } } }];
    assert.ok(!JSON.stringify(fromHeld(ds)).includes('propagation.warren.dev'));
  });
});
