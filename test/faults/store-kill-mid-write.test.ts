// Fault: the embedded store's process is killed (kill -9) while clients hammer
// it with writes, at a random moment, then restarted on the same --data-dir.
// Every write the client saw acknowledged (201/200) must be there after the
// restart, at its acknowledged resourceVersion or later; nothing torn is served
// (a read of every object parses, and the log was cut to whole records).
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWarrenApiserver, type WarrenProcess } from '../helpers/warren-process.ts';
import { faultConfigMap } from '../helpers/fault-tenant.ts';

const ROUNDS = 3;
const WRITERS = 8;

describe('fault: embedded store killed mid-write', { timeout: 120_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'warren-fault-store-'));
  let proc: WarrenProcess | undefined;
  after(async () => {
    await proc?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`keeps every acknowledged write across ${ROUNDS} kill -9 at random moments`, async () => {
    // name -> the last acknowledged version of its data, and its resourceVersion.
    const acked = new Map<string, { v: number; rv: number }>();
    const deleted = new Set<string>();
    let acknowledgements = 0;
    proc = await startWarrenApiserver(dataDir);
    const port = proc.port;
    assert.equal((await proc.http.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'hammer' } })).status, 201);

    for (let round = 0; round < ROUNDS; round++) {
      const http = proc.http;
      let stop = false;
      const writer = async (w: number): Promise<void> => {
        for (let i = 0; !stop; i++) {
          const name = `w${w}-r${round}-${i % 20}`;
          const known = acked.get(name);
          try {
            // Create, then update (bigger payloads too, so records straddle write boundaries), then sometimes delete.
            if (!known) {
              const res = await http.post('/api/v1/namespaces/hammer/configmaps', faultConfigMap(name, { v: '0', pad: 'x'.repeat((i * 997) % 20_000) }));
              if (res.status === 201) acked.set(name, { v: 0, rv: Number(res.body.metadata.resourceVersion) });
            } else if (i % 17 === 16) {
              const res = await http.delete(`/api/v1/namespaces/hammer/configmaps/${name}`);
              if (res.status === 200) { acked.delete(name); deleted.add(name); }
            } else {
              const v = known.v + 1;
              const res = await http.patch(`/api/v1/namespaces/hammer/configmaps/${name}`, 'application/merge-patch+json', { data: { v: String(v) } });
              if (res.status === 200) acked.set(name, { v, rv: Number(res.body.metadata.resourceVersion) });
            }
            acknowledgements++;
            if (acked.has(name)) deleted.delete(name);
          } catch {
            return; // the server died under this request: it was never acknowledged
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
      await new Promise((r) => setTimeout(r, 400 + Math.random() * 1200));
      await proc.kill('SIGKILL');
      stop = true;
      await Promise.all(writers);
      const logBytes = statSync(join(dataDir, 'store', 'log')).size;

      proc = await startWarrenApiserver(dataDir, { port });
      const list = await proc.http.get('/api/v1/namespaces/hammer/configmaps?labelSelector=fault%3Dyes');
      assert.equal(list.status, 200);
      const stored = new Map<string, { data: Record<string, string>; metadata: { resourceVersion: string } }>();
      for (const item of list.body.items) stored.set(item.metadata.name, item);
      for (const [name, { v, rv }] of acked) {
        const obj = stored.get(name);
        assert.ok(obj, `round ${round}: acknowledged ${name} is gone`);
        assert.ok(Number(obj.data.v) >= v, `round ${round}: ${name} went back from v${v} to v${obj.data.v}`);
        assert.ok(Number(obj.metadata.resourceVersion) >= rv, `round ${round}: ${name} went back in resourceVersion`);
      }
      // A delete acknowledged stays deleted (unless a later acknowledged create brought it back).
      for (const name of deleted) if (!acked.has(name)) assert.ok(!stored.has(name), `round ${round}: deleted ${name} came back`);
      // The log now ends on a whole record: a torn tail was cut, never replayed or served.
      const log = readFileSync(join(dataDir, 'store', 'log'));
      assert.ok(log.length === 0 || log[log.length - 1] === 0x0a, 'the log ends with a whole record');
      assert.ok(log.length <= logBytes, 'reopening only cuts the log, never grows it');
      // Writes go on after the restart, at higher versions.
      const next = await proc.http.post('/api/v1/namespaces/hammer/configmaps', faultConfigMap(`after-${round}`));
      assert.equal(next.status, 201);
      assert.ok(Number(next.body.metadata.resourceVersion) > Math.max(0, ...[...acked.values()].map((a) => a.rv)));
    }
    assert.ok(acknowledgements > 30 && acked.size > 10, `enough acknowledged writes to mean something (${acknowledgements}, ${acked.size} objects)`);
  });
});
