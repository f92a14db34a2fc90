// Issue 18: a tenant's writes through the gateway against the same writes sent
// straight to the upstream, in one run, so the ratios hold whatever the load:
// 16 keep-alive clients with client certificates (the upstream's admin, the
// tenant user alice), ~1 KiB ConfigMaps. The tenant has a quota like
// tenants/acme.yaml (namespace and per-resource object counts, cpu, memory,
// storage), because that is what made creates slow: every create counted the
// tenant's objects of its resource with a LIST (ADR 0031).
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { TENANT_LABEL } from '../../src/core/tenancy/tenant-id.ts';
import { cmPath, configMap, namespaceBody } from '../fixtures.ts';
import { clientFromKubeconfig, type BenchClient } from '../http-client.ts';
import { expectStatus, runConcurrent } from '../load.ts';
import { cpuMeter } from '../process-cpu.ts';
import { msSince, percentile } from '../stats.ts';
import type { Suite } from '../suite.ts';
import { startGatewayStack } from '../targets/gateway-stack.ts';
import { startServerProcess, type ServerProcess } from '../targets/server-process.ts';
import { renderGatewayText, writeGatewaySection, type GatewayRow } from './gateway-report.ts';

/** WARREN_BENCH_WT_CLIENTS overrides (how the servers' CPU per request moves with concurrency). */
const CLIENTS = Number(process.env.WARREN_BENCH_WT_CLIENTS ?? 16);
/**
 * WARREN_BENCH_WT_TD_CLIENTS: tenantDirect's own number of clients, so it can run at about the gateway's
 * rate in the same run (does the upstream's CPU per request rise when requests come slower?).
 */
const TD_CLIENTS = Number(process.env.WARREN_BENCH_WT_TD_CLIENTS ?? CLIENTS);
/** Per way; WARREN_BENCH_WT_OBJECTS overrides (a before/after pair on a loaded machine). */
const OBJECTS = Number(process.env.WARREN_BENCH_WT_OBJECTS ?? 3_000);
/** Creates and updates go in blocks, the two ways taking turns, so outside load hits both alike. */
const BLOCKS = 6;
// Blocks of whole objects: otherwise blocks overlap by a name, and the GETs ask for names never created.
if (!Number.isInteger(OBJECTS / BLOCKS)) throw new Error(`WARREN_BENCH_WT_OBJECTS (${OBJECTS}) must be a multiple of ${BLOCKS}`);
const GET_SEQUENTIAL = 3_000;
const GET_WARMUP = 300;
const PAYLOAD = 900;
/** WARREN_BENCH_WT_QUOTA overrides (an A/B without the count quota). */
const QUOTA = process.env.WARREN_BENCH_WT_QUOTA ?? `namespaces=20,objectsPerResource=${OBJECTS * 3},cpu=16,memory=64Gi,storage=500Gi`;

/**
 * WARREN_BENCH_WT_B_ENV (e.g. `WARREN_FAIRNESS_ADAPTIVE_ENABLED=false`): a second `warren serve` with these
 * settings, in front of the same upstream, as a third way taking turns with the others: an A/B of a gateway
 * setting measured in one run (ADR 0012's adaptive seats), printed beside the table.
 */
const B_ENV = parseEnvList(process.env.WARREN_BENCH_WT_B_ENV ?? '');
/**
 * floor = the lean zero-logic proxy (lean-floor-proxy.ts) in front of the same upstream: what any proxy hop
 * costs on this machine, so the gateway's ratio can be read against the reachable one.
 */
type Way = 'direct' | 'floor' | 'gateway' | 'gatewayB' | 'tenantDirect';
const ALL_WAYS: readonly Way[] = ['direct', 'floor', 'gateway', 'gatewayB', 'tenantDirect'];
/**
 * WARREN_BENCH_WT_WAYS (e.g. `direct` or `gateway`): run only these ways, so a profile of the upstream
 * (`--profile`) holds one way's requests. Default: direct, floor, gateway (and gatewayB with B_ENV).
 * tenantDirect (only when named): the admin's certificate straight to the upstream, writing what the gateway
 * writes (the tenant's upstream namespace, made through the gateway with its quota; the tenant label on every
 * object), so the upstream's cost of a tenant's object is told apart from the cost of the gateway's leg.
 */
const WAYS: Way[] = (process.env.WARREN_BENCH_WT_WAYS?.split(',') as Way[] | undefined)
  ?? (Object.keys(B_ENV).length > 0 ? ['direct', 'floor', 'gateway', 'gatewayB'] : ['direct', 'floor', 'gateway']);
for (const w of WAYS) if (!ALL_WAYS.includes(w)) throw new Error(`WARREN_BENCH_WT_WAYS: unknown way ${w}`);
/**
 * WARREN_BENCH_WT_FLOOR_LEG=unix: the floor's upstream leg is plain HTTP over a Unix socket (the upstream
 * serves one through plain-upstream-listener.mjs), to size what the TLS leg costs. Default: HTTPS as the gateway's.
 */
const FLOOR_LEG = process.env.WARREN_BENCH_WT_FLOOR_LEG === 'unix' ? 'unix' : 'tls';

function parseEnvList(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split(/[\s,]+/).filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`WARREN_BENCH_WT_B_ENV: expected NAME=value, got ${pair}`);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}
const name = (i: number): string => `wt-${String(i).padStart(5, '0')}`;

interface Phase {
  rate: Record<Way, number>;
  p50: Record<Way, number>;
  p99: Record<Way, number>;
  /** CPU ms per request of the process in front (gateway, gateway B or floor proxy; none direct) and of the upstream, while each way ran. */
  cpu: Record<Way, { gateway: number; upstream: number }>;
}

/** The process in front of the upstream for each way (0: none, direct). */
interface Pids { front: Record<Way, number>; upstream: number }


interface WayTarget {
  /** A fresh keep-alive pool: each block opens its own, warmed outside the timing. */
  connect(): BenchClient;
  client: BenchClient;
  /** The namespace in this way's terms (the gateway's is the tenant's). */
  ns: string;
  /** Rewrites each object's text before it is sent (tenantDirect: the tenant label the gateway adds). */
  shape?: (body: string) => string;
  /** Concurrent clients of this way (default CLIENTS). */
  clients?: number;
}

/**
 * A way's target with a new pool of CLIENTS connections, each used once before the timing starts.
 * Reusing a pool across blocks failed at load average 50: while the other way's block ran, the
 * servers closed the idle keep-alive sockets (5 s) and the next request on one hung up.
 */
async function warmed(t: WayTarget): Promise<WayTarget> {
  const client = t.connect();
  await Promise.all(Array.from({ length: t.clients ?? CLIENTS }, async () => expectStatus(await client.request('GET', `${cmPath(t.ns)}?limit=1`), 200)));
  return { ...t, client };
}

const perWay = <T>(f: (way: Way) => T): Record<Way, T> => Object.fromEntries(ALL_WAYS.map((w) => [w, f(w)])) as Record<Way, T>;

async function phase(targets: Record<Way, WayTarget>, pids: Pids, op: (t: WayTarget, i: number) => Promise<void>): Promise<Phase> {
  const latencies = perWay<number[]>(() => []);
  const elapsed = perWay(() => 0);
  const cpu = perWay(() => ({ gateway: 0, upstream: 0 }));
  const perBlock = OBJECTS / BLOCKS;
  for (let b = 0; b < BLOCKS; b++) {
    for (const way of WAYS) {
      const target = await warmed(targets[way]);
      const meter = cpuMeter({ gateway: pids.front[way] ? [pids.front[way]] : [], upstream: [pids.upstream] });
      const r = await runConcurrent(target.clients ?? CLIENTS, perBlock, (k) => op(target, b * perBlock + k));
      const used = meter.read();
      target.client.close();
      latencies[way].push(...r.latencies);
      elapsed[way] += r.elapsedMs;
      cpu[way].gateway += (used.gateway ?? 0) * 1000;
      cpu[way].upstream += (used.upstream ?? 0) * 1000;
    }
  }
  return {
    rate: perWay((w) => (OBJECTS / elapsed[w]) * 1000),
    p50: perWay((w) => percentile(latencies[w], 50)),
    p99: perWay((w) => percentile(latencies[w], 99)),
    cpu: perWay((w) => ({ gateway: cpu[w].gateway / OBJECTS, upstream: cpu[w].upstream / OBJECTS })),
  };
}

/** A row's columns for the ways that ran (a way left out by WARREN_BENCH_WT_WAYS shows "-"). */
const columns = (value: (w: Way) => number, ways: readonly Way[] = ['direct', 'floor', 'gateway']): Pick<GatewayRow, 'direct' | 'floor' | 'gateway'> =>
  Object.fromEntries(ways.filter((w) => WAYS.includes(w)).map((w) => [w, value(w)]));

function phaseRows(label: string, unit: string, p: Phase, goal: { ratio: number }): GatewayRow[] {
  const ratio = p.rate.gateway / p.rate.direct;
  const ran = WAYS.includes('gateway') && WAYS.includes('direct');
  return [
    { metric: `${label}, ${CLIENTS} clients`, unit, ...columns((w) => p.rate[w]) },
    { metric: `${label}: way / direct`, unit: 'x', ...columns((w) => p.rate[w] / p.rate.direct, ['floor', 'gateway']), ...(ran ? { goal: `>= ${goal.ratio}x`, pass: ratio >= goal.ratio } : {}) },
    { metric: `${label} latency p50`, unit: 'ms', ...columns((w) => p.p50[w]) },
    { metric: `${label} latency p99`, unit: 'ms', ...columns((w) => p.p99[w]) },
    { metric: `${label}: upstream CPU per request`, unit: 'ms', ...columns((w) => p.cpu[w].upstream) },
    { metric: `${label}: proxy CPU per request (floor / gateway process)`, unit: 'ms', ...columns((w) => p.cpu[w].gateway, ['floor', 'gateway']) },
  ];
}

async function gets(targets: Record<Way, WayTarget>): Promise<Record<Way, number[]>> {
  const samples = perWay<number[]>(() => []);
  const getter = (t: WayTarget) => async (i: number): Promise<void> => {
    expectStatus(await t.client.request('GET', cmPath(t.ns, name((i * 7919) % OBJECTS))), 200);
  };
  for (const way of WAYS) await runConcurrent(1, GET_WARMUP, getter(targets[way]));
  for (let b = 0; b < BLOCKS; b++) {
    for (const way of WAYS) {
      const t = await warmed(targets[way]);
      samples[way].push(...(await runConcurrent(1, GET_SEQUENTIAL / BLOCKS, getter(t))).latencies);
      t.client.close();
    }
  }
  return samples;
}

export const writeThroughputSuite: Suite = {
  name: 'write-throughput',
  ownServers: true,
  method: 'see the Write throughput section of docs/benchmarks.md',
  async run(env) {
    const started = process.hrtime.bigint();
    const floorUpstreamSocket = FLOOR_LEG === 'unix' ? join(tmpdir(), `warren-bench-plain-${process.pid}.sock`) : undefined;
    if (floorUpstreamSocket) process.env.WARREN_BENCH_PLAIN_SOCKET = floorUpstreamSocket;
    const stack = await startGatewayStack({
      repoRoot: env.repoRoot,
      floor: WAYS.includes('floor'),
      floorProxy: 'lean',
      ...(floorUpstreamSocket ? { floorUpstreamSocket } : {}),
      gatewayNodeFlags: env.serverNodeFlags,
      // --profile: the upstream's profile too, to compare its cost per way (run one way at a time with WARREN_BENCH_WT_WAYS).
      upstreamNodeFlags: [...env.serverNodeFlags, ...(floorUpstreamSocket ? ['--import', join(env.repoRoot, 'bench/targets/plain-upstream-listener.mjs')] : [])],
    });
    const rows: GatewayRow[] = [];
    let gatewayB: ServerProcess | undefined;
    try {
      const tenant = await stack.createTenant('writer', ['--quota', QUOTA]);
      env.log(`write-throughput: tenant writer Ready as ${tenant.id}`);
      const targets: Record<Way, WayTarget> = {
        direct: { connect: () => stack.direct(CLIENTS), client: stack.direct(CLIENTS), ns: 'wt-direct' },
        ...(stack.floor ? { floor: { connect: () => stack.floorClient(CLIENTS), client: stack.floorClient(CLIENTS), ns: 'wt-floor' } } : {}),
        gateway: { connect: () => clientFromKubeconfig(tenant.kubeconfig, CLIENTS), client: clientFromKubeconfig(tenant.kubeconfig, CLIENTS), ns: 'wt' },
      } as Record<Way, WayTarget>;
      if (WAYS.includes('tenantDirect')) {
        expectStatus(await targets.gateway.client.request('POST', '/api/v1/namespaces', namespaceBody('wt-td')), 201);
        const label = `"labels":{"${TENANT_LABEL}":"${tenant.id}",`;
        targets.tenantDirect = { connect: () => stack.direct(CLIENTS), client: stack.direct(CLIENTS), ns: `${tenant.id}-wt-td`, clients: TD_CLIENTS, shape: (body) => body.replace('"labels":{', label) };
      }
      if (WAYS.includes('gatewayB')) {
        gatewayB = await startGatewayB(env.repoRoot, stack.upstreamKubeconfigFile);
        // The same tenant credential: the tenant CA and serving CA live upstream, shared by both gateways.
        const kubeconfigB = tenant.kubeconfig.replace(stack.gateway.url, gatewayB.ready[1] ?? '');
        targets.gatewayB = { connect: () => clientFromKubeconfig(kubeconfigB, CLIENTS), client: clientFromKubeconfig(kubeconfigB, CLIENTS), ns: 'wt-b' };
        env.log(`write-throughput: gateway B (${JSON.stringify(B_ENV)}) at ${gatewayB.ready[1]}`);
      }
      for (const t of Object.values(targets)) if (t !== targets.tenantDirect) expectStatus(await t.client.request('POST', '/api/v1/namespaces', namespaceBody(t.ns)), 201);
      const pids: Pids = { front: { direct: 0, floor: stack.floor?.pid ?? 0, gateway: stack.gateway.pid, gatewayB: gatewayB?.pid ?? 0, tenantDirect: 0 }, upstream: stack.upstream.process.pid };
      const object = (t: WayTarget, i: number, seed: number): string => (t.shape ?? ((b: string) => b))(configMap(t.ns, name(i), PAYLOAD, seed));
      const c = await phase(targets, pids, async (t, i) => {
        expectStatus(await t.client.request('POST', cmPath(t.ns), object(t, i, i)), 201);
      });
      env.log(`write-throughput: creates/s ${JSON.stringify(c.rate)}`);
      const u = await phase(targets, pids, async (t, i) => {
        expectStatus(await t.client.request('PUT', cmPath(t.ns, name(i)), object(t, i, i + 1)), 200);
      });
      env.log(`write-throughput: updates/s ${JSON.stringify(u.rate)}`);
      const g = await gets(targets);
      const p50 = { direct: percentile(g.direct, 50), floor: percentile(g.floor, 50), gateway: percentile(g.gateway, 50) };
      env.log(`write-throughput: GET p50 ${JSON.stringify(p50)}`);
      if (gatewayB) process.stdout.write(abLines(c, u, perWay((w) => percentile(g[w], 50))));
      if (WAYS.includes('tenantDirect')) process.stdout.write(tenantDirectLines(c, u));
      rows.push(...phaseRows('creates', 'writes/s', c, { ratio: 0.7 }), ...phaseRows('updates', 'writes/s', u, { ratio: 0.8 }));
      rows.push({ metric: 'GET sequential p50', unit: 'ms', ...columns((w) => p50[w as keyof typeof p50]), goal: '<= direct + 0.5 ms', pass: p50.gateway <= p50.direct + 0.5 });
      rows.push({ metric: 'GET sequential p99', unit: 'ms', ...columns((w) => percentile(g[w], 99)) });
      for (const t of Object.values(targets)) t.client.close();
    } finally {
      await gatewayB?.stop();
      await stack.stop();
    }
    const seconds = msSince(started) / 1000;
    process.stdout.write(`\nWrite throughput (direct = embedded apiserver, gateway = warren serve with mTLS, tenant with a quota)\n${renderGatewayText(rows)}\n`);
    const path = writeGatewaySection(env.repoRoot, { title: 'Write throughput', suite: 'write-throughput', rows, notes: [], seconds, method: METHOD });
    const failed = rows.filter((r) => r.pass === false).length;
    return { rows: [], notes: [`${failed} of ${rows.filter((r) => r.pass !== undefined).length} goals failed; table above and in ${path}`] };
  },
};

/** A second gateway in front of the same upstream, with B_ENV on top of this process's environment. */
async function startGatewayB(repoRoot: string, upstreamKubeconfigFile: string): Promise<ServerProcess> {
  return await startServerProcess(
    [join(repoRoot, 'bin/warren'), 'serve', '--upstream-kubeconfig', upstreamKubeconfigFile, '--listen', '127.0.0.1:0'],
    /warren gateway ready at (\S+)/,
    { cwd: repoRoot, timeoutMs: 300_000, env: B_ENV },
  );
}

/** The A/B in one run: each gateway's ratio to direct, and its CPU per write. */
function abLines(c: Phase, u: Phase, getP50: Record<Way, number>): string {
  const line = (label: string, p: Phase): string => (['gateway', 'gatewayB'] as const)
    .map((w) => `${label} ${w}: ${p.rate[w].toFixed(1)}/s = ${(p.rate[w] / p.rate.direct).toFixed(3)}x direct, p50 ${p.p50[w].toFixed(1)} ms, CPU per request gateway ${p.cpu[w].gateway.toFixed(2)} ms upstream ${p.cpu[w].upstream.toFixed(2)} ms`)
    .join('\n');
  return `\nA/B (gateway = default settings, gatewayB = ${JSON.stringify(B_ENV)}), direct ${c.rate.direct.toFixed(1)} creates/s, ${u.rate.direct.toFixed(1)} updates/s\n${line('creates', c)}\n${line('updates', u)}\nGET p50 direct ${getP50.direct.toFixed(3)} gateway ${getP50.gateway.toFixed(3)} gatewayB ${getP50.gatewayB.toFixed(3)} ms\n`;
}

/** tenantDirect beside direct and gateway: what the upstream spends on a tenant's object without the gateway's leg. */
function tenantDirectLines(c: Phase, u: Phase): string {
  const line = (label: string, p: Phase): string => (['direct', 'tenantDirect', 'gateway'] as const)
    .filter((w) => WAYS.includes(w))
    .map((w) => `${label} ${w}: ${p.rate[w].toFixed(1)}/s, upstream CPU per request ${p.cpu[w].upstream.toFixed(3)} ms`)
    .join('\n');
  return `\ntenantDirect (admin certificate, the tenant's namespace and label, no gateway; ${TD_CLIENTS} clients)\n${line('creates', c)}\n${line('updates', u)}\n`;
}

const METHOD = [
  '**direct**: `warren apiserver` (fresh data dir), admin client certificate, upstream namespace `wt-direct`; **gateway**: `warren serve --upstream-kubeconfig` in front of it, tenant `writer` made with `warren tenant create --admin alice --wait --quota ' + QUOTA + '`, alice\'s client certificate, tenant namespace `wt`; **floor (proxy)**: a zero-logic HTTPS proxy process in front of the same upstream (bench/targets/lean-floor-proxy.ts: one `https.request` per request on a kept-alive agent with the admin certificate, body and answer piped unparsed), admin namespace `wt-floor`' + (FLOOR_LEG === 'unix' ? ', **its upstream leg plain HTTP over a Unix socket** (WARREN_BENCH_WT_FLOOR_LEG=unix)' : '') + '. Each server in its own process; the bench client (raw node:https, keep-alive) in another, all on the same 2 cores.',
  `**creates**, then **updates** (PUT of the whole object, no resourceVersion) of ${OBJECTS.toLocaleString('en-US')} ~1 KiB ConfigMaps per way, ${CLIENTS} concurrent keep-alive clients, in ${BLOCKS} blocks with the ways taking turns (direct, floor, gateway, direct, ...), rate = objects / summed block time. CPU per request: user + system of each process (the one in front of the upstream: floor proxy or gateway; and the upstream) (/proc/<pid>/stat) over the blocks of that way, divided by the requests.`,
  `**GET**: one ConfigMap by name, one request at a time, ${GET_SEQUENTIAL.toLocaleString('en-US')} per way after ${GET_WARMUP} warm-up, ways taking turns in ${BLOCKS} blocks.`,
  'Goals (issue 18): creates through the gateway >= 0.7x direct, updates >= 0.8x, GET p50 within 0.5 ms of direct, as ratios of this one run. The machine is shared: read the load average beside the figures.',
];
