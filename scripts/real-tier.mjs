// The `real` tier's runner (node scripts/run-tests.mjs real): Warren on real Kubernetes
// 1.20 control planes (etcd, kube-apiserver, controller-manager), every file in a
// process group of its own with a hard cap, a few files at a time, and a table of
// each file's wall time at the end.
//
// Why a few at a time: a real-tier file spends most of its wall time waiting (an
// apiserver starting, the controller-manager's namespace deletion and garbage
// collection, a member's health thresholds), not computing; two files at once on two
// cores overlap one's waiting with the other's work. More than that and the CPU-bound
// phases (apiserver bootstrap, module loading) starve each other.
// Why whole output per file: two files' spec reporters interleaved line by line are
// unreadable; each file's output is printed in one piece when it ends (and kept under
// WARREN_REAL_LOG_DIR when set), with a line when it starts.
// Nothing is left running: a file killed at the cap (SIGKILL to its group) leaves its
// control planes to their watchdog (test/helpers/real-kube.ts) and its `warren serve`
// to exit-with-parent; test/real/watchdog.test.ts proves both.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { setInterval, clearInterval, setTimeout, clearTimeout } from 'node:timers';
import { TS_REGISTER } from './ts-files.mjs';

/**
 * Seconds a file may run before its process group is killed. 25 minutes: on this shared 2-core machine at load
 * 35-40 a file's control-plane starts and restarts queue minutes for the machine's start lock (real-kube.ts):
 * propagation and serve-lifecycle were killed at a 600 s cap in their last tests, and propagation (three starts,
 * two member restarts) took 870 s (session 8); a cap that kills a passing file at load tells nothing. It bounds
 * a hung file, which the files' own describe timeouts (propagation's 1,500 s the longest) bound first. The issue's bound for the whole tier (10 minutes) is for an idle machine.
 */
const FILE_CAP_MS = Number(process.env.WARREN_REAL_FILE_CAP_S ?? 1500) * 1000;
const JOBS = Math.max(1, Number(process.env.WARREN_REAL_JOBS ?? 2));

/**
 * Start order: the longest files first (measured: see docs/compatibility.md), so the last
 * to finish is a short one, but the two with three control planes each (propagation,
 * host-controllers) not together: their six starts queue for the machine's start lock
 * (real-kube.ts), and at load 50 the second file's last start came after 500 s. A file not
 * named here starts after these.
 */
const LONGEST_FIRST = ['propagation', 'faults-upstream', 'host-controllers', 'serve-lifecycle', 'contract'];

function weight(file) {
  const i = LONGEST_FIRST.indexOf(basename(file).replace(/\.test\.ts$/, ''));
  return i < 0 ? LONGEST_FIRST.length : i;
}

const running = new Set();

function runFile(file) {
  const started = Date.now();
  console.log(`[real tier] start ${file} (${running.size + 1} running)`);
  return new Promise((resolve) => {
    // The file as its own program, from the compiled TypeScript (scripts/ts-files.mjs); the cap
    // below is its time limit.
    const child = spawn(process.execPath, [
      '--import', TS_REGISTER, '--test-reporter=spec', file,
    ], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    let capped = false;
    const timer = setTimeout(() => {
      capped = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }, FILE_CAP_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      const seconds = (Date.now() - started) / 1000;
      const result = { file, code: capped ? 'killed at the cap' : (code ?? signal), seconds };
      process.stdout.write(`\n[real tier] ===== ${file}: ${result.code === 0 ? 'pass' : `FAIL (${result.code})`} in ${seconds.toFixed(0)} s =====\n${output}\n`);
      if (process.env.WARREN_REAL_LOG_DIR) {
        mkdirSync(process.env.WARREN_REAL_LOG_DIR, { recursive: true });
        writeFileSync(join(process.env.WARREN_REAL_LOG_DIR, `${basename(file)}.log`), output);
      }
      resolve(result);
    });
  });
}

/** Runs the files JOBS at a time; prints the per-file table; resolves with the exit code. */
export async function runRealTier(files) {
  // Each file runs in a process group of its own (so the cap can kill all of it): pass on
  // an interrupt of this runner, which the groups would otherwise not see.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      for (const child of running) try { process.kill(-child.pid, signal); } catch { /* already gone */ }
      process.exit(130);
    });
  }
  const queue = [...files].sort((a, b) => weight(a) - weight(b) || a.localeCompare(b));
  const began = Date.now();
  // The machine's 1-minute load average every 15 s: a wall time means little without it.
  const loads = [loadavg()[0]];
  const sampler = setInterval(() => loads.push(loadavg()[0]), 15_000);
  const results = [];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) results.push(await runFile(file));
  };
  await Promise.all(Array.from({ length: Math.min(JOBS, files.length) }, worker));
  clearInterval(sampler);
  results.sort((a, b) => a.file.localeCompare(b.file));
  const width = Math.max(...results.map((r) => r.file.length));
  console.log(`\nreal tier, wall time per file (${JOBS} at a time, file cap ${FILE_CAP_MS / 1000} s):`);
  for (const r of results) console.log(`  ${r.file.padEnd(width)}  ${r.seconds.toFixed(0).padStart(4)} s  ${r.code === 0 ? 'pass' : `FAIL (${r.code})`}`);
  const failed = results.filter((r) => r.code !== 0);
  console.log(`  ${'total (wall)'.padEnd(width)}  ${((Date.now() - began) / 1000).toFixed(0).padStart(4)} s  ${failed.length === 0 ? 'pass' : `${failed.length} failed`}`);
  const mean = loads.reduce((a, b) => a + b, 0) / loads.length;
  console.log(`  load average (1 min) during the run: min ${Math.min(...loads).toFixed(1)}, mean ${mean.toFixed(1)}, max ${Math.max(...loads).toFixed(1)}`);
  return failed.length === 0 ? 0 : 1;
}
