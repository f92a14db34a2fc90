// CPU time (user + system) used by processes of a stack, read from
// /proc/<pid>/stat (fields 14 and 15, in clock ticks of 1/100 s), so a bench can
// say where the machine's cores went during a scenario, whatever the load.
import { readFileSync } from 'node:fs';

/** CPU seconds a process has used so far. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export type CpuGroups = Record<string, readonly number[]>;

/** Starts counting the CPU of each named group of pids (and of this process as "bench"); `read()` gives seconds used since. */
export function cpuMeter(groups: CpuGroups): { read(): Record<string, number> } {
  const sample = (): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const [name, pids] of Object.entries(groups)) out[name] = pids.reduce((n, pid) => n + cpuSeconds(pid), 0);
    const own = process.cpuUsage();
    out.bench = (own.user + own.system) / 1e6;
    return out;
  };
  const before = sample();
  return {
    read() {
      const now = sample();
      return Object.fromEntries(Object.entries(now).map(([k, v]) => [k, v - (before[k] ?? 0)]));
    },
  };
}
