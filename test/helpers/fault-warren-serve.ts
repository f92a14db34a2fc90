// `./bin/warren serve` as a child process against an upstream kubeconfig, so a
// fault test can kill -9 it and start it again on the same port.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './warren-process.ts';
import { exitWithParentArgs, exitWithParentSpawn } from './exit-with-parent.ts';

export interface WarrenServeProcess {
  port: number;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** A number is the ready timeout (ms); `args` are more flags for `warren serve` (e.g. --leader-elect). */
export type ServeStart = number | { readyTimeoutMs?: number; args?: string[] };

export async function startWarrenServe(upstreamKubeconfigPath: string, port: number, start: ServeStart = 180_000): Promise<WarrenServeProcess> {
  const { readyTimeoutMs = 180_000, args: extra = [] } = typeof start === 'number' ? { readyTimeoutMs: start } : start;
  const args = [...exitWithParentArgs(), join(REPO_ROOT, 'bin/warren'), 'serve', '--upstream-kubeconfig', upstreamKubeconfigPath, '--listen', `127.0.0.1:${port}`, ...extra];
  const child: ChildProcess = spawn(process.execPath, args, exitWithParentSpawn({ cwd: REPO_ROOT }));
  let out = '';
  let dead = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => { dead = true; resolve(); }));
  child.stderr?.on('data', (d) => { out += String(d); });
  const kill = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
    if (!dead) child.kill(signal);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (!dead) { child.kill('SIGKILL'); await exited; }
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`warren serve not ready in ${readyTimeoutMs} ms:\n${out.slice(-4000)}`)), readyTimeoutMs);
    child.stdout?.on('data', (d) => {
      out += String(d);
      if (out.includes('warren gateway ready at')) { clearTimeout(timer); resolve(); }
    });
    void exited.then(() => { clearTimeout(timer); reject(new Error(`warren serve exited:\n${out.slice(-4000)}`)); });
  }).catch(async (err: unknown) => { await kill('SIGKILL'); throw err; });
  return { port, output: () => out, kill };
}
