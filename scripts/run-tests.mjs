// Runs the test tiers with Node's own test runner, each file from TypeScript compiled once
// per run (scripts/ts-files.mjs, docs/adr/0034-compiled-once-per-run.md).
// Usage: node scripts/run-tests.mjs [unit|contract|integration|e2e|adversarial|faults|load|browser|real ...];
// no argument runs every tier but `real` (real kube-apiserver control planes: `npm run test:real`; .ci/run runs it
// after npm test unless WARREN_CI_REAL=0). `browser` needs Chromium (test/browser/chromium.ts says where it looks).
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';

// --checks: the type check and lint too, beside the tests (scripts/run-checks.mjs); what `npm test` runs.
const withChecks = process.argv.includes('--checks');
const tiers = process.argv.slice(2).filter((arg) => arg !== '--checks');
const selected = tiers.length > 0 ? tiers : ['unit', 'contract', 'integration', 'e2e', 'adversarial', 'faults', 'load', 'browser'];

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

const checks = withChecks ? (await import('./run-checks.mjs')).startChecks() : undefined;

const { compileOnce } = await import('./ts-files.mjs');
await compileOnce();

/** Exits once the checks (if any) have ended too: 0 only when the tests and the checks passed. */
async function exitWith(code) {
  const checksPassed = checks ? (await import('./run-checks.mjs')).reportChecks(await checks) : true;
  process.exit(code === 0 && checksPassed ? 0 : 1);
}

const realOnly = selected.every((tier) => tier === 'real');
if (!realOnly) {
  const { runDefaultTiers } = await import('./run-tests-default.mjs');
  await exitWith(await runDefaultTiers(files));
}

// The real tier (real kube-apiserver control planes): its own runner, see scripts/real-tier.mjs.
const { runRealTier } = await import('./real-tier.mjs');
await exitWith(await runRealTier(files));
