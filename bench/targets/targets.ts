// The servers the suites compare: the embedded apiserver as users run it
// (`warren apiserver` with a data directory) and the floor, each in a child process.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientFromKubeconfig, plainClient, tlsClient, type BenchClient } from '../http-client.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

export interface Target {
  name: string;
  process: ServerProcess;
  /** A new client with its own keep-alive pool of up to `maxSockets` connections. */
  client(maxSockets: number): BenchClient;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  repoRoot: string;
  /** Reuse a data directory (e.g. to measure a restart); default: a fresh temporary one, removed on stop. */
  dataDir?: string;
  /** Extra node flags for the server process, e.g. --cpu-prof. */
  nodeFlags?: string[];
}

export async function startEmbedded(options: EmbeddedOptions): Promise<Target & { dataDir: string }> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'warren-bench-'));
  const proc = await startServerProcess(
    [...(options.nodeFlags ?? []), join(options.repoRoot, 'bin/warren'), 'apiserver', '--listen', '127.0.0.1:0', '--data-dir', dataDir],
    /warren apiserver ready at (\S+)/,
    { cwd: options.repoRoot, timeoutMs: 300_000 }, // a loaded shared machine (load average 40-60) took over 120 s to start one
  );
  const kubeconfig = readFileSync(join(dataDir, 'kubeconfig'), 'utf8');
  return {
    name: 'embedded',
    dataDir,
    process: proc,
    client: (maxSockets) => clientFromKubeconfig(kubeconfig, maxSockets),
    stop: async () => {
      await proc.stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface FloorOptions {
  repoRoot: string;
  /** Serve HTTPS with this certificate and key (files), to isolate what TLS costs. */
  tls?: { certFile: string; keyFile: string; caPem: string };
}

export async function startFloor(options: FloorOptions): Promise<Target> {
  const tlsArgs = options.tls ? ['--cert', options.tls.certFile, '--key', options.tls.keyFile] : [];
  const proc = await startServerProcess(
    ['--import', 'tsx', join(options.repoRoot, 'bench/targets/floor-server.ts'), ...tlsArgs],
    /floor ready (\S+)/,
    { cwd: options.repoRoot },
  );
  const url = proc.ready[1] ?? '';
  const tls = options.tls;
  return {
    name: tls ? 'floor-tls' : 'floor',
    process: proc,
    client: (maxSockets) => (tls ? tlsClient(url, { ca: tls.caPem }, maxSockets) : plainClient(url, maxSockets)),
    stop: () => proc.stop(),
  };
}
