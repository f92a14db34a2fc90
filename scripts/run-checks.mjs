// `npm test`'s type check and lint (`node scripts/run-tests.mjs --checks`), run beside the
// test files instead of before them: 60-130 s of CPU by the load (one process over one program
// each, scripts/typecheck-and-lint.mjs: 25% less than tsc and eslint apart) that would hold up every test,
// on two cores that the test files leave partly idle while they wait (servers starting,
// kubectl, controllers). At a lower priority (nice 10), so they take idle time rather than
// a test file's. A failing check fails the run just as before; its output is printed whole
// when it ends.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const CHECKS = [
  { name: 'typecheck and lint', bin: process.execPath, args: [join(ROOT, 'scripts', 'typecheck-and-lint.mjs')] },
];

const running = new Set();

function runCheck({ name, bin, args }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('nice', ['-n', '10', bin, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('error', (err) => { output += String(err); });
    child.on('close', (code, signal) => {
      running.delete(child);
      const result = { name, status: code ?? signal, seconds: (Date.now() - started) / 1000 };
      console.log(`\n▶ ${name} (node ${args.map((arg) => arg.replace(ROOT, '')).join(' ')})  ${result.seconds.toFixed(1)} s  ${result.status === 0 ? 'pass' : `FAIL (${result.status})`}`);
      if (output.trim()) console.log(output.trimEnd());
      resolve(result);
    });
  });
}

/** Starts every check; resolves with their results once all have ended. */
export function startChecks() {
  // A runner that exits early (Ctrl-C, SIGTERM, a failure) takes its checks with it.
  process.once('exit', () => { for (const child of running) child.kill('SIGTERM'); });
  return Promise.all(CHECKS.map(runCheck));
}

/** The closing lines: each check's verdict; true when all passed. */
export function reportChecks(results) {
  for (const r of results) console.log(`${r.name}: ${r.status === 0 ? 'pass' : `FAIL (${r.status})`} in ${r.seconds.toFixed(0)} s`);
  return results.every((r) => r.status === 0);
}
