#!/usr/bin/env node
// `npm run conformance [-- tenant|embedded]`: Kubernetes' own node-free
// [sig-api-machinery] [Conformance] specs (e2e.test 1.20, the 41 that pass on a
// real kube-apiserver 1.20 with its controller-manager and no nodes; see
// ../shared/conformance/) run two ways, each against a fresh start:
//   tenant    through a tenant's kubeconfig on `warren up` (the gateway's view);
//   embedded  against the embedded apiserver alone (`warren apiserver`, with its
//             workload simulator standing in for kube-controller-manager).
// Both run with `--emulated-version 1.20` (ADR 0035): the spec list was taken on
// 1.20, and kubectl 1.27+ tells a 1.20 server by what it does not serve (no
// /openapi/v3, no fieldValidation), which one spec depends on.
// About 12 minutes each. Not part of `npm test`. Prints "tenant view: N/41" and
// "embedded: N/41"; failed spec names are in <log>.failed. Exit 1 if any failed.
import { spawn } from 'node:child_process';
import { setTimeout, clearTimeout } from 'node:timers';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SUITE = process.env.WARREN_CONFORMANCE_DIR ?? resolve(ROOT, '../shared/conformance');
const RUN = join(SUITE, 'run-conformance.sh');
const TOTAL = readFileSync(join(SUITE, 'passing-on-real-1.20.txt'), 'utf8').split('\n').filter((l) => l.trim()).length;
const WARREN = join(ROOT, 'bin/warren');
const EMULATE = ['--emulated-version', '1.20'];

function start(args, readyLine, cwd) {
  const child = spawn(process.execPath, [WARREN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  const ready = new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready after 120 s:\n${out}`)), 120_000);
    child.stdout.on('data', (d) => {
      out += String(d);
      if (readyLine.test(out)) { clearTimeout(timer); resolveReady(out); }
    });
    child.stderr.on('data', (d) => { out += String(d); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`exited with ${code}:\n${out}`)); });
  });
  return { child, ready };
}

async function stop(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const killed = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 15_000))]);
  if (!killed) process.kill(-child.pid, 'SIGKILL');
}

function runSuite(kubeconfig, log) {
  return new Promise((resolveRun) => {
    const child = spawn('bash', [RUN, kubeconfig, log], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, WARREN_KUBE_DIR: process.env.WARREN_KUBE_DIR ?? join(tmpdir(), 'warren-kube') } });
    let out = '';
    child.stdout.on('data', (d) => { out += String(d); });
    child.once('exit', () => {
      const m = /conformance: (\d+) passed, (\d+) failed/.exec(out);
      resolveRun({ passed: m ? Number(m[1]) : 0, failed: m ? Number(m[2]) : TOTAL });
    });
  });
}

const portBase = 20_000 + Math.floor(Math.random() * 20_000);
const work = mkdtempSync(join(tmpdir(), 'warren-conformance-'));
const which = process.argv[2] ?? 'all';
const results = [];

async function tenantView() {
  const dataDir = join(work, 'up');
  const up = start(['up', '--data-dir', dataDir, '--port-base', String(portBase), '--members', '1', '--tenants-dir', join(ROOT, 'tenants'), ...EMULATE], /Press Ctrl-C to stop/, ROOT);
  try {
    await up.ready;
    const kubeconfig = join(dataDir, 'tenants', 'acme.kubeconfig');
    if (!existsSync(kubeconfig)) throw new Error(`no tenant kubeconfig at ${kubeconfig}`);
    const log = join(work, 'tenant.log');
    results.push({ name: 'tenant view', log, ...(await runSuite(kubeconfig, log)) });
  } finally {
    await stop(up.child);
  }
}

async function embedded() {
  const dataDir = join(work, 'apiserver');
  const server = start(['apiserver', '--listen', `127.0.0.1:${portBase + 10}`, '--data-dir', dataDir, '--simulate-workloads', ...EMULATE], /warren apiserver ready/, ROOT);
  try {
    await server.ready;
    const log = join(work, 'embedded.log');
    results.push({ name: 'embedded', log, ...(await runSuite(join(dataDir, 'kubeconfig'), log)) });
  } finally {
    await stop(server.child);
  }
}

if (which === 'all' || which === 'tenant') await tenantView();
if (which === 'all' || which === 'embedded') await embedded();
for (const r of results) {
  process.stdout.write(`${r.name}: ${r.passed}/${TOTAL} passed (log ${r.log}, failed specs in ${r.log}.failed)\n`);
}
process.exit(results.every((r) => r.failed === 0 && r.passed === TOTAL) ? 0 : 1);
