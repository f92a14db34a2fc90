// A heap snapshot of the engine process after a propagation scenario, on
// request: `PROPAGATION_HEAP_SNAPSHOT_DIR=<dir> npm run bench -- propagation`
// starts `warren serve` with --heapsnapshot-signal and, once a scenario's load
// is done (before its stack stops), signals it and waits for the file. V8 runs
// a full GC before it writes one, so the snapshot is what the engine keeps, not
// the garbage RSS also counts. Summarise it with bench/heap-summary.ts.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const dir = (): string | undefined => process.env.PROPAGATION_HEAP_SNAPSHOT_DIR || undefined;

export function heapSnapshotFlags(): string[] {
  const d = dir();
  return d ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${d}`] : [];
}

const snapshots = (d: string): string[] => readdirSync(d).filter((f) => f.endsWith('.heapsnapshot'));

/** Signals the process and waits until its new snapshot file stops growing; undefined when not asked for. */
export async function takeHeapSnapshot(pid: number, label: string): Promise<{ file: string; bytes: number } | undefined> {
  const d = dir();
  if (!d) return undefined;
  const before = new Set(snapshots(d));
  process.kill(pid, 'SIGUSR2');
  let last = -1;
  let stableFor = 0;
  // Writing takes the process's main thread for seconds at 300 MiB; no deadline beyond 10 minutes.
  for (let waited = 0; waited < 600_000; waited += 1_000) {
    await new Promise((r) => setTimeout(r, 1_000));
    const file = snapshots(d).find((f) => !before.has(f));
    if (!file) continue;
    const bytes = statSync(join(d, file)).size;
    stableFor = bytes === last && bytes > 0 ? stableFor + 1 : 0;
    last = bytes;
    if (stableFor >= 3) return { file: join(d, file), bytes };
  }
  throw new Error(`${label}: no complete heap snapshot of pid ${pid} in ${d} after 10 minutes`);
}
