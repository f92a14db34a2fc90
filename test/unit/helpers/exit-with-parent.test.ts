// A child started the way tests start long-running children (exit-with-parent)
// must go away when the test process is SIGKILLed: nothing left running.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { EXIT_WITH_PARENT } from '../../helpers/exit-with-parent.ts';
import { eventually } from '../../helpers/poll.ts';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// The "test process": spawns a server-like child (never exits on its own, ignores nothing) and prints its pid.
const parentScript = (preload: boolean): string => `
  const { spawn } = require('node:child_process');
  const args = ${preload ? `['--import', ${JSON.stringify(EXIT_WITH_PARENT)}]` : '[]'};
  const child = spawn(process.execPath, [...args, '-e', 'setInterval(() => {}, 1000)'], {
    stdio: ['pipe', 'ignore', 'ignore'], env: { ...process.env, WARREN_EXIT_WITH_PARENT: '1' },
  });
  console.log(child.pid);
  setInterval(() => {}, 1000);
`;

async function orphanAfterParentKill(preload: boolean): Promise<number> {
  const parent = spawn(process.execPath, ['-e', parentScript(preload)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = await new Promise<number>((resolve) => parent.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
  // Let the child load its preload before the parent dies.
  await eventually(async () => alive(pid), 'the child to run');
  await new Promise((r) => setTimeout(r, 1000));
  parent.kill('SIGKILL');
  return pid;
}

describe('exit-with-parent', () => {
  it('a child with the preload exits when its parent is SIGKILLed', async () => {
    const pid = await orphanAfterParentKill(true);
    await eventually(async () => !alive(pid), `child ${pid} to exit after its parent died`, { timeoutMs: 30_000 });
  });

  it('without it, the child outlives its parent (what the preload fixes)', async () => {
    const pid = await orphanAfterParentKill(false);
    try {
      await new Promise((r) => setTimeout(r, 1500));
      assert.ok(alive(pid), 'the child without the preload is still running');
    } finally {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});
