// Watch throughput: translated events per second, (1) through WatchTransform
// alone and (2) end to end: a TLS upstream streaming events as fast as the
// socket takes them → the proxy adapter → sendTranslatedWatch → an HTTP client.
// Run: node --import tsx bench/gateway-proxy-watch.ts [events]
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { createCa, issueCertificate } from '../src/pki/certificates.ts';
import { createProxy } from '../src/gateway/proxy/proxy-adapter.ts';
import { sendTranslatedWatch } from '../src/gateway/proxy/watch-response.ts';
import { WatchTransform } from '../src/gateway/proxy/watch-transform.ts';
import type { Upstream } from '../src/kube/upstream.ts';
import { listen, mib, translateBody, translateEvent, upstreamConfigMap } from './gateway-proxy-common.ts';

const EVENTS = Number(process.argv[2] ?? 100_000);
const lines = Array.from({ length: 1000 }, (_, i) => `${JSON.stringify({ type: i % 3 === 0 ? 'ADDED' : 'MODIFIED', object: upstreamConfigMap(i) })}\n`);
const eventBytes = lines.reduce((n, l) => n + Buffer.byteLength(l), 0) / lines.length;

/** Upstream chunking: 64 KiB slices cutting events anywhere, as a TLS socket would. */
function* upstreamChunks(total: number): Generator<Buffer> {
  let pending = '';
  for (let i = 0; i < total; i++) {
    pending += lines[i % lines.length];
    if (pending.length >= 65_536) { yield Buffer.from(pending.slice(0, 65_536)); pending = pending.slice(65_536); }
  }
  if (pending) yield Buffer.from(pending);
}

async function transformOnly(): Promise<number> {
  const transform = new WatchTransform({ translateEvent });
  transform.resume(); // a reader that keeps up; output is counted end to end below
  const done = new Promise((resolve) => transform.on('end', resolve));
  const started = performance.now();
  for (const chunk of upstreamChunks(EVENTS)) {
    if (!transform.write(chunk)) await new Promise((resolve) => transform.once('drain', resolve));
  }
  transform.end();
  await done;
  return EVENTS / ((performance.now() - started) / 1000);
}

async function endToEnd(): Promise<number> {
  const ca = await createCa('bench-ca');
  const serving = await issueCertificate({ ca, commonName: 'bench', ips: ['127.0.0.1'], lifetimeMs: 3_600_000 });
  const upstreamServer = https.createServer({ cert: serving.certPem, key: serving.keyPem }, (_req, res) => {
    // The listener's return value is ignored by node:http: the stream runs on its own.
    void (async () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      for (const chunk of upstreamChunks(EVENTS)) {
        if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end();
    })();
  });
  const upstreamPort = await listen(upstreamServer);
  const upstream: Upstream = {
    server: `https://127.0.0.1:${upstreamPort}`,
    requestOptions: () => ({ ca: ca.certPem }),
    request: () => Promise.reject(new Error('unused')),
    stream: () => Promise.reject(new Error('unused')),
    close: () => undefined,
  };
  const proxy = createProxy(upstream);
  const front = http.createServer((req, res) => proxy.forward(req, res, {
    path: '/api/v1/configmaps?watch=1',
    onResponse: (upstreamRes, _req, out) => void sendTranslatedWatch(upstreamRes, out, { translateEvent, translateBody }),
  }));
  const frontPort = await listen(front);
  const started = performance.now();
  let received = 0;
  let newlines = 0;
  await new Promise<void>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: frontPort, path: '/', agent: false }, (res) => {
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) newlines++;
      });
      res.on('end', resolve);
    }).on('error', reject);
  });
  const seconds = (performance.now() - started) / 1000;
  if (newlines !== EVENTS) throw new Error(`expected ${EVENTS} events, got ${newlines}`);
  proxy.close();
  front.close();
  upstreamServer.close();
  console.log(`  end to end: ${mib(received)} out`);
  return EVENTS / seconds;
}

console.log(`watch: ${EVENTS} events of ~${Math.round(eventBytes)} bytes (ConfigMaps with labels and managedFields), translated by toTenantWatchEvent`);
console.log(`  WatchTransform alone: ${Math.round(await transformOnly()).toLocaleString('en')} events/s`);
console.log(`  upstream TLS → adapter → sendTranslatedWatch → client: ${Math.round(await endToEnd()).toLocaleString('en')} events/s (goal ≥ 20,000)`);
