// What the engine does per template, counted: `node --import tsx
// bench/propagation-count.ts [count=100] [rate=10] [members=10]` runs a host
// and N members (embedded apiservers) and the propagation engine in this
// process, writes templates at a steady rate, and prints per template: the
// engine's requests by kind (host and members), its reconciles by kind, and
// its wake-ups by cause. Latency figures from here mean little (one process
// for everything); the counts are the point, and the process's CPU per applied
// pair compares two versions of the engine. A diagnostic, not a suite.
import tls from 'node:tls';
import { writeFileSync } from 'node:fs';
import { startApiServer } from '../src/apiserver/server.ts';
import { createUpstream } from '../src/kube/upstream-client.ts';
import type { Upstream } from '../src/kube/upstream.ts';
import { ensureCrds, readCrdFiles } from '../src/kube/ensure-crds.ts';
import { CRDS_DIR } from '../src/warren.ts';
import { registerMembers } from '../src/up/register-members.ts';
import { startPropagation } from '../src/controllers/propagation/start-propagation.ts';
import { TENANTS_PATH, TENANT_API_VERSION } from '../src/tenants/tenant-crd.ts';

const [count = 100, rate = 10, memberCount = 10] = process.argv.slice(2).map(Number);
const ID = 'cnt001';
const NS = `${ID}-load`;
const LABEL = 'tenancy.warren.dev/tenant';

const counts = new Map<string, number>();
const bump = (k: string, n = 1): void => void counts.set(k, (counts.get(k) ?? 0) + n);
const shape = (path: string): string => path.replace(/\?.*$/, '').replace(/\/namespaces\/[^/]+/, '/namespaces/N').replace(/\/(deployments|works|resourcebindings|events|namespaces)\/[^/]+/g, '/$1/X');
// COUNT_SAMPLES=FILE: the first request of each kind (method, path, headers, body) is written there at the end,
// so bench/propagation-costs.ts can time the engine's own requests.
const samples = new Map<string, unknown>();
function counting(where: string, raw: Upstream): Upstream {
  return {
    server: raw.server,
    requestOptions: () => raw.requestOptions(),
    request: (method, path, body, headers) => {
      const kind = `${where} ${method} ${shape(path)}`;
      bump(kind);
      if (!samples.has(kind)) samples.set(kind, { method, path, headers, body });
      return raw.request(method, path, body, headers);
    },
    stream: async (path, headers) => {
      const kind = `${where} WATCH ${shape(path)}`;
      bump(kind);
      const res = await raw.stream(path, headers);
      // Watch events (one JSON line each, bookmarks included) and their bytes, as the engine's informers receive them.
      res.on('data', (chunk: Buffer) => {
        let lines = 0;
        for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines++;
        bump(`${kind} events`, lines);
        bump(`${kind} event KiB`, chunk.length / 1024);
      });
      return res;
    },
    close: () => raw.close(),
  };
}

// New TLS connections (every client in this process): each costs a handshake on both ends.
const connect = tls.connect.bind(tls);
const portName = new Map<string, string>();
(tls as { connect: typeof tls.connect }).connect = ((...args: Parameters<typeof tls.connect>) => {
  const opts = args[0] as { port?: number | string } | undefined;
  bump(`tls connect to ${portName.get(String(opts?.port)) ?? 'other'}`);
  if (process.env.COUNT_STACKS) console.error(new Error('connect').stack?.split('\n').slice(2, 14).join('\n'));
  return connect(...args);
}) as typeof tls.connect;

const host = await startApiServer({ port: 0 });
const members = await Promise.all(Array.from({ length: memberCount }, () => startApiServer({ port: 0 })));
const admin = createUpstream({ yaml: host.kubeconfig });
portName.set(new URL(host.url).port, 'host');
members.forEach((m, i) => portName.set(new URL(m.url).port, `member${i + 1}`));
await ensureCrds(admin, readCrdFiles(CRDS_DIR));
const names = members.map((_, i) => `member${i + 1}`);
await registerMembers(admin, members.map((m, i) => ({ name: names[i] as string, kubeconfig: m.kubeconfig })));
const must = async (method: string, path: string, body: unknown): Promise<void> => {
  const r = await admin.request(method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
};
await must('POST', TENANTS_PATH, { apiVersion: TENANT_API_VERSION, kind: 'Tenant', metadata: { name: 'count' }, spec: { id: ID, clusters: { names } } });
await must('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, labels: { [LABEL]: ID } } });
await must('POST', `/apis/policy.karmada.io/v1alpha1/namespaces/${NS}/propagationpolicies`, {
  apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name: 'all', namespace: NS, labels: { [LABEL]: ID } },
  spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], placement: { clusterAffinity: { clusterNames: names }, replicaScheduling: { replicaSchedulingType: 'Duplicated' } } },
});
const byServer = new Map(members.map((m, i) => [createUpstream({ yaml: m.kubeconfig }).server, i]));
const engineHost = createUpstream({ yaml: host.kubeconfig });
const engine = startPropagation({
  upstream: counting('host', engineHost),
  connect: (cluster) => counting('member', createUpstream({ yaml: (members[byServer.get(cluster.spec.apiEndpoint ?? '') ?? -1] ?? { kubeconfig: '' }).kubeconfig })),
  log: (line) => { if (process.env.COUNT_LOG) console.error(line); },
  observe: (kind, _s, ok) => bump(`reconcile ${kind}${ok ? '' : ' (failed)'}`),
});
await engine.synced();
const deployment = (name: string): unknown => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: NS, labels: { [LABEL]: ID, app: name } },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } },
});
// A warm-up template, not counted: member connections, watches and namespaces.
await must('POST', `/apis/apps/v1/namespaces/${NS}/deployments`, deployment('warm-up'));
const readers = members.map((m) => createUpstream({ yaml: m.kubeconfig }));
const applied = async (): Promise<number> => {
  const lists = await Promise.all(readers.map(async (c) => ((await c.request<{ items: unknown[] }>('GET', `/apis/apps/v1/namespaces/${NS}/deployments`)).body.items ?? []).length));
  return lists.reduce((a, b) => a + b, 0);
};
while ((await applied()) < memberCount) await new Promise((r) => setTimeout(r, 100));
await new Promise((r) => setTimeout(r, 1500));
counts.clear();
const cpu0 = process.cpuUsage();
const t0 = Date.now();
for (let i = 0; i < count; i++) {
  const wait = t0 + (i * 1000) / rate - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  void must('POST', `/apis/apps/v1/namespaces/${NS}/deployments`, deployment(`t-${i}`));
}
while ((await applied()) < (count + 1) * memberCount) await new Promise((r) => setTimeout(r, 200));
await new Promise((r) => setTimeout(r, 3000)); // status writes after the applies
const cpu = process.cpuUsage(cpu0);
// Everything runs in this process (host, members, engine): an A/B of the engine, not its own figure.
console.log(`CPU of this process (host + members + engine) per applied pair: ${((cpu.user + cpu.system) / 1000 / (count * memberCount)).toFixed(3)} ms; heap used ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`);
let requests = 0;
for (const [k, v] of [...counts].sort()) {
  if (!k.startsWith('reconcile') && !k.endsWith(' events') && !k.endsWith(' KiB')) requests += v;
  console.log((v / count).toFixed(2).padStart(7), k);
}
console.log((requests / count).toFixed(2).padStart(7), `requests per template (${count} templates at ${rate}/s, ${memberCount} members, all applied after ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
const pool = (u: Upstream): string => {
  const agent = u.requestOptions().agent as unknown as { sockets: Record<string, unknown[]>; freeSockets: Record<string, unknown[]> };
  return `${Object.values(agent.sockets).flat().length} busy, ${Object.values(agent.freeSockets).flat().length} free`;
};
if (process.env.COUNT_SAMPLES) writeFileSync(process.env.COUNT_SAMPLES, JSON.stringify(Object.fromEntries(samples), null, 1));
console.log(`sockets at the end: engine -> host ${pool(engineHost)}; harness -> host ${pool(admin)}`);
engine.stop();
admin.close();
for (const r of readers) r.close();
await Promise.all([host.stop(), ...members.map((m) => m.stop())]);
