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
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
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
/** Each running file's accounting directory (readCost), removed also when the runner is interrupted. */
const accountingDirs = new Set();

/**
 * What a file cost besides its wall time: the CPU seconds of its own process tree (the test, its `warren serve`
 * and kubectl children: /usr/bin/time's user + system, which counts waited-for children), the CPU seconds of its
 * control planes' daemons (etcd, kube-apiserver, controller-manager: started under setsid, outside that tree;
 * test/helpers/real-kube.ts writes them to WARREN_REAL_STATS as it stops each), and its control-plane starts
 * (restarts of one apiserver or etcd included).
 */
function readCost(timeFile, statsFile) {
  const cost = { cpu: undefined, planeCpu: 0, starts: 0 };
  if (existsSync(timeFile)) {
    const [user, system] = readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
    if (Number.isFinite(user) && Number.isFinite(system)) cost.cpu = user + system;
  }
  if (existsSync(statsFile)) {
    for (const line of readFileSync(statsFile, 'utf8').split('\n').filter(Boolean)) {
      let entry;
      try { entry = JSON.parse(line); } catch { continue; }
      if (entry.start) cost.starts += 1;
      if (entry.cpu) cost.planeCpu += entry.seconds;
    }
  }
  return cost;
}

const TIME = '/usr/bin/time';

function runFile(file) {
  const started = Date.now();
  console.log(`[real tier] start ${file} (${running.size + 1} running)`);
  const accounting = mkdtempSync(join(tmpdir(), 'warren-real-cost-'));
  const timeFile = join(accounting, 'time');
  const statsFile = join(accounting, 'stats');
  accountingDirs.add(accounting);
  return new Promise((resolve) => {
    // The file as its own program, from the compiled TypeScript (scripts/ts-files.mjs), under
    // /usr/bin/time when there is one (its CPU); the cap below is its time limit.
    const command = [process.execPath, '--import', TS_REGISTER, '--test-reporter=spec', file];
    const timed = existsSync(TIME) ? [TIME, '-o', timeFile, '-f', '%U %S', ...command] : command;
    const child = spawn(timed[0], timed.slice(1), {
      stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, WARREN_REAL_STATS: statsFile },
    });
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
      const result = { file, code: capped ? 'killed at the cap' : (code ?? signal), seconds, ...readCost(timeFile, statsFile) };
      rmSync(accounting, { recursive: true, force: true });
      accountingDirs.delete(accounting);
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
      for (const dir of accountingDirs) rmSync(dir, { recursive: true, force: true });
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
  const secs = (n) => (n === undefined ? '?' : n.toFixed(0)).padStart(5);
  console.log(`\nreal tier per file (${JOBS} at a time, file cap ${FILE_CAP_MS / 1000} s): wall s, CPU s of the test process tree, CPU s of its control planes, control-plane starts`);
  console.log(`  ${'file'.padEnd(width)}   wall    cpu  plane starts`);
  for (const r of results) console.log(`  ${r.file.padEnd(width)}  ${secs(r.seconds)}  ${secs(r.cpu)}  ${secs(r.planeCpu)}  ${String(r.starts).padStart(5)}  ${r.code === 0 ? 'pass' : `FAIL (${r.code})`}`);
  const failed = results.filter((r) => r.code !== 0);
  const sum = (key) => results.reduce((a, r) => a + (r[key] ?? 0), 0);
  console.log(`  ${'total'.padEnd(width)}  ${secs((Date.now() - began) / 1000)}  ${secs(sum('cpu'))}  ${secs(sum('planeCpu'))}  ${String(sum('starts')).padStart(5)}  ${failed.length === 0 ? 'pass' : `${failed.length} failed`}`);
  const mean = loads.reduce((a, b) => a + b, 0) / loads.length;
  console.log(`  load average (1 min) during the run: min ${Math.min(...loads).toFixed(1)}, mean ${mean.toFixed(1)}, max ${Math.max(...loads).toFixed(1)}`);
  return failed.length === 0 ? 0 : 1;
}
