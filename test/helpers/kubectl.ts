// Runs real kubectl binaries. Versioned ones (kubectl.1.27 … kubectl.1.33) sit
// beside the resolved path of the kubectl on PATH, which is a dispatcher.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface KubectlResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface KubectlOptions {
  input?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  kubeconfigPath: string;
}

let binDir: string | undefined;

export function kubectlPath(version: string): string {
  if (!binDir) {
    const onPath = execFileSync('sh', ['-c', 'readlink -f "$(command -v kubectl)"'], { encoding: 'utf8' }).trim();
    binDir = dirname(onPath);
  }
  const path = join(binDir, `kubectl.${version}`);
  if (!existsSync(path)) throw new Error(`no kubectl ${version} at ${path}`);
  return path;
}

/** Writes a kubeconfig to a private temp file, so kubectl never touches ~/.kube. */
export function writeTempKubeconfig(kubeconfig: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'warren-kubectl-'));
  const path = join(dir, 'kubeconfig');
  writeFileSync(path, kubeconfig, { mode: 0o600 });
  return path;
}

export async function kubectl(version: string, args: string[], options: KubectlOptions): Promise<KubectlResult> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const home = dirname(options.kubeconfigPath);
  const child = spawn(kubectlPath(version), args, {
    // A private HOME keeps kubectl's discovery cache per test run.
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, KUBECONFIG: options.kubeconfigPath, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += String(d); });
  child.stderr.on('data', (d) => { stderr += String(d); });
  // kubectl reads stdin only for `-f -`; when it exits first, writing to it fails with EPIPE on a
  // loaded machine. That says nothing about the command, whose exit code and output are the result.
  child.stdin.on('error', () => undefined);
  child.stdin.end(options.input);
  const timer = setTimeout(() => { stderr += `\n[killed after ${timeoutMs}ms]`; child.kill('SIGKILL'); }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}
