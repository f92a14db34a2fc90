// The default tiers (everything but `real`): every test file in a process of its own (the unit
// tier's files in batches, several to a process: see batches below), CONCURRENCY at a time, each in its own process group so that whatever a file leaves
// running (a server a failed test did not stop) is killed when the file ends rather than
// slowing every later file. A file's output is printed whole when it ends (two files'
// lines never interleave), and the run ends with a wall-time table per tier and the
// slowest files, so a slow or hung file says which it was.
import { spawn } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setTimeout, clearTimeout } from 'node:timers';
import { TS_REGISTER } from './ts-files.mjs';

// Two: CI has two cores, and most files spend their time in two or three busy processes
// (gateway, embedded apiservers, kubectl) of their own already.
const CONCURRENCY = Number(process.env.WARREN_TEST_CONCURRENCY ?? 2);
// A file that runs longer is killed (its whole process group) and fails. 900 s, not the 300 s each test
// had under `node --test --test-timeout=300000`: a whole e2e file (kubectl 1.27-1.33 sessions) took
// 280-300 s at load 20-30 on 2 cores, and a cap is for a hung file, not a slow machine.
const FILE_CAP_MS = Number(process.env.WARREN_TEST_FILE_CAP_S ?? 900) * 1000;
const SLOWEST_SHOWN = Number(process.env.WARREN_TEST_TIMES ?? 25);
const CLOCK_TICKS = 100; // USER_HZ, 100 on every Linux the team runs
const COUNTS = ['tests', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];
const SUMMARY_LINE = /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) [\d.]+$/;

const running = new Set();

function tierOf(file) {
  return file.split(/[\\/]/)[1];
}

// The unit and integration tiers run their files several to a process (scripts/test-batch.mjs says how each
// file keeps its own hooks): a file's own process cost 0.35-0.55 s CPU to start, plus loading Warren's modules
// again, ~100 s of CPU for the unit tier's 250 files. Integration files start servers and take longer, so
// fewer to a batch (a long batch holds a core while the other waits at the tier's end).
// WARREN_TEST_BATCH_FILES=N sets every batched tier's size (1: a process per file, as before);
// WARREN_BATCHED_TIERS=unit,... names the batched tiers ('' none).
const BATCH_FILES = { unit: 16, integration: 8 };
const BATCHED_TIERS = new Set((process.env.WARREN_BATCHED_TIERS ?? Object.keys(BATCH_FILES).join(',')).split(',').filter(Boolean));
const batchFiles = (tier) => Math.max(1, Number(process.env.WARREN_TEST_BATCH_FILES ?? BATCH_FILES[tier] ?? 8));
const BATCH_PROGRAM = fileURLToPath(new URL('./test-batch.mjs', import.meta.url));
// A file that touches process-wide state a later file in its batch would see (the working directory, the
// environment, process listeners, faked timers) runs alone; so does a file that says so with OWN_PROCESS_MARK.
const OWN_PROCESS_MARK = 'warren-test: own-process';
const PROCESS_WIDE = /process\.(chdir|on|once|exit|umask|exitCode)\b|mock\.(timers|module)|process\.env(\.\w+|\[[^\]]+\])\s*(=[^=]|\?\?=)|delete process\.env/;

function needsOwnProcess(file) {
  const text = readFileSync(file, 'utf8');
  return text.includes(OWN_PROCESS_MARK) || PROCESS_WIDE.test(text);
}

/**
 * The run's jobs: a job is one file, or (BATCHED_TIERS) a batch of files run in one process. Batches take
 * neighbouring files of one tier (one directory's files share most of their imports), batchFiles(tier) at most.
 */
export function jobsOf(files) {
  const jobs = [];
  let batch = [];
  const flush = () => {
    if (batch.length > 0) jobs.push(batch.length === 1 ? { files: batch } : { files: batch, batch: true });
    batch = [];
  };
  for (const file of files) {
    const tier = tierOf(file);
    if (batch.length > 0 && tierOf(batch[0]) !== tier) flush();
    if (!BATCHED_TIERS.has(tier) || batchFiles(tier) === 1 || needsOwnProcess(file)) {
      jobs.push({ files: [file] });
      continue;
    }
    batch.push(file);
    if (batch.length >= batchFiles(tier)) flush();
  }
  flush();
  return jobs;
}

function labelOf(job) {
  return job.batch ? `${job.files[0]} +${job.files.length - 1} (one process)` : job.files[0];
}

// The files of a batch that failed: the batch's spec output ends each file's suite with "✖ FILE (…)".
function failedFilesOf(job, output) {
  if (!job.batch) return [];
  return job.files.filter((file) => output.includes(`\n✖ ${file} (`) || output.startsWith(`✖ ${file} (`));
}

// Files that start whole systems (e2e, faults, load) first, the many short unit files
// last: with two workers, a long file started at the end leaves a core idle for its tail.
const TIER_START_ORDER = ['e2e', 'browser', 'faults', 'load', 'adversarial', 'integration', 'contract', 'unit'];
function startOrder(files) {
  const rank = (file) => {
    const at = TIER_START_ORDER.indexOf(tierOf(file));
    return at === -1 ? TIER_START_ORDER.length : at;
  };
  return [...files].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

// Each file's spec summary ("ℹ tests 12" ...) is folded into the run's totals instead of
// being printed 300 times.
function splitSummary(output) {
  const counts = Object.fromEntries(COUNTS.map((key) => [key, 0]));
  const kept = [];
  for (const line of output.split('\n')) {
    const match = SUMMARY_LINE.exec(line);
    if (!match) { kept.push(line); continue; }
    if (match[1] in counts) counts[match[1]] = Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return { counts, text: kept.join('\n').trimEnd() };
}

// The fields of a /proc/<pid>/stat line after the command name (which may hold spaces and parentheses):
// fields[0] is the state, fields[2] the process group, fields[13] and [14] cutime and cstime.
const statFields = (stat) => stat.slice(stat.lastIndexOf(')') + 2).split(' ');

// cutime + cstime of the sh: the CPU of every process of the file that was waited for.
function childrenCpu(stat) {
  const fields = statFields(stat);
  const ticks = Number(fields[13]) + Number(fields[14]);
  return Number.isFinite(ticks) ? ticks / CLOCK_TICKS : 0;
}

function killGroup(child, signal) {
  try { process.kill(-child.pid, signal); return true; } catch { return false; }
}

// Live (not zombie) processes still in the file's group. esbuild's service (started when
// a file compiles TypeScript the cache lacks) exits with its parent and stays a zombie until
// init reaps it: that is not a leftover.
function liveInGroup(pgid) {
  let live = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try { stat = readFileSync(`/proc/${entry}/stat`, 'utf8'); } catch { continue; }
    const fields = statFields(stat);
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') live++;
  }
  return live;
}

function runJob(job) {
  const started = Date.now();
  const program = job.batch ? [BATCH_PROGRAM, ...job.files] : job.files;
  return new Promise((resolve) => {
    // Through sh, which reports on fd 3 the CPU time of the file's process tree (what a
    // file costs the machine, which a loaded machine's wall time hides). The file runs as
    // its own program, not under `node --test`: that parent was a second Node start and a
    // second TypeScript loader per file, and this runner already does its job (a process
    // per file, the spec reporter's output, the exit code, the time limit).
    const child = spawn('/bin/sh', [
      '-c', '"$@"; rc=$?; cat /proc/$$/stat >&3; exit $rc', 'sh',
      process.execPath, '--import', TS_REGISTER, '--test-reporter=spec', ...program,
    ], { stdio: ['ignore', 'pipe', 'pipe', 'pipe'], detached: true });
    running.add(child);
    const chunks = [];
    let stat = '';
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.stdio[3].on('data', (chunk) => { stat += chunk; });
    let capped = false;
    const timer = setTimeout(() => { capped = true; killGroup(child, 'SIGKILL'); }, FILE_CAP_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      // Anything still in the group outlived its test file: say so, and stop it.
      const leftovers = liveInGroup(child.pid) > 0 && killGroup(child, 'SIGKILL');
      const { counts, text } = splitSummary(Buffer.concat(chunks).toString('utf8'));
      const status = capped ? `killed after ${FILE_CAP_MS / 1000} s` : (code ?? signal);
      resolve({
        file: labelOf(job), fileCount: job.files.length, failedFiles: failedFilesOf(job, text),
        status, counts, text, leftovers, seconds: (Date.now() - started) / 1000, cpu: childrenCpu(stat),
      });
    });
  });
}

function printResult(r) {
  const verdict = r.status === 0 ? 'pass' : `FAIL (${r.status})`;
  console.log(`\n▶ ${r.file}  ${r.seconds.toFixed(1)} s (cpu ${r.cpu.toFixed(1)} s)  ${verdict}`);
  if (r.text) console.log(r.text);
  if (r.leftovers) console.log(`⚠ ${r.file} left processes running after it ended; they were killed`);
  if (r.failedFiles.length > 0) console.log(`✖ failed in this process: ${r.failedFiles.join(', ')}`);
}

function printTables(results, wallSeconds) {
  const width = Math.max(...results.map((r) => r.file.length), 12);
  const tiers = [...new Set(results.map((r) => tierOf(r.file)))];
  const fileCount = (mine) => mine.reduce((sum, r) => sum + r.fileCount, 0);
  console.log('\nwall time per tier (sum of its processes; processes run', CONCURRENCY, 'at a time):');
  for (const tier of tiers) {
    const mine = results.filter((r) => tierOf(r.file) === tier);
    const seconds = mine.reduce((sum, r) => sum + r.seconds, 0);
    const cpu = mine.reduce((sum, r) => sum + r.cpu, 0);
    const tests = mine.reduce((sum, r) => sum + r.counts.tests, 0);
    console.log(`  ${tier.padEnd(12)} ${String(fileCount(mine)).padStart(4)} files ${String(tests).padStart(5)} tests ${seconds.toFixed(0).padStart(6)} s  cpu ${cpu.toFixed(0).padStart(5)} s`);
  }
  const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST_SHOWN);
  console.log(`\nslowest ${slowest.length} processes:`);
  for (const r of slowest) {
    console.log(`  ${r.file.padEnd(width)} ${r.seconds.toFixed(1).padStart(6)} s  cpu ${r.cpu.toFixed(1).padStart(5)} s ${String(r.counts.tests).padStart(4)} tests  ${r.status === 0 ? 'pass' : `FAIL (${r.status})`}`);
  }
  const totals = Object.fromEntries(COUNTS.map((key) => [key, results.reduce((sum, r) => sum + r.counts[key], 0)]));
  const cpu = results.reduce((sum, r) => sum + r.cpu, 0);
  console.log(`\n${COUNTS.map((key) => `${key} ${totals[key]}`).join(', ')}; ${fileCount(results)} files in ${results.length} processes, wall ${wallSeconds.toFixed(0)} s, cpu ${cpu.toFixed(0)} s`);
  const failed = results.filter((r) => r.status !== 0);
  if (failed.length > 0) {
    const named = (r) => (r.failedFiles.length > 0 ? ` [${r.failedFiles.join(', ')}]` : '');
    console.log(`failed files:\n${failed.map((r) => `  ${r.file} (${r.status})${named(r)}`).join('\n')}`);
  }
  // The plain closing line CI reads: a file that failed without a failed test (killed at its cap, a crash
  // before its tests) counts as one failure.
  const uncounted = failed.filter((r) => r.counts.fail + r.counts.cancelled === 0).length;
  console.log(`tests: ${totals.pass} passed, ${totals.fail + totals.cancelled + uncounted} failed`);
}

export async function runDefaultTiers(files) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      for (const child of running) killGroup(child, signal);
      process.exit(130);
    });
  }
  const began = Date.now();
  const queue = jobsOf(startOrder(files));
  const results = [];
  async function worker() {
    while (queue.length > 0) {
      const result = await runJob(queue.shift());
      printResult(result);
      results.push(result);
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
  printTables(results, (Date.now() - began) / 1000);
  return results.every((r) => r.status === 0) ? 0 : 1;
}
