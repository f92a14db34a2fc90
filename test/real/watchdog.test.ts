// Nothing is left running when a real-tier file dies without its `after` hooks (the
// runner's cap, a crash, kill -9): a process that started a real control plane and
// `warren serve` on it (watchdog-child.ts) is killed with SIGKILL, and then its
// apiserver and etcd (stopped by the set's watchdog, real-kube.ts) and its warren serve
// (exit-with-parent, whether or not it finished starting) go, and the set's directory is removed, with the
// file's own directory the set adopted (a warren-real-serve-*). Only the child itself is
// killed, not its process group as the runner's cap does: the group kill would take
// warren serve with it, so this is the harder case.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { eventually } from '../helpers/poll.ts';
import { realKubeSkipReason } from '../helpers/real-kube.ts';
import { REPO_ROOT } from '../helpers/warren-process.ts';

/** Every process whose command line names the set's directory (etcd, kube-apiserver, warren serve). */
function processesOf(dir: string): string[] {
  const ps = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return ps.split('\n').filter((l) => l.includes(dir) && !l.includes(' ps -eo'));
}

const skip = realKubeSkipReason();

describe('a real-tier file killed mid-run leaves nothing running', { timeout: 420_000, ...(skip ? { skip } : {}) }, () => {
  let child: ChildProcess | undefined;
  let dir = '';
  after(() => {
    child?.kill('SIGKILL');
    // If the watchdog failed, do its job, so this test leaves nothing either.
    if (dir && existsSync(dir)) execFileSync('bash', [join(process.env.WARREN_SHARED_KUBE ?? join(REPO_ROOT, '..', 'shared', 'kube'), 'start-kube.sh'), 'stop-all'], { env: { ...process.env, WARREN_KUBE_DIR: dir } });
  });

  it('SIGKILL of the file\'s process: its control plane and warren serve stop, its directory goes', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'test', 'real', 'watchdog-child.ts')], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout?.on('data', (d) => { out += String(d); });
    child.stderr?.on('data', (d) => { out += String(d); });
    const started = await eventually(async () => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      return line ? (JSON.parse(line) as { kubeconfigPath: string; own: string }) : undefined;
    }, `the child to start a control plane and warren serve (output so far: ${out.slice(-500)})`, { timeoutMs: 360_000, intervalMs: 500 });
    dir = dirname(dirname(started.kubeconfigPath));
    const before = processesOf(dir);
    assert.equal(before.filter((l) => /etcd |kube-apiserver |warren serve /.test(l)).length, 3, `etcd, apiserver and warren serve run:\n${before.join('\n')}`);

    child.kill('SIGKILL');
    await eventually(async () => processesOf(dir).length === 0, 'every process of the killed file gone', { timeoutMs: 60_000, intervalMs: 500 });
    await eventually(async () => !existsSync(dir), 'the set\'s directory removed', { timeoutMs: 30_000, intervalMs: 500 });
    assert.ok(existsSync(started.own) === false, `the file's own warren-real-serve-* directory (adopted by the set) removed too: ${started.own}`);
  });
});
