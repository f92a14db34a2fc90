// Live deltas (src/console/view/state-delta.ts): applying the delta to the state it came from gives the new
// state exactly, rows that did not change are not sent, and a change the pages do not show sends nothing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ConsoleState, MemberRow, PlacementCell, TenantRow } from '../../../src/console/view/console-types.ts';
import { applyDelta, byCell, byName, stateDelta } from '../../../src/console/view/state-delta.ts';

const NAMES = ['acme', 'globex', 'initech', 'umbrella', 'hooli', 'a-1', 'b2'];
const MEMBERS = ['member1', 'member2', 'eu-west', 'us-east'];
const nameSet = (pool: string[]) => fc.uniqueArray(fc.constantFrom(...pool), { maxLength: pool.length });

const tenantRow = (name: string) => fc.record({ phase: fc.constantFrom('Ready', 'Pending', 'Suspended'), replicas: fc.nat(9), users: fc.array(fc.constantFrom('alice', 'bob'), { maxLength: 2 }) })
  .map((r): TenantRow => ({ name, id: `${name.slice(0, 1)}bc123`, displayName: '', phase: r.phase, users: r.users, admins: [], usage: [], members: [], createdAt: '2026-11-26T00:00:00Z', suspended: r.phase === 'Suspended', replicas: r.replicas }));
const memberRow = (name: string) => fc.constantFrom('Ready', 'NotReady', 'Unknown')
  .map((health): MemberRow => ({ name, health: health as MemberRow['health'], healthReason: '', version: 'v1.33.0', taints: [], region: '', zone: '', provider: '', resources: [], nodes: '3/3', tenants: [] }));
const cell = (tenant: string, member: string) => fc.record({ replicas: fc.nat(9), ready: fc.nat(9) })
  .map((r): PlacementCell => ({ tenant, member, replicas: r.replicas, ready: r.ready, workloads: [] }));

const stateArb: fc.Arbitrary<ConsoleState> = fc.tuple(nameSet(NAMES), nameSet(MEMBERS), fc.nat(1000)).chain(([tenants, members, revision]) => fc.record({
  tenants: fc.tuple(...tenants.map(tenantRow)).map((rows) => [...rows].sort(byName)),
  members: fc.tuple(...members.map(memberRow)).map((rows) => [...rows].sort(byName)),
  cells: fc.subarray(tenants.flatMap((t) => members.map((m) => [t, m] as const))).chain((pairs) => fc.tuple(...pairs.map(([t, m]) => cell(t, m)))).map((cells) => [...cells].sort(byCell)),
  health: fc.tuple(...members.map(() => fc.constantFrom('Ready', 'NotReady'))),
}).map((p): ConsoleState => ({
  tenants: p.tenants,
  members: p.members,
  placement: { tenants: [...tenants].sort(), members: [...members].sort(), cells: p.cells, health: Object.fromEntries(members.map((m, i) => [m, p.health[i] as 'Ready'])) },
  revision: String(revision),
})));

describe('console state deltas', () => {
  it('applying the delta to the old state gives the new one exactly (property)', () => {
    fc.assert(fc.property(stateArb, stateArb, (before, after) => {
      const delta = stateDelta(before, after);
      const rebuilt = delta ? applyDelta(before, delta) : { ...before, revision: after.revision };
      assert.deepEqual(rebuilt, after);
    }), { numRuns: 300 });
  });

  it('a delta carries only the rows that changed, and the keys that went', () => {
    fc.assert(fc.property(stateArb, (before) => {
      fc.pre(before.tenants.length >= 2);
      const [first, second] = before.tenants as [TenantRow, TenantRow];
      const after = { ...before, tenants: before.tenants.filter((t) => t !== second).map((t) => (t === first ? { ...t, replicas: t.replicas + 1 } : t)), revision: 'next' };
      const delta = stateDelta(before, after);
      assert.deepEqual(delta?.tenants, { set: [{ ...first, replicas: first.replicas + 1 }], remove: [second.name] });
      assert.equal(delta?.members, undefined, 'untouched sections are left out');
      assert.equal(delta?.cells, undefined);
    }));
  });

  it('a new revision alone is no delta (nothing the pages show changed)', () => {
    fc.assert(fc.property(stateArb, (state) => {
      assert.equal(stateDelta(state, { ...structuredClone(state), revision: `${state.revision}1` }), undefined);
    }));
  });
});
