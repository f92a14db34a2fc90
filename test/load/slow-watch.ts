// Slow watch consumers (issue 6, "memory is bounded"): a tenant watch whose
// client stops reading while events keep coming, then reads again. The gateway
// must cut it off at its buffer limit and let it go; a gateway that buffered
// without end would hand the client every event once it read again, and keep
// the stream open. Also the bulk writer that feeds these watches: one big
// ConfigMap patched over and over, so megabytes of events flow quickly.
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import { loadClientFromKubeconfig } from './load-client.ts';

export interface SlowWatchOutcome {
  /** HTTP status of the watch (200, or a refusal such as 429). */
  status: number;
  /**
   * How the stream ended once the client read again: 'end' (a clean final
   * chunk: cut off and let go within the gateway's grace), 'reset' (the socket
   * closed under it: cut off, grace over), 'open' (still streaming when given
   * up on: not cut off), 'unfinished' (the soak ended before the stall did).
   */
  outcome: 'end' | 'reset' | 'open' | 'unfinished' | 'refused';
  /** Bytes the bulk writer put into the watched namespace while this watch was open. */
  sentBytes: number;
  /** Bytes of watch stream the client received. */
  receivedBytes: number;
}

export interface SlowWatchOptions {
  kubeconfig: string;
  /** Tenant path of the watch (namespace-scoped collection with ?watch=1...). */
  path: string;
  /** Bytes the bulk writer has produced so far (monotonic). */
  produced: () => number;
  /** Stop reading until this many bytes were produced for the watch. */
  stallBytes: number;
  /** Give up stalling at this time (epoch ms): the soak is over. */
  deadline: number;
  /** After reading again, how long the stream may stay open before it counts as not cut off. */
  drainMs?: number;
}

/** Opens a watch, stops reading until `stallBytes` have been produced for it, then reads to the end. */
export async function slowWatch(options: SlowWatchOptions): Promise<SlowWatchOutcome> {
  const { server, tls } = await tlsOf(options.kubeconfig);
  const started = options.produced();
  const res = await new Promise<IncomingMessage | Error>((resolve) => {
    const req = https.request({ ...tls, hostname: server.hostname, port: server.port, method: 'GET', path: server.pathname.replace(/\/$/, '') + options.path, agent: false, headers: { Accept: 'application/json' } }, resolve);
    req.on('error', resolve);
    req.end();
  });
  if (res instanceof Error) return { status: 0, outcome: 'refused', sentBytes: 0, receivedBytes: 0 };
  if (res.statusCode !== 200) {
    res.resume();
    return { status: res.statusCode ?? 0, outcome: 'refused', sentBytes: 0, receivedBytes: 0 };
  }
  // Not reading: no 'data' listener, so the response stays paused and the
  // socket fills up to the kernel's buffers; everything after waits in the gateway.
  let closed: 'end' | 'reset' | undefined;
  res.once('end', () => { closed ??= 'end'; });
  res.once('aborted', () => { closed ??= 'reset'; });
  res.on('error', () => { closed ??= 'reset'; });
  res.once('close', () => { closed ??= res.complete ? 'end' : 'reset'; });
  while (options.produced() - started < options.stallBytes && Date.now() < options.deadline) await sleep(100);
  if (options.produced() - started < options.stallBytes) {
    res.destroy();
    return { status: 200, outcome: 'unfinished', sentBytes: options.produced() - started, receivedBytes: 0 };
  }
  let received = 0;
  res.on('data', (chunk: Buffer) => { received += chunk.length; });
  const drainUntil = Date.now() + (options.drainMs ?? 20_000);
  while (!closed && Date.now() < drainUntil) await sleep(50);
  const outcome = closed ?? 'open';
  res.destroy();
  return { status: 200, outcome, sentBytes: options.produced() - started, receivedBytes: received };
}

export interface BulkWriter {
  /** Bytes of ConfigMap data acknowledged so far (each patch rewrites the whole value). */
  produced(): number;
  writes(): number;
  /** Resolves when the writer has stopped (at the deadline). */
  done: Promise<void>;
}

/**
 * Patches one ConfigMap of `objectBytes` in `namespace` with a new value at
 * most every `intervalMs` until `deadline`: each patch is one MODIFIED event of
 * about `objectBytes` for every watch on the namespace. With `untilBytes`, it
 * stops once that much has been written.
 */
export async function startBulkWriter(options: { kubeconfig: string; namespace: string; objectBytes: number; intervalMs: number; deadline: number; untilBytes?: number }): Promise<BulkWriter> {
  const client = await loadClientFromKubeconfig(options.kubeconfig, 1);
  const created = await client.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: options.namespace } });
  if (created.status !== 201 && created.status !== 409) throw new Error(`bulk namespace: ${String(created.status)} ${created.body}`);
  const path = `/api/v1/namespaces/${options.namespace}/configmaps`;
  const value = (n: number): string => `${String(n)}-`.padEnd(options.objectBytes, 'x');
  const first = await client.request('POST', path, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { v: value(0) } });
  if (first.status !== 201 && first.status !== 409) throw new Error(`bulk object: ${String(first.status)} ${first.body.slice(0, 300)}`);
  let produced = 0;
  let writes = 0;
  const done = (async () => {
    try {
      for (let n = 1; Date.now() < options.deadline && produced < (options.untilBytes ?? Infinity); n++) {
        const t = Date.now();
        const r = await client.request('PATCH', `${path}/big`, { data: { v: value(n) } }, 'application/merge-patch+json');
        if (r.status === 200) {
          produced += options.objectBytes;
          writes++;
        }
        const wait = r.status === 429 ? 1000 * Number(r.headers['retry-after'] ?? '1') : options.intervalMs - (Date.now() - t);
        if (wait > 0) await sleep(wait);
      }
    } finally {
      client.close();
    }
  })();
  return { produced: () => produced, writes: () => writes, done };
}

async function tlsOf(kubeconfig: string): Promise<{ server: URL; tls: https.RequestOptions }> {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  const tls: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(tls);
  return { server: new URL(cluster.server), tls: { ...(tls.ca ? { ca: tls.ca } : {}), ...(tls.cert ? { cert: tls.cert } : {}), ...(tls.key ? { key: tls.key } : {}) } };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
