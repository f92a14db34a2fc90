// A large write in turns (issue 13, break 5): the event loop serves another
// tenant's GET between the phases of a 1 MB write, and a write committed in
// between is never overwritten (the commit is a compare-and-swap on the
// resourceVersion read at the start). Counted in turns, not timed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../../../../src/apiserver/store/memory-store.ts';
import type { ObjectKey } from '../../../../src/apiserver/store/store.ts';
import { ResourceCatalog } from '../../../../src/apiserver/registry/catalog.ts';
import { Registry } from '../../../../src/apiserver/registry/registry.ts';
import { createDefaultStrategy } from '../../../../src/apiserver/registry/default-strategy.ts';
import { ensureSystemObjects } from '../../../../src/apiserver/builtin-controllers/namespace-bootstrap.ts';
import { ApiError } from '../../../../src/core/api-error.ts';
import { yieldToLoop } from '../../../../src/http/yield-to-loop.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

/** Counts the reads of one key: each attempt of a write reads the live object once. */
class CountingStore extends MemoryStore {
  private readonly reads = new Map<string, number>();
  override get(key: ObjectKey): KubeObject | undefined {
    this.reads.set(key.name, (this.reads.get(key.name) ?? 0) + 1);
    return super.get(key);
  }
  readsOf(name: string): number {
    return this.reads.get(name) ?? 0;
  }
}

function setup(): { registry: Registry; cm: NonNullable<ReturnType<Registry['lookup']>>; store: CountingStore } {
  const store = new CountingStore();
  const registry = new Registry({ store, catalog: new ResourceCatalog(), strategy: createDefaultStrategy(store) });
  ensureSystemObjects(registry);
  const cm = registry.lookup('', 'v1', 'configmaps');
  if (!cm) throw new Error('configmaps are not served');
  return { registry, cm, store };
}

/** A ConfigMap at the gateway's member bound: 10,000 labels and ~1 MB of data. */
function heavy(variant: string, resourceVersion?: string): KubeObject {
  const labels: Record<string, string> = {};
  const data: Record<string, string> = {};
  for (let i = 0; i < 10_000; i++) {
    labels[`k${i.toString(36)}`] = 'v';
    if (i < 9_000) data[`d${i.toString(36)}`] = 'x'.repeat(100);
  }
  data.variant = variant;
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'heavy', labels, ...(resourceVersion ? { resourceVersion } : {}) }, data };
}

const small: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'small' }, data: { a: 'b' } };

describe('registry writes in turns', () => {
  it("serves another tenant's GET between the phases of a 1 MB update, before the update commits", async () => {
    const { registry, cm } = setup();
    registry.create(cm, 'default', small);
    registry.create(cm, 'default', heavy('1'));
    let turns = 0;
    let committed = false;
    const served: boolean[] = [];
    // The neighbour asks again on every turn of the loop while the write is under way.
    const neighbour = async (): Promise<void> => {
      while (!committed) {
        assert.equal((registry.get(cm, 'default', 'small').data as Record<string, string> | undefined)?.a, 'b');
        served.push(committed);
        await yieldToLoop();
      }
    };
    const reads = neighbour();
    const written = await registry.updateInTurns(cm, 'default', 'heavy', heavy('2'), {}, async () => {
      turns++;
      await yieldToLoop();
    });
    committed = true;
    await reads;
    assert.equal((written.data as Record<string, string>).variant, '2');
    assert.ok(turns >= 4, `the write took ${String(turns)} turns, expected one per phase`);
    assert.ok(served.length >= turns, `the neighbour was served ${String(served.length)} times in ${String(turns)} turns`);
    assert.ok(served.every((after) => !after), 'every GET was answered before the write committed');
  });

  it('a write committed between the turns makes a write that named the old resourceVersion a 409, and is kept', async () => {
    const { registry, cm } = setup();
    const first = registry.create(cm, 'default', heavy('1'));
    let other: KubeObject | undefined;
    await assert.rejects(
      registry.updateInTurns(cm, 'default', 'heavy', heavy('2', first.metadata.resourceVersion), {}, async () => {
        other ??= registry.update(cm, 'default', 'heavy', heavy('other'));
        await yieldToLoop();
      }),
      (err: unknown) => err instanceof ApiError && err.code === 409 && err.reason === 'Conflict',
    );
    assert.ok(other);
    const stored = registry.get(cm, 'default', 'heavy');
    assert.equal((stored.data as Record<string, string>).variant, 'other');
    assert.equal(stored.metadata.resourceVersion, other.metadata.resourceVersion);
  });

  it('a merge patch computed again after a conflicting commit keeps both writes (no lost update)', async () => {
    const { registry, cm } = setup();
    registry.create(cm, 'default', heavy('1'));
    let interleaved = 0;
    const patched = await registry.patchInTurns(cm, 'default', 'heavy', { type: 'merge', body: { data: { mine: 'yes' } } }, {}, async () => {
      // Another writer commits once during each of the first two attempts.
      if (interleaved < 2) registry.patch(cm, 'default', 'heavy', 'merge', { data: { [`theirs${String(interleaved++)}`]: 'yes' } });
      await yieldToLoop();
    });
    const data = patched.data as Record<string, string>;
    assert.equal(interleaved, 2);
    assert.deepEqual([data.mine, data.theirs0, data.theirs1, data.variant], ['yes', 'yes', 'yes', '1']);
    assert.deepEqual(registry.get(cm, 'default', 'heavy').data, data);
  });

  it('a create in turns of a name taken meanwhile is AlreadyExists, the first object kept', async () => {
    const { registry, cm } = setup();
    let first: KubeObject | undefined;
    await assert.rejects(
      registry.createInTurns(cm, 'default', heavy('mine'), {}, async () => {
        first ??= registry.create(cm, 'default', heavy('first'));
        await yieldToLoop();
      }),
      (err: unknown) => err instanceof ApiError && err.reason === 'AlreadyExists',
    );
    assert.ok(first);
    assert.equal((registry.get(cm, 'default', 'heavy').data as Record<string, string>).variant, 'first');
  });

  it("a 1 MB patch with the client's stale resourceVersion is computed once: its 409 is the answer, not retried", async () => {
    const { registry, cm, store } = setup();
    const first = registry.create(cm, 'default', heavy('1'));
    registry.patch(cm, 'default', 'heavy', 'merge', { data: { moved: 'on' } });
    const body = { ...heavy('2', first.metadata.resourceVersion), metadata: { ...heavy('2').metadata, resourceVersion: first.metadata.resourceVersion } };
    const readsBefore = store.readsOf('heavy');
    let turns = 0;
    await assert.rejects(
      registry.patchInTurns(cm, 'default', 'heavy', { type: 'merge', body }, {}, async () => {
        turns++;
        await yieldToLoop();
      }),
      (err: unknown) => err instanceof ApiError && err.code === 409 && err.reason === 'Conflict' && err.message.includes('the object has been modified'),
    );
    assert.equal(store.readsOf('heavy') - readsBefore, 1, 'the live object was read once: one attempt');
    assert.equal(turns, 1, 'one turn (after the patch phase), then the 409');
    assert.equal((registry.get(cm, 'default', 'heavy').data as Record<string, string>).moved, 'on');
  });

  it("a 1 MB PUT with another uid is one attempt: the uid precondition's 409 is not retried", async () => {
    const { registry, cm, store } = setup();
    registry.create(cm, 'default', heavy('1'));
    const body = { ...heavy('2'), metadata: { ...heavy('2').metadata, uid: 'not-the-uid' } };
    const readsBefore = store.readsOf('heavy');
    await assert.rejects(
      registry.updateInTurns(cm, 'default', 'heavy', body, {}, yieldToLoop),
      (err: unknown) => err instanceof ApiError && err.code === 409 && err.message.includes('Precondition failed: UID in precondition'),
    );
    assert.equal(store.readsOf('heavy') - readsBefore, 1, 'the live object was read once: one attempt');
  });

  it("a forced server-side apply of a 1 MB body by a second manager takes turns through its apply phases, serving a neighbour's GET on each", async () => {
    const { registry, cm } = setup();
    registry.create(cm, 'default', small);
    registry.patch(cm, 'default', 'heavy', 'apply', heavy('1'), { fieldManager: 'one' });
    let turns = 0;
    let served = 0;
    const applied = await registry.patchInTurns(cm, 'default', 'heavy', { type: 'apply', body: heavy('2') }, { fieldManager: 'two', force: true }, async () => {
      turns++;
      await yieldToLoop();
      // A neighbour's GET between two steps of the apply, answered from the store as it was.
      assert.equal((registry.get(cm, 'default', 'small').data as Record<string, string> | undefined)?.a, 'b');
      served++;
    });
    assert.equal((applied.data as Record<string, string>).variant, '2');
    assert.deepEqual(applied.metadata.managedFields?.map((m) => m.manager).sort(), ['one', 'two']);
    // validateApplied, strip, clone, managers, merge, conflicts, drops: seven turns before the rest of the write's.
    assert.ok(turns >= 10, `the apply took ${String(turns)} turns, expected the apply's phases among them`);
    assert.equal(served, turns);
  });
});
