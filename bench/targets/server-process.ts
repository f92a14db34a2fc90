// A server under test, in its own process: started, awaited until it prints its
// ready line, measured through /proc, and stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface ServerProcess {
  pid: number;
  /** The regex match of the ready line. */
  ready: RegExpExecArray;
  /** Resident set size now, and its peak, in KiB (Linux /proc/<pid>/status VmRSS and VmHWM). */
  memory(): { rssKiB: number; peakKiB: number };
  stop(): Promise<void>;
}

export function readProcMemory(pid: number): { rssKiB: number; peakKiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssKiB: field('VmRSS'), peakKiB: field('VmHWM') };
}

export async function startServerProcess(args: string[], readyLine: RegExp, options: { cwd: string; timeoutMs?: number; env?: Record<string, string> }): Promise<ServerProcess> {
  const env = options.env ? { ...process.env, ...options.env } : process.env;
  const child: ChildProcess = spawn(process.execPath, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    // Keep only the tail: the embedded server logs a line per controller action.
    stderr = (stderr + c.toString('utf8')).slice(-4000);
  });
  const ready = await new Promise<RegExpExecArray>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`server did not become ready in ${options.timeoutMs ?? 30_000} ms`)), options.timeoutMs ?? 30_000);
    const fail = (err: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${err.message}\nargs: ${args.join(' ')}\nstderr: ${stderr}`));
    };
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const match = readyLine.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.once('exit', (code) => fail(new Error(`server exited with ${code} before it was ready`)));
  });
  child.removeAllListeners('exit');
  const pid = child.pid ?? 0;
  return {
    pid,
    ready,
    memory: () => readProcMemory(pid),
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        resolve();
        return;
      }
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    }),
  };
}
