// Preloaded into a `warren serve` child by the memory test and the memory-soak
// bench (`node --expose-gc --import=<this file> bin/warren serve ...`): on
// SIGUSR2 it makes a full collection and writes the live heap to
// $TMPDIR/warren-heap-probe-<pid>.json. Heap "used" read at a random moment is
// mostly garbage V8 has not collected yet (it lets the old generation grow
// before it marks); after a full collection it is what the process holds.
// Plain JavaScript: it loads before bin/warren registers tsx.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const file = join(tmpdir(), `warren-heap-probe-${String(process.pid)}.json`);
let seq = 0;
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage();
  writeFileSync(`${file}.tmp`, JSON.stringify({ seq: ++seq, heapUsed, external, arrayBuffers, rss }));
  renameSync(`${file}.tmp`, file);
});
process.on('exit', () => rmSync(file, { force: true }));
