// The gateway side by side with the upstream it fronts (issue 3, performance):
// direct to the embedded apiserver, through a plain http-proxy passthrough (the
// floor), and through the gateway with a tenant user's client certificate.
// All three read the same upstream objects: the tenant's namespace "bench" is
// upstream namespace "<id>-bench", which direct and floor address by that name.
import { DATASET, datasetName } from '../dataset.ts';
import { cmPath, configMap, namespaceBody } from '../fixtures.ts';
import { clientFromKubeconfig, type BenchClient } from '../http-client.ts';
import { expectStatus, runConcurrent } from '../load.ts';
import { median, msSince, percentile } from '../stats.ts';
import type { Suite } from '../suite.ts';
import { startGatewayStack, type GatewayStack } from '../targets/gateway-stack.ts';
import { renderGatewayText, writeGatewaySection, type GatewayRow } from './gateway-report.ts';
import { holdWatches, collectionVersion, replayRate, waitForEvents } from './gateway-watches.ts';

const WRITERS = 50;
const BASELINE_CREATES = 5_000; // direct and floor: enough for a steady rate, and keeps the run short
const GET_SEQUENTIAL = 3_000;
const GET_BLOCKS = 6;
const GET_WARMUP = 500;
const LIST_RUNS = 9;
const LIST_WARMUP = 2;
const REPLAY_EVENTS = 8_000; // under the upstream's 10,000-event history
const CACHE_REPLAY_EVENTS = 4_000; // under the gateway cache's 5,000-event ring
const HELD_WATCHES = 1_000;
const SETTLE_MS = 3_000;
const TENANT_LABEL = 'tenancy.warren.dev/tenant';

type Way = 'direct' | 'floor' | 'gateway';
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, SETTLE_MS));
const mib = (kib: number): number => kib / 1024;

interface Ways {
  clients: Record<Way, BenchClient>;
  /** The same collection as each way spells it. */
  nsPath: Record<Way, (name?: string) => string>;
  allPath: Record<Way, string>;
}

function ways(stack: GatewayStack, tenantKubeconfig: string, id: string): Ways {
  const upstreamNs = `${id}-${DATASET.namespace}`;
  const byLabel = `/api/v1/configmaps?labelSelector=${encodeURIComponent(`${TENANT_LABEL}=${id}`)}`;
  return {
    clients: { direct: stack.direct(WRITERS), floor: stack.floorClient(WRITERS), gateway: clientFromKubeconfig(tenantKubeconfig, WRITERS) },
    nsPath: { direct: (n) => cmPath(upstreamNs, n), floor: (n) => cmPath(upstreamNs, n), gateway: (n) => cmPath(DATASET.namespace, n) },
    // What the tenant's all-namespaces list means upstream: every ConfigMap with its label.
    allPath: { direct: byLabel, floor: byLabel, gateway: '/api/v1/configmaps' },
  };
}

const WAYS: Way[] = ['direct', 'floor', 'gateway'];

async function creates(w: Ways): Promise<{ rate: Record<Way, number>; p50: Record<Way, number>; p99: Record<Way, number> }> {
  const rate = {} as Record<Way, number>;
  const p50 = {} as Record<Way, number>;
  const p99 = {} as Record<Way, number>;
  for (const way of WAYS) {
    const client = w.clients[way];
    // The gateway writes the shared data set (tenant namespace "bench"); the others write beside it upstream.
    const ns = way === 'gateway' ? DATASET.namespace : `gwb-${way}`;
    const count = way === 'gateway' ? DATASET.count : BASELINE_CREATES;
    expectStatus(await client.request('POST', '/api/v1/namespaces', namespaceBody(ns)), 201);
    const r = await runConcurrent(WRITERS, count, async (i) => {
      expectStatus(await client.request('POST', cmPath(ns), configMap(ns, datasetName(i), DATASET.payloadBytes, i)), 201);
    });
    rate[way] = r.perSecond;
    p50[way] = percentile(r.latencies, 50);
    p99[way] = percentile(r.latencies, 99);
  }
  return { rate, p50, p99 };
}

async function gets(w: Ways): Promise<Record<Way, number[]>> {
  const samples: Record<Way, number[]> = { direct: [], floor: [], gateway: [] };
  const getter = (way: Way) => async (i: number): Promise<void> => {
    expectStatus(await w.clients[way].request('GET', w.nsPath[way](datasetName((i * 7919) % DATASET.count))), 200);
  };
  for (const way of WAYS) await runConcurrent(1, GET_WARMUP, getter(way));
  // Targets take turns in blocks, so outside load hits each alike.
  for (let b = 0; b < GET_BLOCKS; b++) {
    for (const way of WAYS) samples[way].push(...(await runConcurrent(1, GET_SEQUENTIAL / GET_BLOCKS, getter(way))).latencies);
  }
  return samples;
}

async function lists(w: Ways, path: (way: Way) => string, expected: number): Promise<{ med: Record<Way, number>; mb: Record<Way, number> }> {
  const samples: Record<Way, number[]> = { direct: [], floor: [], gateway: [] };
  const mb = {} as Record<Way, number>;
  for (const way of WAYS) {
    const reply = await w.clients[way].request('GET', path(way));
    expectStatus(reply, 200);
    const count = (JSON.parse(reply.body) as { items: unknown[] }).items.length;
    if (count < expected) throw new Error(`LIST ${path(way)} via ${way}: ${count} items, expected ${expected}`);
    mb[way] = reply.bytes / 1e6;
  }
  for (let round = 0; round < LIST_WARMUP + LIST_RUNS; round++) {
    for (const way of WAYS) {
      const start = process.hrtime.bigint();
      expectStatus(await w.clients[way].drain(path(way)), 200);
      if (round >= LIST_WARMUP) samples[way].push(msSince(start));
    }
  }
  return { med: { direct: median(samples.direct), floor: median(samples.floor), gateway: median(samples.gateway) }, mb };
}

/** Writes events `from`..`to`-1 into upstream namespace `ns` directly (tenant label set, as the gateway would): the first 1,000 create, the rest update. */
async function writeEvents(client: BenchClient, ns: string, id: string, range: { from: number; to: number }): Promise<void> {
  await runConcurrent(32, range.to - range.from, async (k) => {
    const i = range.from + k;
    const name = `w-${i % 1_000}`;
    const body = JSON.parse(configMap(ns, name, 200, i)) as { metadata: { labels: Record<string, string> } };
    body.metadata.labels[TENANT_LABEL] = id;
    const text = JSON.stringify(body);
    expectStatus(i < 1_000 ? await client.request('POST', cmPath(ns), text) : await client.request('PUT', cmPath(ns, name), text), 200, 201);
  });
}

export const gatewayPerfSuite: Suite = {
  name: 'gateway',
  method: 'see the Gateway section of docs/benchmarks.md',
  async run(env) {
    const started = process.hrtime.bigint();
    const stack = await startGatewayStack({ repoRoot: env.repoRoot, floor: true, gatewayNodeFlags: env.serverNodeFlags });
    const rows: GatewayRow[] = [];
    const notes: string[] = [];
    try {
      const tenant = await stack.createTenant('bench');
      env.log(`gateway: tenant bench Ready as ${tenant.id}`);
      const w = ways(stack, tenant.kubeconfig, tenant.id);
      const c = await creates(w);
      env.log(`gateway: creates/s ${JSON.stringify(c.rate)}`);
      rows.push({ metric: `creates, ${WRITERS} clients`, unit: 'writes/s', ...c.rate });
      rows.push({ metric: 'create latency p50', unit: 'ms', ...c.p50 }, { metric: 'create latency p99', unit: 'ms', ...c.p99 });

      const g = await gets(w);
      const p50 = { direct: percentile(g.direct, 50), floor: percentile(g.floor, 50), gateway: percentile(g.gateway, 50) };
      env.log(`gateway: GET p50 ${JSON.stringify(p50)}`);
      rows.push({ metric: 'GET sequential p50', unit: 'ms', ...p50, goal: '<= floor + 0.5 ms', pass: p50.gateway <= p50.floor + 0.5 });
      rows.push({ metric: 'GET sequential p99', unit: 'ms', direct: percentile(g.direct, 99), floor: percentile(g.floor, 99), gateway: percentile(g.gateway, 99) });

      const l = await lists(w, (way) => w.nsPath[way](), DATASET.count);
      env.log(`gateway: LIST medians ${JSON.stringify(l.med)}`);
      const ratio = l.med.gateway / l.med.direct;
      rows.push({ metric: `LIST ${DATASET.count.toLocaleString('en-US')} x 1 KiB, one namespace, median`, unit: 'ms', ...l.med, goal: '<= 1.3x direct', pass: ratio <= 1.3 });
      rows.push({ metric: 'LIST one namespace: / direct', unit: 'x', floor: l.med.floor / l.med.direct, gateway: ratio });
      rows.push({ metric: 'LIST one namespace: response size', unit: 'MB', ...l.mb });
      const la = await lists(w, (way) => w.allPath[way], DATASET.count);
      env.log(`gateway: LIST all-namespaces medians ${JSON.stringify(la.med)}`);
      rows.push({ metric: 'LIST all namespaces (tenant\'s), median', unit: 'ms', ...la.med });
      rows.push({ metric: 'LIST all namespaces: / direct', unit: 'x', floor: la.med.floor / la.med.direct, gateway: la.med.gateway / la.med.direct });

      // Replay: the events are in the upstream's history (and the gateway cache's ring) before anyone watches.
      expectStatus(await w.clients.gateway.request('POST', '/api/v1/namespaces', namespaceBody('watch')), 201);
      const upstreamWatchNs = `${tenant.id}-watch`;
      const rv1 = await collectionVersion(w.clients.direct, cmPath(upstreamWatchNs));
      await writeEvents(w.clients.direct, upstreamWatchNs, tenant.id, { from: 0, to: REPLAY_EVENTS - CACHE_REPLAY_EVENTS });
      const rv2 = await collectionVersion(w.clients.direct, cmPath(upstreamWatchNs));
      await writeEvents(w.clients.direct, upstreamWatchNs, tenant.id, { from: REPLAY_EVENTS - CACHE_REPLAY_EVENTS, to: REPLAY_EVENTS });
      const nsWatch: Record<Way, string> = { direct: cmPath(upstreamWatchNs), floor: cmPath(upstreamWatchNs), gateway: cmPath('watch') };
      const replayNs = {} as Record<Way, number>;
      const replayAll = {} as Record<Way, number>;
      const replay = async (way: Way, path: string, rv: string, expected: number): Promise<number> => {
        const r = await replayRate(w.clients[way], path, rv, expected);
        if (Number.isNaN(r.rate)) notes.push(`watch replay via ${way} (${path}): ${r.events} of ${expected} events within 15 s`);
        return r.rate;
      };
      for (const way of WAYS) replayNs[way] = await replay(way, nsWatch[way], rv1, REPLAY_EVENTS);
      for (const way of WAYS) replayAll[way] = await replay(way, w.allPath[way], rv2, CACHE_REPLAY_EVENTS);
      env.log(`gateway: watch replay ${JSON.stringify(replayNs)}, all namespaces ${JSON.stringify(replayAll)}`);
      const goal = { goal: '>= 20,000/s' };
      rows.push({ metric: `watch replay, one namespace, ${REPLAY_EVENTS.toLocaleString('en-US')} events`, unit: 'events/s', ...replayNs, ...goal, pass: replayNs.gateway >= 20_000 });
      rows.push({ metric: `watch replay, all namespaces, ${CACHE_REPLAY_EVENTS.toLocaleString('en-US')} events`, unit: 'events/s', ...replayAll, ...goal, pass: replayAll.gateway >= 20_000 });

      for (const [scope, path] of [['one namespace', cmPath(DATASET.namespace)], ['all namespaces', '/api/v1/configmaps']] as const) {
        await settle();
        const before = stack.gateway.memory().rssKiB;
        const held = await holdWatches(w.clients.gateway, path, HELD_WATCHES, 50);
        await settle();
        const during = stack.gateway.memory().rssKiB;
        const open = held.watches.length;
        let fanoutMs = NaN;
        if (!held.stalled) {
          // One write must reach every held watch: they are live streams, not parked sockets.
          const probe = `probe-${scope.replace(' ', '-')}`;
          const t = process.hrtime.bigint();
          expectStatus(await w.clients.gateway.request('POST', cmPath(DATASET.namespace), configMap(DATASET.namespace, probe, 100)), 201);
          await waitForEvents(held.watches, 1, 30_000);
          fanoutMs = msSince(t);
        } else {
          notes.push(`${scope}: watch number ${open + 1} got no response headers within 10 s; only ${open} watches could be held open through the gateway.`);
        }
        held.close();
        const delta = mib(during - before);
        env.log(`gateway: ${open} of ${HELD_WATCHES} watches (${scope}) opened in ${held.openMs.toFixed(0)} ms, RSS ${mib(before).toFixed(0)} -> ${mib(during).toFixed(0)} MiB`);
        rows.push({ metric: `tenant watches held open (${scope})`, unit: 'watches', gateway: open, goal: `${HELD_WATCHES.toLocaleString('en-US')}`, pass: open >= HELD_WATCHES });
        rows.push({ metric: `${HELD_WATCHES.toLocaleString('en-US')} tenant watches (${scope}): gateway RSS delta`, unit: 'MiB', gateway: delta, goal: '< 200 MiB', pass: open >= HELD_WATCHES && delta < 200 });
        rows.push({ metric: `${HELD_WATCHES.toLocaleString('en-US')} tenant watches (${scope}): gateway RSS`, unit: 'MiB', gateway: mib(during) });
        rows.push({ metric: `${HELD_WATCHES.toLocaleString('en-US')} tenant watches (${scope}): one write reaches all`, unit: 'ms', gateway: fanoutMs });
        notes.push(`${HELD_WATCHES} watches (${scope}) opened in ${(held.openMs / 1000).toFixed(1)} s (each its own TLS connection and client certificate); gateway RSS ${mib(before).toFixed(0)} MiB before, ${mib(during).toFixed(0)} MiB with them open.`);
      }
      for (const client of Object.values(w.clients)) client.close();
    } finally {
      await stack.stop();
    }
    const seconds = msSince(started) / 1000;
    process.stdout.write(`\nGateway (direct = embedded apiserver, floor = http-proxy passthrough, gateway = warren serve with mTLS)\n${renderGatewayText(rows)}\n`);
    const path = writeGatewaySection(env.repoRoot, { title: 'Gateway', rows, notes, seconds, method: GATEWAY_METHOD });
    return { rows: [], notes: [`${rows.filter((r) => r.pass === false).length} of ${rows.filter((r) => r.pass !== undefined).length} goals failed; table above and in ${path}`] };
  },
};

const GATEWAY_METHOD = [
  '**direct**: `warren apiserver` (fresh data dir), admin client certificate, upstream paths (`<id>-bench`); **floor (proxy)**: a node HTTPS server piping every request with http-proxy (keep-alive upstream agent, admin certificate), no authentication or translation (bench/targets/gateway-floor-proxy.ts); **gateway**: `warren serve --upstream-kubeconfig` (gateway + onboarding controller), tenant `bench` made with `warren tenant create --admin alice --wait`, alice\'s client certificate, tenant paths. Each server in its own process; the bench client (raw node:https, keep-alive) in another, all on the same 2 cores.',
  `**creates**: ${WRITERS} concurrent clients POST ~1 KiB ConfigMaps; the gateway writes the ${DATASET.count.toLocaleString('en-US')}-object data set into tenant namespace "bench", direct and floor ${BASELINE_CREATES.toLocaleString('en-US')} each into namespaces of their own beside it (direct first, gateway last, so the gateway writes into the fullest store).`,
  `**GET**: one ConfigMap by name, spread over the data set, one request at a time; ${GET_SEQUENTIAL.toLocaleString('en-US')} per way after ${GET_WARMUP} warm-up, ways taking turns in ${GET_BLOCKS} blocks.`,
  `**LIST**: the whole data set, no limit (through the gateway, one namespace is served by the shared cache once the first LIST has opened it, after proving it current: ADR 13), time to last byte (client drops the body); median of ${LIST_RUNS} after ${LIST_WARMUP} warm-up, ways interleaved. All namespaces: the gateway's \`/api/v1/configmaps\` (served from its shared cache) against direct/floor \`/api/v1/configmaps?labelSelector=tenancy.warren.dev/tenant=<id>\`.`,
  `**watch replay**: events written first (directly upstream, 32 writers, 1,000 ConfigMaps created then updated, tenant label set), then one watch asks for them from an older resourceVersion; events/s = events / (last event received - watch request sent). One namespace: ${REPLAY_EVENTS.toLocaleString('en-US')} events; the gateway answers from its shared cache's event ring (opened by the LIST phase; a version older than the ring would be forwarded and translated event by event, about as fast as the floor). All namespaces: the last ${CACHE_REPLAY_EVENTS.toLocaleString('en-US')} events from the gateway cache's ring, against a label-selected upstream watch.`,
  `**${HELD_WATCHES.toLocaleString('en-US')} watches**: opened from the bench process through the gateway, 50 at a time, each its own HTTP/1.1 TLS connection with alice's certificate, from the current resourceVersion (no initial events); the gateway child's VmRSS (/proc/<pid>/status) ${SETTLE_MS / 1000} s before and ${SETTLE_MS / 1000} s after; then one create must reach all of them. Once on one namespace, once on all namespaces (both served by the gateway's shared cache, one upstream watch for all).`,
];
