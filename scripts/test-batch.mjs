// Runs several test files in one Node process (the unit tier's batches, scripts/run-tests-default.mjs):
// `node --import bin/ts-register.mjs --test-reporter=spec scripts/test-batch.mjs FILE...`.
//
// Why: a unit file's own process costs 0.35-0.55 s of CPU to start (Node, the TypeScript loader, the
// modules it imports) — about 100 s of CPU for 250 unit files, more than most of them spend testing.
//
// Each file is imported inside a `describe` named after it, so everything the file registers at its top
// level (tests, suites, and hooks: before/after/beforeEach/afterEach) belongs to that suite and not to the
// process's root test: a file's top-level `afterEach` runs after its own tests only, its `after` when its
// own tests end (Node 20's test runner keeps the async context of the describe across the dynamic import).
// The files run one after another (a suite's subtests run one at a time unless a file asks otherwise).
// What a batch shares is the module cache (Warren's modules are imported once, their memoised caches
// reused) and the process (env, cwd, timers): scripts/run-tests-default.mjs keeps in a process of its own
// any file that says it needs one (OWN_PROCESS_MARK) and any file whose text touches process-wide state.
import { after, describe } from 'node:test';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: test-batch.mjs FILE...');
  process.exit(2);
}
// A file whose suite never ended ended the process itself: process.exit(0) reached through code it calls,
// which the runner's text scan cannot see, exited the batch with 0 although later files never ran and an
// earlier one may have failed. The 'exit' listener turns that into a failure naming the files.
const ended = new Set();
process.on('exit', () => {
  const unfinished = files.filter((file) => !ended.has(file));
  if (unfinished.length === 0) return;
  console.error(`✖ test-batch: the process ended before these files' suites ended: ${unfinished.join(', ')}`);
  process.exitCode = 1;
});
for (const file of files) {
  describe(file, async () => {
    await import(pathToFileURL(resolve(file)).href);
    // Registered after the file's own hooks, so it runs after its top-level `after`s too.
    after(() => { ended.add(file); });
  });
}
