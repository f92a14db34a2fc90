// `npm run bench [-- SUITE ...] [--profile]`: starts the embedded apiserver and
// the floor (plain HTTP, and HTTPS to show what TLS alone costs), each in its
// own process, runs the suites against all of them side by side, prints one
// table with goals, and (on a full run) writes docs/benchmarks.md.
//   SUITE     run only these (writes always runs first: it seeds the data set);
//             real-overhead (a real kube-apiserver from ../shared/kube) runs only when named, on its own servers
//   --profile start embedded servers with --cpu-prof; profiles go to $TMPDIR/warren-bench-profiles/
//             (summarise one with bench/profile-summary.ts)
//   --node-flag=F  pass a node flag to the embedded servers (repeatable), e.g. --node-flag=--max-semi-space-size=2
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import os, { loadavg, tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startEmbedded, startFloor, type Target } from './targets/targets.ts';
import { renderText } from './report.ts';
import { writeBenchmarksDoc } from './write-doc.ts';
import { msSince } from './stats.ts';
import type { BenchEnv, Suite, SuiteResult } from './suite.ts';
import { writesSuite } from './suites/writes.ts';
import { getSuite } from './suites/get.ts';
import { listSuite } from './suites/list.ts';
import { watchSuite } from './suites/watch.ts';
import { memorySuite } from './suites/memory.ts';
import { jsonFastPathSuite } from './suites/json-fast-path.ts';
import { consoleStateSuite } from './suites/console-state.ts';
import { gatewayPerfSuite } from './suites/gateway-perf.ts';
import { gatewayOnboardingSuite } from './suites/gateway-onboarding.ts';
import { propagationSuite } from './suites/propagation.ts';
import { fairnessSuite } from './suites/fairness.ts';
import { loadSuite } from './suites/load.ts';
import { recoverySuite } from './suites/recovery.ts';
import { memorySoakSuite } from './suites/memory-soak.ts';
import { heavyBodySuite } from './suites/heavy-body.ts';
import { watchBoundSuite } from './suites/watch-bound.ts';
import { realOverheadSuite } from './suites/real-overhead.ts';
import { writeThroughputSuite } from './suites/write-throughput.ts';

const SUITES: Suite[] = [writesSuite, getSuite, listSuite, watchSuite, memorySuite, jsonFastPathSuite, consoleStateSuite, gatewayPerfSuite, gatewayOnboardingSuite, propagationSuite, fairnessSuite, recoverySuite, loadSuite, memorySoakSuite, heavyBodySuite, watchBoundSuite, writeThroughputSuite, realOverheadSuite];
const FULL_RUN = SUITES.filter((s) => !s.standalone);

const repoRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { profile: { type: 'boolean', default: false }, 'node-flag': { type: 'string', multiple: true, default: [] } },
});
const unknown = positionals.filter((p) => !SUITES.some((s) => s.name === p));
if (unknown.length > 0) {
  console.error(`unknown suite(s): ${unknown.join(', ')}; known: ${SUITES.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
const named = SUITES.filter((s) => positionals.includes(s.name));
// Standalone suites start their own servers: named alone, they run without the shared targets.
const standaloneOnly = named.length > 0 && named.every((s) => s.standalone === true || s.ownServers === true);
const wanted = positionals.length === 0 ? FULL_RUN : standaloneOnly ? named : SUITES.filter((s) => s.name === 'writes' || positionals.includes(s.name));

const profileDir = join(tmpdir(), 'warren-bench-profiles');
const serverNodeFlags = [...(values.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...(values['node-flag'] ?? [])];
if (values.profile) mkdirSync(profileDir, { recursive: true });
const started = process.hrtime.bigint();
const loadAtStart = loadavg()[0] ?? 0;
if (loadAtStart > 0.5) process.stderr.write(`note: 1-minute load average is ${loadAtStart.toFixed(2)} on ${String(os.cpus().length)} CPUs: other work will disturb the numbers\n`);
const log = (message: string): void => void process.stderr.write(`[bench ${(msSince(started) / 1000).toFixed(0).padStart(3)}s] ${message}\n`);

const targets: Target[] = [];
try {
  if (!standaloneOnly) {
    const embedded = await startEmbedded({ repoRoot, nodeFlags: serverNodeFlags });
    targets.push(embedded);
    const pki = join(embedded.dataDir, 'pki');
    targets.push(await startFloor({ repoRoot }));
    targets.push(await startFloor({ repoRoot, tls: { certFile: join(pki, 'apiserver.crt'), keyFile: join(pki, 'apiserver.key'), caPem: readFileSync(join(pki, 'ca.crt'), 'utf8') } }));
  }
  const env: BenchEnv = { repoRoot, targets, serverNodeFlags, log };
  const results: { suite: Suite; result: SuiteResult }[] = [];
  for (const suite of wanted) {
    log(`suite ${suite.name}`);
    results.push({ suite, result: await suite.run(env) });
  }
  const rows = results.flatMap((r) => r.result.rows);
  if (rows.length > 0) process.stdout.write(`\n${renderText(rows)}\n\n`);
  for (const { suite, result } of results) for (const note of result.notes) process.stdout.write(`${suite.name}: ${note}\n`);
  const seconds = msSince(started) / 1000;
  process.stdout.write(`\ntotal bench time ${seconds.toFixed(0)} s\n`);
  if (wanted.length === FULL_RUN.length && wanted.every((s) => FULL_RUN.includes(s))) {
    const path = writeBenchmarksDoc({ repoRoot, results, seconds, loadAtStart });
    process.stdout.write(`wrote ${path}\n`);
  }
} finally {
  for (const target of targets) await target.stop();
}
if (values.profile) {
  const files = readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(profileDir, f));
  process.stdout.write(`server CPU profiles (newest last):\n${files.sort().join('\n')}\n`);
}
