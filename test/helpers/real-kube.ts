// A real Kubernetes control plane (kube-apiserver 1.20 + etcd, and optionally its
// controller-manager) for the `real` test tier, through ../shared/kube/start-kube.sh.
// Every control plane a test starts lives under its own WARREN_KUBE_DIR and is
// stopped by stop(), which the test must call in an `after` hook; stopAll() is
// the last resort for a process that exits early.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort, REPO_ROOT } from './warren-process.ts';

const run = promisify(execFile);

/** Where start-kube.sh is: $WARREN_SHARED_KUBE, else ../shared/kube beside the checkout. */
export function realKubeScript(): string | undefined {
  const dir = process.env.WARREN_SHARED_KUBE ?? resolve(REPO_ROOT, '..', 'shared', 'kube');
  const script = join(dir, 'start-kube.sh');
  return existsSync(script) ? script : undefined;
}

/** The reason to skip the real tier, or undefined when a real control plane can be started. */
export function realKubeSkipReason(): string | undefined {
  return realKubeScript() ? undefined : 'no ../shared/kube/start-kube.sh (set WARREN_SHARED_KUBE)';
}

export interface RealKube {
  name: string;
  port: number;
  kubeconfigPath: string;
  kubeconfig: string;
  /** The apiserver's base URL, https://127.0.0.1:PORT (token in the kubeconfig: admintoken). */
  server: string;
  restartApiserver(): Promise<void>;
  restartEtcd(): Promise<void>;
  /** Stops its processes and removes its data. */
  stop(): Promise<void>;
}

export interface RealKubeSet {
  start(name: string, opts?: { controllerManager?: boolean }): Promise<RealKube>;
  /** Stops every control plane of this set and removes the set's directory. */
  stopAll(): Promise<void>;
}

const TIMEOUT_MS = 180_000;

/** A set of control planes sharing one private state directory (unpacked binaries included). */
export function realKubeSet(): RealKubeSet {
  const script = realKubeScript();
  if (!script) throw new Error(realKubeSkipReason());
  const dir = mkdtempSync(join(tmpdir(), 'warren-real-'));
  const env = { ...process.env, WARREN_KUBE_DIR: dir };
  const sh = async (...args: string[]): Promise<string> => {
    const { stdout } = await run('bash', [script, ...args], { env, timeout: TIMEOUT_MS, maxBuffer: 1 << 20 });
    return stdout.trim();
  };
  const started = new Set<string>();
  return {
    async start(name, opts = {}) {
      const port = await freePort();
      const args = ['start', name, String(port)];
      if (opts.controllerManager === false) args.push('--no-controller-manager');
      started.add(name);
      const kubeconfigPath = (await sh(...args)).split('\n').pop() ?? '';
      return {
        name, port, kubeconfigPath, kubeconfig: readFileSync(kubeconfigPath, 'utf8'), server: `https://127.0.0.1:${port}`,
        restartApiserver: async () => { await sh('restart-apiserver', name); },
        restartEtcd: async () => { await sh('restart-etcd', name); },
        stop: async () => { await sh('wipe', name); started.delete(name); },
      };
    },
    async stopAll() {
      try {
        await sh('stop-all');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
