// scripts/test-batch.mjs runs several test files in one process, so one file's process.exit(0)
// (reached through code it calls, which the runner's text scan for process-wide state cannot see)
// ended the batch with status 0: the files after it never ran and a failure before it was hidden.
// warren-test: own-process (it spawns node processes of its own and writes files in a temp dir)
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BATCH = fileURLToPath(new URL('../../../scripts/test-batch.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'warren-batch-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `import { test } from 'node:test';\n${body}\n`);
  return path;
}

const failing = file('failing.mjs', "test('fails', () => { throw new Error('a real failure'); });");
const passing = file('passing.mjs', "test('passes', () => {});");
const passingToo = file('passing-too.mjs', "test('passes too', () => {});");
// The exit hides behind a property read, as it would behind a helper or a library.
const exiting = file('exiting.mjs', "test('ends the process', () => { const p = process; p['exit'](0); });");
// The same from the file's own top-level `after` hook, which runs once its tests have passed.
const exitingAfter = file('exiting-after.mjs', "import { after } from 'node:test';\ntest('passes', () => {});\nafter(() => { const p = process; p['exit'](0); });");

function runBatch(...files: string[]) {
  return spawnSync(process.execPath, ['--test-reporter=spec', BATCH, ...files], { encoding: 'utf8', timeout: 120_000 });
}

describe('test-batch.mjs: a file that ends the process', () => {
  it('fails the batch when a later file never ran', () => {
    const run = runBatch(passing, exiting, failing);
    assert.notEqual(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout + run.stderr, /failing\.mjs/);
  });

  it('fails the batch when an earlier file failed', () => {
    const run = runBatch(failing, exiting);
    assert.notEqual(run.status, 0, run.stdout + run.stderr);
  });

  it('fails the batch when the exit is in a file\'s own after hook', () => {
    const run = runBatch(exitingAfter, failing);
    assert.notEqual(run.status, 0, run.stdout + run.stderr);
  });

  it('still passes a batch whose files all pass', () => {
    const run = runBatch(passing, passingToo);
    assert.equal(run.status, 0, run.stdout + run.stderr);
  });
});
