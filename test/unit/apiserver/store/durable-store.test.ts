import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDurableStore, type DurableStore } from '../../../../src/apiserver/store/durable-store.ts';
import { crc32, crc32Fallback } from '../../../../src/apiserver/store/crc32.ts';
import { cm, describeStoreBehaviour } from './store-behaviour.ts';

const root = fs.mkdtempSync(join(tmpdir(), 'warren-store-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = (): string => join(root, `s${n++}`);

describeStoreBehaviour('DurableStore', (options) => openDurableStore(freshDir(), {
  onListenerError: () => undefined,
  ...(options?.maxEvents ? { history: { maxEvents: options.maxEvents } } : {}),
}));

const key = (name: string, namespace = 'ns') => ({ resource: 'configmaps', namespace, name });

/** Everything a store holds, for before/after comparisons. */
function state(store: DurableStore): string[] {
  return ['configmaps', 'secrets'].flatMap((r) => store.listJson(r).items);
}

function churn(store: DurableStore, count: number, start = 0): void {
  for (let i = start; i < start + count; i++) {
    const name = `o${i % 40}`;
    const ns = i % 3 === 0 ? 'a' : 'b';
    if (!store.get(key(name, ns))) store.create(key(name, ns), cm(ns, name, { i: String(i) }));
    else if (i % 5 === 0) store.delete(key(name, ns));
    else store.update(key(name, ns), cm(ns, name, { i: String(i) }));
    if (i % 10 === 0) store.create({ resource: 'secrets', namespace: ns, name: `s${i}` }, cm(ns, `s${i}`));
  }
}

describe('DurableStore durability', () => {
  it('reopens with every object, the revision counter, and the log history for watches', async () => {
    const dir = freshDir();
    const store = openDurableStore(dir);
    churn(store, 300);
    const before = state(store);
    const revision = store.revision();
    await store.close();
    const reopened = openDurableStore(dir);
    assert.deepEqual(state(reopened), before);
    assert.equal(reopened.revision(), revision);
    assert.equal(reopened.create(key('new'), cm('ns', 'new')).metadata.resourceVersion, String(revision + 1));
    const seen: number[] = [];
    reopened.watch('configmaps', revision - 3, (e) => seen.push(e.revision))();
    assert.ok(seen.length >= 1 && seen.every((r) => r > revision - 3), 'history replayed from the log');
    await reopened.close();
  });

  it('compaction keeps everything, across reopen, and later writes append to the fresh log', async () => {
    const dir = freshDir();
    const store = openDurableStore(dir, { compactAfterBytes: 4096 });
    churn(store, 200);
    store.compact();
    assert.equal(store.stats().logBytes, 0);
    churn(store, 50, 1000);
    const before = state(store);
    const revision = store.revision();
    await new Promise((resolve) => setImmediate(resolve)); // let a scheduled compaction run
    await store.close();
    assert.ok(fs.existsSync(join(dir, 'snapshot')));
    const reopened = openDurableStore(dir);
    assert.deepEqual(state(reopened), before);
    assert.equal(reopened.revision(), revision);
    assert.equal(reopened.oldestWatchableRevision() <= revision, true);
    await reopened.close();
  });

  it('keeps the revision when everything was deleted before compaction', async () => {
    const dir = freshDir();
    const store = openDurableStore(dir);
    store.create(key('a'), cm('ns', 'a'));
    store.delete(key('a'));
    store.compact();
    await store.close();
    const reopened = openDurableStore(dir);
    assert.equal(reopened.revision(), 2);
    assert.equal(reopened.create(key('b'), cm('ns', 'b')).metadata.resourceVersion, '3');
    await reopened.close();
  });

  const tails: [string, (log: string) => void][] = [
    ['a torn final record (no newline)', (log) => {
      const last = fs.readFileSync(log);
      fs.appendFileSync(log, last.subarray(0, Math.floor(last.length / 2)));
    }],
    ['a final record with a bad checksum', (log) => {
      fs.appendFileSync(log, `00000000\t[99,"A","configmaps","ns","ghost"]\t{"metadata":{"name":"ghost"}}\n`);
    }],
    ['a final record cut inside its checksum', (log) => fs.appendFileSync(log, '3fa')],
  ];
  for (const [name, damage] of tails) {
    it(`ignores ${name}, never serves it, and keeps writing after it`, async () => {
      const dir = freshDir();
      const store = openDurableStore(dir);
      for (let i = 0; i < 20; i++) store.create(key(`o${i}`), cm('ns', `o${i}`));
      const before = state(store);
      await store.close();
      damage(join(dir, 'log'));
      const reopened = openDurableStore(dir);
      assert.deepEqual(state(reopened), before);
      assert.equal(reopened.revision(), 20);
      assert.equal(reopened.get(key('ghost')), undefined);
      reopened.create(key('after'), cm('ns', 'after'));
      await reopened.close();
      const again = openDurableStore(dir);
      assert.equal(again.revision(), 21);
      assert.ok(again.get(key('after')));
      await again.close();
    });
  }

  it('refuses to open a log damaged in the middle rather than drop acknowledged writes', async () => {
    const dir = freshDir();
    const store = openDurableStore(dir);
    for (let i = 0; i < 5; i++) store.create(key(`o${i}`), cm('ns', `o${i}`));
    await store.close();
    const log = join(dir, 'log');
    const bytes = fs.readFileSync(log);
    bytes[20] = bytes[20] === 0x41 ? 0x42 : 0x41;
    fs.writeFileSync(log, bytes);
    assert.throws(() => openDurableStore(dir), /corrupt record at byte 0 followed by valid records/);
    assert.equal(fs.existsSync(join(dir, 'lock')), false, 'a failed open releases the lock');
  });

  it('refuses a second open of a directory that is in use', async () => {
    const dir = freshDir();
    const store = openDurableStore(dir);
    assert.throws(() => openDurableStore(dir), /already open/);
    store.create(key('a'), cm('ns', 'a'));
    await store.close();
    const reopened = openDurableStore(dir);
    assert.ok(reopened.get(key('a')));
    await reopened.close();
  });

  for (const [label, compactAfter] of [['log only', '1000000000'], ['with frequent compaction', '20000']] as const) {
    it(`every acknowledged write survives kill -9 (${label})`, { timeout: 60_000 }, async () => {
      const dir = freshDir();
      const script = fileURLToPath(new URL('./fixtures/durable-writer.ts', import.meta.url));
      const child = spawn(process.execPath, ['--import', 'tsx', script, dir, compactAfter], { stdio: ['ignore', 'pipe', 'inherit'] });
      const acks: string[] = [];
      let buffered = '';
      await new Promise<void>((resolve, reject) => {
        child.on('error', reject);
        child.on('exit', () => resolve());
        child.stdout.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          const lines = buffered.split('\n');
          buffered = lines.pop() ?? '';
          acks.push(...lines);
          if (acks.length >= 3000 && !child.killed) child.kill('SIGKILL');
        });
      });
      assert.equal(child.signalCode, 'SIGKILL');
      // The last acknowledged state of each name, from the child's own acks.
      const expected = new Map<string, { rev: number; deleted: boolean }>();
      let maxRev = 0;
      for (const line of acks) {
        const [rev, kind, name] = line.split(' ');
        expected.set(name ?? '', { rev: Number(rev), deleted: kind === 'D' });
        maxRev = Math.max(maxRev, Number(rev));
      }
      const store = openDurableStore(dir);
      assert.ok(store.revision() >= maxRev, `revision ${store.revision()} covers the last ack ${maxRev}`);
      for (const [name, want] of expected) {
        const got = store.get(key(name));
        if (store.revision() === maxRev) {
          // Nothing after the last ack reached the log: the state is exactly the acknowledged one.
          if (want.deleted) assert.equal(got, undefined, name);
          else assert.equal(got?.metadata.resourceVersion, String(want.rev), name);
        } else if (!want.deleted) {
          // Writes after the last ack may have landed; none can be older than what was acknowledged.
          assert.ok(got === undefined ? true : Number(got.metadata.resourceVersion) >= want.rev, name);
        }
      }
      await store.close();
    });
  }
});

describe('crc32', () => {
  it('the JS fallback agrees with the native one', () => {
    for (const text of ['', 'hello', 'x'.repeat(1000), 'é€😀']) {
      const bytes = Buffer.from(text);
      assert.equal(crc32Fallback(bytes), crc32(bytes));
    }
    assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
  });
});
