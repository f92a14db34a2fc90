// The load scenario (issue 6), shared by the load test tier and `npm run bench
// -- load`: N clients spread over tenants, each a sequential loop of reads
// (GET, LIST, LIST by label), writes (create, then merge patches of its own
// objects, so no two clients race on one object) and short watches, until a
// deadline. Clients honour Retry-After, as client-go does. Every outcome is
// counted by code; every acknowledged write is remembered so it can be read
// back afterwards.
import { loadClientFromKubeconfig, type LoadClient, type LoadReply } from './load-client.ts';

export interface LoadTenant {
  name: string;
  kubeconfig: string;
}

export interface ScenarioOptions {
  tenants: LoadTenant[];
  clients: number;
  durationMs: number;
  /** Tenant namespace the clients work in (created first). */
  namespace?: string;
  /** How long each short watch stays open (whole seconds, the server's timeoutSeconds). */
  watchMs?: number;
  /** Called every ~250 ms while the scenario runs (RSS sampling). */
  sample?: () => void;
}

export interface Acked {
  tenant: string;
  path: string;
  value: string;
}

export interface ScenarioResult {
  requests: number;
  elapsedMs: number;
  /** By outcome: HTTP status as text, or the transport error code. */
  codes: Map<string, number>;
  /** 429s that came without a Retry-After header. */
  refusedWithoutRetryAfter: number;
  /** Latencies (ms) of non-watch requests, by tenant name. */
  latencies: Map<string, number[]>;
  /** Bodies of the first few unexpected answers, for the failure message. */
  unexpected: string[];
  acked: Map<string, Acked>;
}

const OBJECTS_PER_CLIENT = 3;

export async function runLoadScenario(options: ScenarioOptions): Promise<ScenarioResult> {
  const ns = options.namespace ?? 'load';
  const watchMs = options.watchMs ?? 1000;
  const clients: Array<{ tenant: string; client: LoadClient }> = [];
  for (let i = 0; i < options.clients; i++) {
    const tenant = options.tenants[i % options.tenants.length];
    if (!tenant) throw new Error('no tenants');
    clients.push({ tenant: tenant.name, client: await loadClientFromKubeconfig(tenant.kubeconfig, 1) });
  }
  for (const tenant of options.tenants) {
    const first = clients.find((c) => c.tenant === tenant.name);
    const r = await first?.client.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    if (r && r.status !== 201 && r.status !== 409) throw new Error(`creating namespace ${ns} for ${tenant.name}: ${String(r.status)} ${r.body}`);
  }

  const result: ScenarioResult = { requests: 0, elapsedMs: 0, codes: new Map(), refusedWithoutRetryAfter: 0, latencies: new Map(), unexpected: [], acked: new Map() };
  const note = (tenant: string, r: LoadReply, ms: number | undefined): void => {
    const code = r.status === 0 ? (r.error ?? 'transport') : String(r.status);
    result.codes.set(code, (result.codes.get(code) ?? 0) + 1);
    result.requests++;
    if (r.status === 429 && r.headers['retry-after'] === undefined) result.refusedWithoutRetryAfter++;
    if (r.status === 0 || r.status >= 500 || (r.status >= 400 && r.status !== 429)) {
      if (result.unexpected.length < 5) result.unexpected.push(`${code}: ${r.body.slice(0, 300)}`);
    }
    if (ms !== undefined) {
      let list = result.latencies.get(tenant);
      if (!list) result.latencies.set(tenant, (list = []));
      list.push(ms);
    }
  };

  const started = Date.now();
  const deadline = started + options.durationMs;
  const sampler = options.sample ? setInterval(options.sample, 250) : undefined;
  const loop = async (index: number, tenant: string, client: LoadClient): Promise<void> => {
    const base = `/api/v1/namespaces/${ns}/configmaps`;
    const created = new Set<string>();
    let version = 0;
    for (let k = index; Date.now() < deadline; k++) {
      const name = `c${String(index)}-${String(k % OBJECTS_PER_CLIENT)}`;
      const op = k % 10;
      const t = process.hrtime.bigint();
      let r: LoadReply;
      if (op === 8) {
        // The server ends the watch (timeoutSeconds), so the connection is reused; the client-side limit is a safety net.
        r = await client.watchFor(`${base}?watch=1&allowWatchBookmarks=true&timeoutSeconds=${String(Math.max(1, Math.round(watchMs / 1000)))}`, watchMs + 10_000);
        note(tenant, r, undefined);
      } else {
        let value: string | undefined;
        if (op < 4) r = await client.request('GET', created.has(name) ? `${base}/${name}` : base);
        else if (op === 4 || op === 9) r = await client.request('GET', `${base}?labelSelector=${encodeURIComponent(`client=c${String(index)}`)}`);
        else if (!created.has(name)) {
          value = String(++version);
          r = await client.request('POST', base, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { client: `c${String(index)}` } }, data: { v: value } });
          if (r.status === 201) created.add(name);
        } else {
          value = String(++version);
          r = await client.request('PATCH', `${base}/${name}`, { data: { v: value } }, 'application/merge-patch+json');
        }
        note(tenant, r, Number(process.hrtime.bigint() - t) / 1e6);
        if (value !== undefined && (r.status === 200 || r.status === 201)) result.acked.set(`${tenant}/${name}`, { tenant, path: `${base}/${name}`, value });
      }
      if (r.status === 429) await sleep(1000 * Number(r.headers['retry-after'] ?? '1'));
    }
  };
  try {
    await Promise.all(clients.map((c, i) => loop(i, c.tenant, c.client)));
  } finally {
    if (sampler) clearInterval(sampler);
    result.elapsedMs = Date.now() - started;
    for (const c of clients) c.client.close();
  }
  return result;
}

/** Reads every acknowledged write back; returns those missing or stale ("tenant/name: why"). */
export async function findLostWrites(tenants: LoadTenant[], acked: Map<string, Acked>): Promise<string[]> {
  const lost: string[] = [];
  for (const tenant of tenants) {
    const client = await loadClientFromKubeconfig(tenant.kubeconfig, 4);
    try {
      const mine = [...acked.entries()].filter(([, a]) => a.tenant === tenant.name);
      for (let i = 0; i < mine.length; i += 8) {
        await Promise.all(mine.slice(i, i + 8).map(async ([key, a]) => {
          const r = await client.request('GET', a.path);
          const value = r.status === 200 ? (JSON.parse(r.body) as { data?: { v?: string } }).data?.v : undefined;
          if (value !== a.value) lost.push(`${key}: ${String(r.status)}, v=${String(value)}, acknowledged v=${a.value}`);
        }));
      }
    } finally {
      client.close();
    }
  }
  return lost;
}

export function percentileOf(samples: readonly number[], p: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
