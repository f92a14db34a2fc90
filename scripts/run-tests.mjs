// Runs the test tiers with Node's own test runner (through tsx for TypeScript).
// Usage: node scripts/run-tests.mjs [unit|contract|integration|e2e|adversarial|faults|load|real ...];
// no argument runs every tier but `real` (real kube-apiserver control planes; run by hand, `npm run test:real`).
import { spawn } from 'node:child_process';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout, clearTimeout } from 'node:timers';

const tiers = process.argv.slice(2);
const selected = tiers.length > 0 ? tiers : ['unit', 'contract', 'integration', 'e2e', 'adversarial', 'faults', 'load'];

function findTests(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...findTests(path));
    else if (entry.endsWith('.test.ts')) out.push(path);
  }
  return out.sort();
}

const files = selected.flatMap((tier) => findTests(join('test', tier)));
if (files.length === 0) {
  console.error(`no test files found for: ${selected.join(', ')}`);
  process.exit(1);
}

const realOnly = selected.every((tier) => tier === 'real');
if (!realOnly) {
  const { runDefaultTiers } = await import('./run-tests-default.mjs');
  process.exit(await runDefaultTiers(files));
}

// The real tier starts whole control planes (etcd, kube-apiserver, controller-manager):
// one file at a time (two files would start two sets on a 2-core machine), each in a
// process of its own with a hard cap, and a line per file with its wall time, so a slow
// or hung file says which it was. A file killed at the cap leaves nothing running: its
// control planes have a watchdog (test/helpers/real-kube.ts), its children exit with it.
const FILE_CAP_MS = 10 * 60_000;

function runFile(file) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [
      '--import', 'tsx', '--test', '--test-timeout=600000', '--test-reporter=spec', file,
    ], { stdio: 'inherit', detached: true });
    current = child;
    let capped = false;
    const timer = setTimeout(() => {
      capped = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }, FILE_CAP_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ file, code: capped ? 'killed at the cap' : (code ?? signal), seconds: (Date.now() - started) / 1000 });
    });
  });
}

// Each file runs in a process group of its own (so the cap can kill all of it): pass on
// an interrupt of this runner, which the group would otherwise not see.
let current;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    try { if (current) process.kill(-current.pid, signal); } catch { /* already gone */ }
    process.exit(130);
  });
}

const began = Date.now();
const results = [];
for (const file of files) results.push(await runFile(file));
const width = Math.max(...results.map((r) => r.file.length));
console.log('\nreal tier, wall time per file:');
for (const r of results) console.log(`  ${r.file.padEnd(width)}  ${r.seconds.toFixed(0).padStart(4)} s  ${r.code === 0 ? 'pass' : `FAIL (${r.code})`}`);
const failed = results.filter((r) => r.code !== 0);
console.log(`  ${'total'.padEnd(width)}  ${((Date.now() - began) / 1000).toFixed(0).padStart(4)} s  ${failed.length === 0 ? 'pass' : `${failed.length} failed`}`);
process.exit(failed.length === 0 ? 0 : 1);
