// Preloaded into a server child (`--import=<this file>`) when WARREN_BENCH_STALL_DIR is set:
// a 5 ms timer notes, at each tick, the wall time and the process's CPU time since the last
// tick. A tick that comes late waited behind a synchronous stretch of work (or behind other
// processes, on a loaded machine); the CPU the process burned meanwhile is that stretch's own
// cost, which the machine's load does not inflate. Every 100 ms one line
// "epoch-ms<TAB>longest wall gap ms<TAB>most CPU ms in one gap" goes to DIR/<pid>.tsv; the
// heavy-body suite reads it to say how long each process's loop was held (issue 13).
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setInterval } from 'node:timers';

const dir = process.env.WARREN_BENCH_STALL_DIR;
const TICK_MS = 5;
if (dir) {
  const file = `${dir}/${process.pid}.tsv`;
  const cpuMs = () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  let lastWall = performance.now();
  let lastCpu = cpuMs();
  let windowStart = lastWall;
  let wallMax = 0;
  let cpuMax = 0;
  let lines = '';
  let windows = 0;
  setInterval(() => {
    const wall = performance.now();
    const cpu = cpuMs();
    wallMax = Math.max(wallMax, wall - lastWall - TICK_MS);
    cpuMax = Math.max(cpuMax, cpu - lastCpu);
    lastWall = wall;
    lastCpu = cpu;
    if (wall - windowStart < 100) return;
    lines += `${Date.now()}\t${wallMax.toFixed(1)}\t${cpuMax.toFixed(1)}\n`;
    windowStart = wall;
    wallMax = 0;
    cpuMax = 0;
    if (++windows % 10 === 0) {
      appendFileSync(file, lines);
      lines = '';
    }
  }, TICK_MS).unref();
}
