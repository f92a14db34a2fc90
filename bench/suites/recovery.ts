// Recovery after an upstream restart (issue 6): `warren apiserver` (the
// upstream, a child on a fixed port and data dir) and `warren serve` (the
// gateway, a child); one tenant holds 200 watches through the gateway, each
// run the way client-go's reflector runs one: LIST, then WATCH from the list's
// resourceVersion, and on the stream's end LIST again (retrying every 100 ms
// while the upstream is away) and WATCH again. The upstream is killed with
// SIGKILL and restarted at once on the same data dir and port. Per watch:
// the time from the kill until it had ended, re-listed successfully and had
// its new WATCH answered 200. Reported: p50/p99/max, and the upstream's own
// restart time (kill to ready line), which bounds everything from below.
import { execFile } from 'node:child_process';
import https from 'node:https';
import net from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { clientFromKubeconfig, type BenchClient } from '../http-client.ts';
import { percentile, msSince } from '../stats.ts';
import type { Suite } from '../suite.ts';
import { startServerProcess, type ServerProcess } from '../targets/server-process.ts';
import { renderGatewayText, type GatewayRow } from './gateway-report.ts';

const DEFAULT_WATCHES = 200;
const NAMESPACES = ['default', 'rec-1', 'rec-2', 'rec-3'];
const RECOVERY_TIMEOUT_MS = 120_000;
const LIST_RETRY_MS = 100;

const run = promisify(execFile);

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const srv = net.createServer().on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

interface Tls { host: string; port: number; ca: string; cert: string; key: string }

function tlsOf(kubeconfig: string): Tls {
  const doc = parse(kubeconfig) as { clusters: Array<{ cluster: { server: string; 'certificate-authority-data': string } }>; users: Array<{ user: Record<string, string> }> };
  const url = new URL(doc.clusters[0]!.cluster.server);
  const b64 = (s: string | undefined): string => Buffer.from(s ?? '', 'base64').toString('utf8');
  const user = doc.users[0]!.user;
  return { host: url.hostname, port: Number(url.port), ca: b64(doc.clusters[0]!.cluster['certificate-authority-data']), cert: b64(user['client-certificate-data']), key: b64(user['client-key-data']) };
}

/** One reflector: LIST+WATCH, and LIST+WATCH again whenever the stream ends. */
class Reflector {
  /** When the current stream ended (ms, hrtime-based), and when LIST+WATCH were back. */
  endedAt: number | undefined;
  backAt: number | undefined;
  listFailures = 0;
  /** Every re-LIST after the kill: when it started and how long it took (ms), and its status (0: no answer). */
  readonly relists: { at: number; ms: number; status: number }[] = [];
  /** The same for every re-WATCH (status 1: the connection failed). */
  readonly rewatches: { at: number; ms: number; status: number }[] = [];
  ends = { clean: 0, reset: 0 };
  private req: import('node:http').ClientRequest | undefined;
  private stopped = false;
  lastWatchStatus = 0;

  constructor(private readonly tls: Tls, private readonly lists: BenchClient, private readonly path: string, private readonly clock: () => number) {}

  async start(): Promise<void> {
    await this.listAndWatch();
  }

  private async listAndWatch(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const at = this.clock();
      const reply = await this.lists.request('GET', this.path).catch(() => ({ status: 0, body: '' }));
      if (this.endedAt !== undefined) this.relists.push({ at, ms: this.clock() - at, status: reply.status });
      if (reply.status === 200) {
        const rv = (JSON.parse(reply.body) as { metadata: { resourceVersion?: string } }).metadata.resourceVersion ?? '';
        const watchAt = this.clock();
        const opened = await this.watch(rv);
        if (this.endedAt !== undefined) this.rewatches.push({ at: watchAt, ms: this.clock() - watchAt, status: this.lastWatchStatus });
        if (opened) return;
      } else {
        this.listFailures++;
      }
      await new Promise((r) => setTimeout(r, LIST_RETRY_MS));
    }
  }

  /** Opens the WATCH; true once it is answered 200 (the stream then runs on its own). */
  private watch(rv: string): Promise<boolean> {
    return new Promise((resolve) => {
      const req = https.request({
        host: this.tls.host, port: this.tls.port, ca: this.tls.ca, cert: this.tls.cert, key: this.tls.key, agent: false,
        method: 'GET', path: `${this.path}?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}`, headers: { Accept: 'application/json' },
      }, (res) => {
        this.lastWatchStatus = res.statusCode ?? 0;
        if (res.statusCode !== 200) {
          res.resume();
          return resolve(false);
        }
        if (this.endedAt !== undefined && this.backAt === undefined) this.backAt = this.clock();
        let clean = false;
        res.on('data', () => undefined);
        res.on('end', () => { clean = true; });
        res.on('error', () => undefined);
        res.on('close', () => {
          if (this.stopped) return;
          if (clean) this.ends.clean++;
          else this.ends.reset++;
          this.endedAt ??= this.clock();
          void this.listAndWatch();
        });
        resolve(true);
      });
      req.on('error', () => { this.lastWatchStatus = 1; resolve(false); });
      this.req = req;
      req.end();
    });
  }

  stop(): void {
    this.stopped = true;
    this.req?.destroy();
  }
}

/** The suite with `watches` reflectors (the registered one has 200; fewer iterate faster while investigating). */
export function buildRecoverySuite(watches: number): Suite {
  return {
    name: 'recovery',
    method: `${watches} client-go-style tenant watches (LIST, WATCH from its RV, re-LIST on end) through warren serve; upstream killed -9 and restarted on its data dir; time from the kill to each watch re-listed and re-opened`,
    async run(env) {
      const dataDir = mkdtempSync(join(tmpdir(), 'warren-bench-recovery-'));
      const port = await freePort();
      const apiserverArgs = [join(env.repoRoot, 'bin/warren'), 'apiserver', '--listen', `127.0.0.1:${port}`, '--data-dir', dataDir];
      const readyLine = /warren apiserver ready at (\S+)/;
      let upstream: ServerProcess | undefined;
      let gateway: ServerProcess | undefined;
      const reflectors: Reflector[] = [];
      let lists: BenchClient | undefined;
      const rows: GatewayRow[] = [];
      const notes: string[] = [];
      try {
        upstream = await startServerProcess(apiserverArgs, readyLine, { cwd: env.repoRoot, timeoutMs: 120_000 });
        const upstreamKubeconfig = join(dataDir, 'kubeconfig');
        gateway = await startServerProcess(
          [...env.serverNodeFlags, join(env.repoRoot, 'bin/warren'), 'serve', '--upstream-kubeconfig', upstreamKubeconfig, '--listen', '127.0.0.1:0'],
          /warren gateway ready at (\S+)/, { cwd: env.repoRoot, timeoutMs: 120_000 });
        const out = join(dataDir, 'tenant.kubeconfig');
        await run(process.execPath, [join(env.repoRoot, 'bin/warren'), 'tenant', 'create', 'rec', '--kubeconfig', upstreamKubeconfig, '--admin', 'alice', '--wait', '--kubeconfig-out', out], { cwd: env.repoRoot });
        const kubeconfig = readFileSync(out, 'utf8');
        lists = clientFromKubeconfig(kubeconfig, 32);
        for (const ns of NAMESPACES.slice(1)) await lists.request('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }));
        for (const [i, ns] of NAMESPACES.entries()) {
          for (let k = 0; k < 5; k++) {
            await lists.request('POST', `/api/v1/namespaces/${ns}/configmaps`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}-${k}` }, data: { k: String(k) } }));
          }
        }
        const started = process.hrtime.bigint();
        const clock = (): number => msSince(started);
        const tls = tlsOf(kubeconfig);
        for (let i = 0; i < watches; i++) reflectors.push(new Reflector(tls, lists, `/api/v1/namespaces/${NAMESPACES[i % NAMESPACES.length]!}/configmaps`, clock));
        for (let i = 0; i < watches; i += 20) await Promise.all(reflectors.slice(i, i + 20).map((r) => r.start()));
        env.log(`recovery: ${watches} watches open through the gateway`);

        const killedAt = clock();
        process.kill(upstream.pid, 'SIGKILL');
        await upstream.stop(); // waits for the exit
        upstream = await startServerProcess(apiserverArgs, readyLine, { cwd: env.repoRoot, timeoutMs: 120_000 });
        const upstreamReadyMs = clock() - killedAt;
        const deadline = Date.now() + RECOVERY_TIMEOUT_MS;
        while (reflectors.some((r) => r.backAt === undefined) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        const back = reflectors.filter((r) => r.backAt !== undefined).map((r) => (r.backAt ?? 0) - killedAt);
        const ended = reflectors.filter((r) => r.endedAt !== undefined).map((r) => (r.endedAt ?? 0) - killedAt);
        const missing = watches - back.length;
        const p = (s: number[], q: number): number => (s.length ? percentile(s, q) : NaN);
        rows.push(
          { metric: 'upstream kill -9 to ready again', unit: 'ms', gateway: upstreamReadyMs },
          { metric: 'kill to watch ended, p50', unit: 'ms', gateway: p(ended, 50) },
          { metric: 'kill to watch ended, max', unit: 'ms', gateway: p(ended, 100) },
          { metric: 'kill to re-listed + re-watched, p50', unit: 'ms', gateway: p(back, 50) },
          { metric: 'kill to re-listed + re-watched, p99', unit: 'ms', gateway: p(back, 99) },
          { metric: 'kill to re-listed + re-watched, max (all)', unit: 'ms', gateway: p(back, 100) },
          { metric: 'after upstream ready, all re-watched', unit: 'ms', gateway: p(back, 100) - upstreamReadyMs },
          { metric: 'watches not recovered', unit: 'watches', gateway: missing, goal: '0', pass: missing === 0 },
          { metric: 'watch ends that were resets', unit: 'watches', gateway: reflectors.reduce((n, r) => n + r.ends.reset, 0), goal: '0', pass: reflectors.every((r) => r.ends.reset === 0) },
        );
        notes.push(`${reflectors.reduce((n, r) => n + r.listFailures, 0)} re-LISTs failed (retried every ${LIST_RETRY_MS} ms) while the upstream was away`);
        // A re-LIST that waits (rather than fails fast or succeeds) is what makes recovery slow: show the slowest.
        const relists = reflectors.flatMap((r) => r.relists);
        const slowest = relists.reduce((a, b) => (b.ms > a.ms ? b : a), { at: 0, ms: 0, status: 0 });
        const byStatus = new Map<number, number>();
        for (const r of relists) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
        const slowestWatch = reflectors.flatMap((r) => r.rewatches).reduce((a, b) => Math.max(a, b.ms), 0);
        rows.push({ metric: 'slowest single re-LIST', unit: 'ms', gateway: slowest.ms }, { metric: 'slowest single re-WATCH open', unit: 'ms', gateway: slowestWatch });
        notes.push(`${relists.length} re-LISTs (by status: ${[...byStatus].map(([k, v]) => `${k || 'no answer'}: ${v}`).join(', ')}); the slowest started ${(slowest.at - killedAt).toFixed(0)} ms after the kill and took ${slowest.ms.toFixed(0)} ms (status ${slowest.status || 'no answer'})`);
        env.log(`recovery: upstream back in ${upstreamReadyMs.toFixed(0)} ms, every watch re-listed ${p(back, 100).toFixed(0)} ms after the kill`);
      } finally {
        for (const r of reflectors) r.stop();
        lists?.close();
        await gateway?.stop();
        await upstream?.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
      process.stdout.write(`\nRecovery (upstream kill -9 and restart, ${watches} tenant watches through warren serve)\n${renderGatewayText(rows)}\n`);
      return { rows: [], notes };
    },
  };
}

export const recoverySuite: Suite = buildRecoverySuite(DEFAULT_WATCHES);
