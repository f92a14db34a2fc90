// LIST of 10,000 objects: direct to the embedded apiserver, through the proxy
// adapter piping bytes (the floor), and through the adapter with
// sendTranslatedJson running the real toTenantList. Clients read the bytes
// without parsing, the same way in all three.
// Run: node --import tsx bench/gateway-proxy-list.ts [objects] [runs]
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { startApiServer } from '../src/apiserver/server.ts';
import { createProxy } from '../src/gateway/proxy/proxy-adapter.ts';
import { sendTranslatedJson } from '../src/gateway/proxy/json-response.ts';
import { upstreamFromKubeconfig } from '../test/integration/gateway-proxy/kubeconfig-upstream.ts';
import { listen, median, mib, TENANT, translateBody, upstreamConfigMap } from './gateway-proxy-common.ts';

const OBJECTS = Number(process.argv[2] ?? 10_000);
const RUNS = Number(process.argv[3] ?? 10);
const NAMESPACE = `${TENANT}-bench`;
const PATH = `/api/v1/namespaces/${NAMESPACE}/configmaps`;

const server = await startApiServer({ port: 0 });
const configmaps = server.api.lookup('', 'v1', 'configmaps');
const namespaces = server.api.lookup('', 'v1', 'namespaces');
if (!configmaps || !namespaces) throw new Error('embedded apiserver lacks configmaps');
server.api.create(namespaces, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
for (let i = 0; i < OBJECTS; i++) {
  const { metadata, ...rest } = upstreamConfigMap(i);
  server.api.create(configmaps, NAMESPACE, { ...rest, metadata: { name: metadata.name, namespace: NAMESPACE, labels: metadata.labels } });
}

const upstream = upstreamFromKubeconfig(server.kubeconfig);
const proxy = createProxy(upstream, { timeoutMs: 120_000 });
const front = http.createServer((req, res) => proxy.forward(req, res, {
  path: PATH,
  ...(req.url === '/translated' ? { onResponse: (upstreamRes, _req, out) => void sendTranslatedJson(upstreamRes, out, { translate: translateBody }) } : {}),
}));
const frontPort = await listen(front);
const { ca, cert, key } = upstream.requestOptions();
const directAgent = new https.Agent({ keepAlive: true, ca, cert, key });
const frontAgent = new http.Agent({ keepAlive: true });

async function timeOnce(get: (cb: (res: http.IncomingMessage) => void) => http.ClientRequest): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  let bytes = 0;
  await new Promise<void>((resolve, reject) => {
    get((res) => {
      if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
      res.on('data', (c: Buffer) => { bytes += c.length; });
      res.on('end', resolve);
    }).on('error', reject);
  });
  return { ms: performance.now() - started, bytes };
}

const url = new URL(upstream.server);
const ways: [string, () => Promise<{ ms: number; bytes: number }>][] = [
  ['direct', () => timeOnce((cb) => https.get({ host: url.hostname, port: url.port, path: PATH, agent: directAgent, headers: { Accept: 'application/json' } }, cb))],
  ['adapter, piped (floor)', () => timeOnce((cb) => http.get({ host: '127.0.0.1', port: frontPort, path: '/piped', agent: frontAgent, headers: { Accept: 'application/json' } }, cb))],
  ['adapter + toTenantList', () => timeOnce((cb) => http.get({ host: '127.0.0.1', port: frontPort, path: '/translated', agent: frontAgent, headers: { Accept: 'application/json' } }, cb))],
];

console.log(`LIST of ${OBJECTS} ConfigMaps, median of ${RUNS} runs (after 2 warm-ups), rss ${mib(process.memoryUsage().rss)}`);
const medians: number[] = [];
for (const [name, run] of ways) {
  await run(); await run();
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) { const r = await run(); times.push(r.ms); bytes = r.bytes; }
  medians.push(median(times));
  console.log(`  ${name.padEnd(24)} ${median(times).toFixed(1).padStart(7)} ms  (${mib(bytes)})`);
}
const [direct, , translated] = medians as [number, number, number];
console.log(`  translated / direct = ${(translated / direct).toFixed(2)}× (goal ≤ 1.3×); rss now ${mib(process.memoryUsage().rss)} (upstream in the same process)`);
directAgent.destroy(); frontAgent.destroy(); proxy.close(); front.close();
await server.stop();
