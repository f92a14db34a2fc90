// `./bin/warren apiserver` as a child process on a free port: what kubectl e2e
// sessions and durability tests (SIGKILL, then restart on the same data dir) need.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeHttp } from './kube-http.ts';
import { eventually } from './poll.ts';
import { exitWithParentArgs, exitWithParentSpawn } from './exit-with-parent.ts';

export const REPO_ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface WarrenProcess {
  port: number;
  dataDir: string;
  kubeconfigPath: string;
  kubeconfig: string;
  http: KubeHttp;
  /** Everything the child printed, for failure messages. */
  output(): string;
  /** Ends the child with the given signal and waits for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startWarrenApiserver(
  dataDir: string,
  { port, simulateWorkloads = false, readyTimeoutMs = 120_000 }: { port?: number; simulateWorkloads?: boolean; readyTimeoutMs?: number } = {},
): Promise<WarrenProcess> {
  const listenPort = port ?? (await freePort());
  const args = [...exitWithParentArgs(), join(REPO_ROOT, 'bin/warren'), 'apiserver', '--listen', `127.0.0.1:${listenPort}`, '--data-dir', dataDir];
  if (simulateWorkloads) args.push('--simulate-workloads');
  const child: ChildProcess = spawn(process.execPath, args, exitWithParentSpawn({ cwd: REPO_ROOT }));
  let out = '';
  child.stdout?.on('data', (d) => { out += String(d); });
  child.stderr?.on('data', (d) => { out += String(d); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let dead = false;
  void exited.then(() => { dead = true; });

  const kill = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (!dead) child.kill(signal);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (!dead) { child.kill('SIGKILL'); await exited; }
  };

  const kubeconfigPath = join(dataDir, 'kubeconfig');
  try {
    const http = await eventually(async () => {
      if (dead) throw new Error(`warren apiserver exited early:\n${out}`);
      if (!existsSync(kubeconfigPath)) return undefined;
      const client = new KubeHttp(readFileSync(kubeconfigPath, 'utf8'));
      const res = await client.get('/readyz');
      return res.status === 200 ? client : undefined;
    }, `warren apiserver on port ${listenPort} to be ready`, { timeoutMs: readyTimeoutMs, intervalMs: 250 });
    return {
      port: listenPort, dataDir, kubeconfigPath, kubeconfig: readFileSync(kubeconfigPath, 'utf8'), http,
      output: () => out, kill,
    };
  } catch (err) {
    await kill('SIGKILL');
    throw new Error(`${(err as Error).message}\n--- warren output ---\n${out}`);
  }
}
