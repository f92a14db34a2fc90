// Preloaded into a server child (`--import=<this file>`) when WARREN_BENCH_STALL_DIR is set:
// every 100 ms it records the longest event-loop delay of that window (monitorEventLoopDelay),
// one "epoch-ms<TAB>max-ms" line per window, in DIR/<pid>.tsv. The heavy-body suite reads it
// to say how long each process's loop was held while a heavy tenant wrote (issue 13).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setInterval } from 'node:timers';

const dir = process.env.WARREN_BENCH_STALL_DIR;
if (dir) {
  const file = join(dir, `${process.pid}.tsv`);
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  let lines = '';
  let windows = 0;
  setInterval(() => {
    lines += `${Date.now()}\t${(histogram.max / 1e6).toFixed(1)}\n`;
    histogram.reset();
    if (++windows % 10 === 0) {
      appendFileSync(file, lines);
      lines = '';
    }
  }, 100).unref();
}
