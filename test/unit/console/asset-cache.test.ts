// The console's assets: a failed bundle is remembered for a pause (every request meanwhile gets the same
// 500 at once, without running the bundler again, and the cause is logged once, never sent), then tried
// again; a bundle that worked is kept.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/core/api-error.ts';
import { createAssetCache } from '../../../src/console/server/console-assets.ts';

describe('console assets', () => {
  it('remembers a failed build for the pause, then builds again', async () => {
    let clock = 1_000;
    let builds = 0;
    let broken = true;
    const lines: string[] = [];
    const assets = createAssetCache({
      log: (line) => lines.push(line),
      now: () => clock,
      retryAfterMs: 30_000,
      bundle: async () => {
        builds++;
        if (broken) throw new Error('Could not resolve "./gone.ts" in /srv/warren/console/web/main.ts');
        return Buffer.from('export {};');
      },
    });
    for (let i = 0; i < 3; i++) {
      const err = await assets('app.js').then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof ApiError, `request ${i} failed with a Status`);
      assert.equal(err.code, 500);
      assert.match(err.message, /the console's app\.js could not be built .*tried again 30 s after the failure/);
      assert.doesNotMatch(err.message, /gone\.ts|\/srv\//, 'the cause (paths) stays in the log');
      clock += 5_000;
    }
    assert.equal(builds, 1, 'one build for three requests inside the pause');
    assert.equal(lines.length, 1);
    assert.match(lines[0] ?? '', /gone\.ts/);
    broken = false;
    clock = 1_000 + 30_000;
    const asset = await assets('app.js');
    assert.equal(asset?.body.toString(), 'export {};');
    assert.equal(builds, 2, 'tried again once the pause is over');
    await assets('app.js');
    assert.equal(builds, 2, 'a good bundle is kept');
  });

  it('knows only its own files', async () => {
    const assets = createAssetCache({ log: () => undefined, bundle: async () => Buffer.from('') });
    assert.equal(await assets('constructor'), undefined);
    assert.equal(await assets('../package.json'), undefined);
    assert.match((await assets(''))?.contentType ?? '', /text\/html/);
  });
});
