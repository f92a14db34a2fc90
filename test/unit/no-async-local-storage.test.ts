// Issue 18: on Node 20 the first AsyncLocalStorage.run() (or enterWith) turns on promise hooks for the
// whole process, for good. `warren serve` and `warren up` run the gateway, the controllers and the
// embedded apiservers in one process, so one scope anywhere made every promise of every request dearer
// (a GET through the gateway: ~0.7 ms of CPU more). Only the logger's request scope stays, and nothing
// in src enters it (its test does).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(import.meta.dirname, '../../src');
const ALLOWED = new Set(['observability/log-context.ts']);
/** Code, not comments: an import of async_hooks, or a scope made or a hook created. */
const USES_HOOKS = /^import[^;]*['"](node:)?async_hooks['"]|new AsyncLocalStorage|createHook\(/m;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);
}

describe('no AsyncLocalStorage scope in the server code', () => {
  it('only the logger\'s request scope exists, and nothing in src enters it', () => {
    const all = files(SRC);
    assert.ok(all.length > 100, 'the source tree was found');
    const users = all.filter((f) => USES_HOOKS.test(readFileSync(f, 'utf8'))).map((f) => relative(SRC, f));
    assert.deepEqual(users.filter((f) => !ALLOWED.has(f)), []);
    const entering = all.filter((f) => !ALLOWED.has(relative(SRC, f)) && /runInRequestScope\(/.test(readFileSync(f, 'utf8')));
    assert.deepEqual(entering.map((f) => relative(SRC, f)), []);
  });
});
