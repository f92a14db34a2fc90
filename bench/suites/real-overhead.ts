// The gateway's overhead in front of a real kube-apiserver (1.20, from
// ../shared/kube): the same GET, LIST and WATCH sent to the apiserver directly
// (admin token) and through `warren serve` (a tenant's client certificate; the
// gateway authenticates, authorizes, translates and proxies with the same admin
// token), on the same objects, in one run; reported as gateway / direct.
// Targets take turns in blocks, so other load on the machine hits both alike.
// Run: npm run bench -- real-overhead (standalone: it starts its own servers).
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { realKubeSet, realKubeSkipReason } from '../../test/helpers/real-kube.ts';
import { configMap, namespaceBody } from '../fixtures.ts';
import { clientFromKubeconfig, tokenClient, type BenchClient } from '../http-client.ts';
import { expectStatus, runConcurrent } from '../load.ts';
import { median, percentile } from '../stats.ts';
import type { Suite } from '../suite.ts';
import { startServerProcess } from '../targets/server-process.ts';
import { createBenchTenant } from './real-overhead-tenant.ts';
import { liveWatchLatencies, replayDuration } from './real-overhead-watch.ts';
import { renderOverheadText, writeRealOverheadSection, type OverheadRow } from './real-overhead-report.ts';

const OBJECTS = 500;
const PAYLOAD = 900;
const GETS = 3_000;
const GET_BLOCKS = 6;
const LIST_ROUNDS = 21;
const WATCH_WRITES = 300;
const WARMUP = 200;

interface Side { name: 'direct' | 'gateway'; client: BenchClient; ns: string }

const cmPath = (ns: string, name?: string): string => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;
const objName = (i: number): string => `cm-${String(i).padStart(4, '0')}`;

export const realOverheadSuite: Suite = {
  name: 'real-overhead',
  standalone: true,
  method: `A real kube-apiserver 1.20 (etcd, no controller-manager) and \`warren serve\` on it, each in its own process; ${OBJECTS} ConfigMaps of ~${PAYLOAD} B in one tenant namespace. `
    + `GET by name: ${GETS.toLocaleString('en-US')} sequential per side after ${WARMUP} warm-up, in ${GET_BLOCKS} alternating blocks. `
    + `LIST of the namespace (all ${OBJECTS}, no limit): median of ${LIST_ROUNDS} rounds, alternating. `
    + `WATCH: one watch per side open on the namespace at once while ${WATCH_WRITES} updates are written one at a time (latency = event received - update sent), `
    + `then a watch per side from the resourceVersion before the updates (time until all ${WATCH_WRITES} events are in).`,
  async run(env) {
    const began = Date.now();
    const loadAtStart = loadavg()[0] ?? 0;
    const skip = realKubeSkipReason();
    if (skip) throw new Error(`real-overhead needs a real control plane: ${skip}`);
    const kubes = realKubeSet();
    const stops: Array<() => Promise<void>> = [() => kubes.stopAll()];
    try {
      const host = await kubes.start('host', { controllerManager: false });
      env.log('real-overhead: host apiserver ready');
      const serve = await startServerProcess(
        [...env.serverNodeFlags, join(env.repoRoot, 'bin/warren'), 'serve', '--upstream-kubeconfig', host.kubeconfigPath, '--listen', '127.0.0.1:0'],
        /warren gateway ready at (\S+)/, { cwd: env.repoRoot, timeoutMs: 180_000 },
      );
      stops.unshift(() => serve.stop());
      const tenant = await createBenchTenant({ repoRoot: env.repoRoot, hostKubeconfigPath: host.kubeconfigPath, name: 'bench' });
      env.log(`real-overhead: tenant bench Ready (id ${tenant.id})`);
      const token = /token: ([A-Za-z0-9._-]+)/.exec(readFileSync(host.kubeconfigPath, 'utf8'))?.[1] ?? '';
      const direct: Side = { name: 'direct', client: tokenClient(host.server, token, 4), ns: `${tenant.id}-bench` };
      const gateway: Side = { name: 'gateway', client: clientFromKubeconfig(tenant.kubeconfig, 4), ns: 'bench' };
      const sides = [direct, gateway];
      try {
        expectStatus(await gateway.client.request('POST', '/api/v1/namespaces', namespaceBody('bench')), 201);
        await runConcurrent(8, OBJECTS, async (i) => expectStatus(await gateway.client.request('POST', cmPath('bench'), configMap('bench', objName(i), PAYLOAD)), 201));
        env.log(`real-overhead: ${OBJECTS} ConfigMaps written`);

        const get = (s: Side) => async (i: number): Promise<void> => expectStatus(await s.client.request('GET', cmPath(s.ns, objName((i * 7919) % OBJECTS))), 200);
        for (const s of sides) await runConcurrent(1, WARMUP, get(s));
        const gets: Record<string, number[]> = { direct: [], gateway: [] };
        for (let b = 0; b < GET_BLOCKS; b++) for (const s of sides) gets[s.name]!.push(...(await runConcurrent(1, GETS / GET_BLOCKS, get(s))).latencies);

        const lists: Record<string, number[]> = { direct: [], gateway: [] };
        for (const s of sides) for (let w = 0; w < 3; w++) expectStatus(await s.client.drain(cmPath(s.ns)), 200);
        for (let r = 0; r < LIST_ROUNDS; r++) {
          for (const s of sides) {
            const t = process.hrtime.bigint();
            expectStatus(await s.client.drain(cmPath(s.ns)), 200);
            lists[s.name]!.push(Number(process.hrtime.bigint() - t) / 1e6);
          }
        }
        env.log('real-overhead: GET and LIST measured');

        const live = await liveWatchLatencies({ writer: direct.client, writerNs: direct.ns, watchers: sides, names: Array.from({ length: WATCH_WRITES }, (_, i) => objName(i % OBJECTS)) });
        const replay = await replayDuration({ watchers: sides, fromVersion: live.versionBefore, events: WATCH_WRITES });
        env.log('real-overhead: WATCH measured');

        const rows: OverheadRow[] = [
          { metric: 'GET one object, p50', unit: 'ms', direct: median(gets.direct!), gateway: median(gets.gateway!) },
          { metric: 'GET one object, p99', unit: 'ms', direct: percentile(gets.direct!, 99), gateway: percentile(gets.gateway!, 99) },
          { metric: `LIST ${OBJECTS} objects, median`, unit: 'ms', direct: median(lists.direct!), gateway: median(lists.gateway!) },
          { metric: 'WATCH event latency, p50', unit: 'ms', direct: median(live.latencies.direct!), gateway: median(live.latencies.gateway!) },
          { metric: 'WATCH event latency, p99', unit: 'ms', direct: percentile(live.latencies.direct!, 99), gateway: percentile(live.latencies.gateway!, 99) },
          { metric: `WATCH replay of ${WATCH_WRITES} events`, unit: 'ms', direct: replay.direct!, gateway: replay.gateway! },
        ];
        const path = writeRealOverheadSection({ repoRoot: env.repoRoot, rows, method: realOverheadSuite.method, seconds: (Date.now() - began) / 1000, loadAtStart });
        return { rows: [], notes: [`\n${renderOverheadText(rows)}`, `wrote the real-overhead section of ${path}`] };
      } finally {
        for (const s of sides) s.client.close();
      }
    } finally {
      for (const stop of stops) await stop().catch(() => undefined);
    }
  },
};
