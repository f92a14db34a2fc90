// The three ways to the same objects, each server in its own process:
//   direct  = the embedded apiserver (`warren apiserver`), admin certificate;
//   floor   = a passthrough to it, admin credential upstream: http-proxy (gateway-floor-proxy.ts) or
//             one https.request per request, piped (lean-floor-proxy.ts);
//   gateway = `warren serve --upstream-kubeconfig` (gateway + onboarding), a tenant user's certificate.
// A fresh upstream per stack, so the gateway's caches see only what the bench writes.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { clientFromKubeconfig, tlsClient, type BenchClient } from '../http-client.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { startEmbedded, type Target } from './targets.ts';

const run = promisify(execFile);

export interface GatewayStackOptions {
  repoRoot: string;
  /** Start the passthrough floor too (the onboarding suite does not need it). */
  floor: boolean;
  /** Which passthrough: http-proxy (default, the gateway suite's) or the lean one (write-throughput's). */
  floorProxy?: 'http-proxy' | 'lean';
  /**
   * The lean floor's upstream leg as plain HTTP over this Unix socket, with the admin token: the upstream
   * must serve it (upstreamNodeFlags with bench/targets/plain-upstream-listener.mjs and
   * WARREN_BENCH_PLAIN_SOCKET set to the same path).
   */
  floorUpstreamSocket?: string;
  /** Node flags for the gateway child only (e.g. --cpu-prof): the gateway is what is under test. */
  gatewayNodeFlags?: string[];
  /** Node flags for the upstream (host) apiserver child, e.g. --cpu-prof to see its share. */
  upstreamNodeFlags?: string[];
}

export interface ReadyTenant {
  name: string;
  id: string;
  kubeconfig: string;
}

export interface GatewayStack {
  upstream: Target & { dataDir: string };
  upstreamKubeconfigFile: string;
  gateway: ServerProcess & { url: string };
  floor?: ServerProcess & { url: string };
  /** Admin client straight to the upstream. */
  direct(maxSockets: number): BenchClient;
  /** Client of the passthrough floor (it asks for no client certificate). */
  floorClient(maxSockets: number): BenchClient;
  /** `warren tenant create NAME --admin alice --wait --kubeconfig-out [flags]`, as a platform admin would. */
  createTenant(name: string, flags?: string[]): Promise<ReadyTenant>;
  stop(): Promise<void>;
}

export async function startGatewayStack(options: GatewayStackOptions): Promise<GatewayStack> {
  const upstream = await startEmbedded({ repoRoot: options.repoRoot, nodeFlags: options.upstreamNodeFlags ?? [] });
  const upstreamKubeconfigFile = join(upstream.dataDir, 'kubeconfig');
  const pki = join(upstream.dataDir, 'pki');
  const scratch = mkdtempSync(join(tmpdir(), 'warren-gw-bench-'));
  const started: ServerProcess[] = [];
  try {
    const gatewayProc = await startServerProcess(
      [...(options.gatewayNodeFlags ?? []), join(options.repoRoot, 'bin/warren'), 'serve', '--upstream-kubeconfig', upstreamKubeconfigFile, '--listen', '127.0.0.1:0'],
      /warren gateway ready at (\S+)/,
      { cwd: options.repoRoot, timeoutMs: 300_000 }, // a loaded shared machine (load average 40-60) took over 120 s to start one
    );
    started.push(gatewayProc);
    const gateway = { ...gatewayProc, url: gatewayProc.ready[1] ?? '' };
    let floor: (ServerProcess & { url: string }) | undefined;
    if (options.floor) {
      const lean = options.floorProxy === 'lean';
      const plainLeg = lean && options.floorUpstreamSocket
        ? ['--upstream-socket', options.floorUpstreamSocket, '--token', readFileSync(join(pki, 'admin-token'), 'utf8').trim()]
        : [];
      const floorProc = await startServerProcess(
        ['--import', 'tsx', join(options.repoRoot, `bench/targets/${lean ? 'lean-floor-proxy.ts' : 'gateway-floor-proxy.ts'}`),
          '--kubeconfig', upstreamKubeconfigFile, '--cert', join(pki, 'apiserver.crt'), '--key', join(pki, 'apiserver.key'), ...plainLeg],
        /floor proxy ready (\S+)/,
        { cwd: options.repoRoot },
      );
      started.push(floorProc);
      floor = { ...floorProc, url: floorProc.ready[1] ?? '' };
    }
    const upstreamKubeconfig = readFileSync(upstreamKubeconfigFile, 'utf8');
    const caPem = readFileSync(join(pki, 'ca.crt'), 'utf8');
    return {
      upstream,
      upstreamKubeconfigFile,
      gateway,
      ...(floor ? { floor } : {}),
      direct: (maxSockets) => clientFromKubeconfig(upstreamKubeconfig, maxSockets),
      floorClient: (maxSockets) => {
        if (!floor) throw new Error('this stack was started without the floor proxy');
        return tlsClient(floor.url, { ca: caPem }, maxSockets);
      },
      async createTenant(name, flags = []) {
        const out = join(scratch, `${name}.kubeconfig`);
        const { stdout } = await run(process.execPath, [join(options.repoRoot, 'bin/warren'), 'tenant', 'create', name,
          '--kubeconfig', upstreamKubeconfigFile, '--admin', 'alice', '--wait', '--kubeconfig-out', out, ...flags], { cwd: options.repoRoot });
        const id = /Ready \(id (\w+)\)/.exec(stdout)?.[1];
        if (!id) throw new Error(`tenant create ${name}: no id in output: ${stdout}`);
        return { name, id, kubeconfig: readFileSync(out, 'utf8') };
      },
      async stop() {
        for (const p of started.reverse()) await p.stop();
        await upstream.stop();
        rmSync(scratch, { recursive: true, force: true });
      },
    };
  } catch (err) {
    for (const p of started.reverse()) await p.stop();
    await upstream.stop();
    rmSync(scratch, { recursive: true, force: true });
    throw err;
  }
}
