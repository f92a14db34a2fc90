// What each of the engine's requests and watch events costs the engine's
// process, one kind at a time (issue 18: the per-pair account):
//   node --import tsx bench/propagation-count.ts 20 10 2   (with COUNT_SAMPLES=FILE: the engine's own requests)
//   node --import tsx bench/propagation-costs.ts FILE [n=2000] [rounds=2]
// An embedded apiserver runs in a child process (`warren apiserver`); this process sends the engine's requests
// with the engine's client (createUpstream: the lean pool, JSON bodies) n at a time, 8 in flight, and reads
// what they cost it (process.cpuUsage: user + system, so TLS and sockets count). Watch events are timed the
// same way: a second child process writes, this one only runs the engine's informer (its transform, no
// handler) and counts its CPU per event received. A diagnostic, not a suite: figures go in docs/benchmarks.md by hand.
import { fork } from 'node:child_process';
import tls from 'node:tls';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createUpstream } from '../src/kube/upstream-client.ts';
import type { Upstream } from '../src/kube/upstream.ts';
import { ensureCrds, readCrdFiles } from '../src/kube/ensure-crds.ts';
import { CRDS_DIR } from '../src/warren.ts';
import { startInformer } from '../src/kube/informer.ts';
import { LineSplitter } from '../src/kube/line-splitter.ts';
import type { KubeObject } from '../src/core/types.ts';
import type { Work } from '../src/core/propagation/karmada-types.ts';
import { workView } from '../src/controllers/propagation/work-view.ts';
import { memberView } from '../src/controllers/propagation/member-view.ts';
import { runConcurrent } from './load.ts';
import { startEmbedded } from './targets/targets.ts';

interface Sample { method: string; path: string; headers?: Record<string, string>; body?: KubeObject }
type Samples = Record<string, Sample>;

const NS = 'costs';
const METADATA_ONLY = { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1, application/json' };

/** The sample's request, in this bench's namespace and under another name. */
function rename(sample: Sample, name: string): { path: string; body: KubeObject } {
  const body = structuredClone(sample.body) as KubeObject;
  body.metadata = { ...body.metadata, name, namespace: NS };
  delete body.metadata.resourceVersion;
  delete body.metadata.uid;
  // Nothing here owns it (the embedded apiserver's collector would act on a dangling owner).
  delete body.metadata.ownerReferences;
  const path = sample.path.replace(/\/namespaces\/[^/]+/, `/namespaces/${NS}`).replace(/\/(works|deployments|resourcebindings)\/[^/?]+/, `/$1/${encodeURIComponent(name)}`);
  return { path, body };
}

function find(samples: Samples, key: string): Sample {
  const hit = Object.entries(samples).find(([k]) => k === key);
  if (!hit) throw new Error(`no sample "${key}" (have: ${Object.keys(samples).join('; ')})`);
  return hit[1];
}

const cpuMs = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

async function timed(n: number, task: (i: number) => Promise<void>): Promise<number> {
  const before = cpuMs();
  await runConcurrent(8, n, task);
  return ((cpuMs() - before) * 1000) / n;
}

function must(res: { status: number; body: unknown }, ...ok: number[]): void {
  if (!ok.includes(res.status)) throw new Error(`status ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
}

/** The writer child: `writer KUBECONFIG SAMPLES KIND N PREFIX`; its writes make the parent's informer events. */
async function writer(kubeconfigFile: string, samples: Samples, kind: string, n: number, prefix: string): Promise<void> {
  const client = createUpstream({ path: kubeconfigFile });
  if (kind === 'work') {
    const create = find(samples, 'host POST /apis/work.karmada.io/v1alpha1/namespaces/X/works');
    const status = find(samples, 'host PUT /apis/work.karmada.io/v1alpha1/namespaces/X/works/X/status');
    await runConcurrent(8, n, async (i) => {
      const { path, body } = rename(create, `${prefix}-${i}`);
      const made = await client.request<Work>('POST', path, body, METADATA_ONLY);
      must(made, 201);
      const put = rename(status, `${prefix}-${i}`);
      put.body.metadata.resourceVersion = made.body.metadata.resourceVersion;
      must(await client.request('PUT', put.path, put.body, METADATA_ONLY), 200);
    });
  } else {
    const apply = find(samples, 'member PATCH /apis/apps/v1/namespaces/X/deployments/X');
    await runConcurrent(8, n, async (i) => {
      const { path, body } = rename(apply, `${prefix}-${i}`);
      must(await client.request('PATCH', path, body, apply.headers), 200, 201);
    });
  }
  client.close();
}

/**
 * The floor of any watch transport: the same events read from a bare TLS socket (chunked framing, lines,
 * JSON.parse and the Work view, nothing else), for what a leaner watch client than node:https could save.
 */
async function rawWorkWatch(client: Upstream, over: 'tls' | 'https', onEvent: (name: string) => void): Promise<{ stop(): void }> {
  const listed = await client.request<{ metadata: { resourceVersion: string } }>('GET', `/apis/work.karmada.io/v1alpha1/namespaces/${NS}/works?limit=1`);
  const handle = (splitter: LineSplitter, bytes: Uint8Array): void => {
    for (const line of splitter.push(bytes)) onEvent(workView((JSON.parse(line) as { object: Work }).object).metadata.name ?? '');
  };
  if (over === 'https') {
    // node:https's stream (the informer's transport) with nothing of the informer: what node:https costs per event.
    const res = await client.stream(`/apis/work.karmada.io/v1alpha1/namespaces/${NS}/works?watch=1&resourceVersion=${listed.body.metadata.resourceVersion}`);
    const splitter = new LineSplitter();
    res.on('data', (chunk: Buffer) => handle(splitter, chunk));
    return { stop: () => res.destroy() };
  }
  const opts = client.requestOptions() as { ca?: string; cert?: string; key?: string };
  const url = new URL(client.server);
  const socket = tls.connect({ host: url.hostname, port: Number(url.port), ca: opts.ca, cert: opts.cert, key: opts.key, servername: undefined });
  socket.write(`GET /apis/work.karmada.io/v1alpha1/namespaces/${NS}/works?watch=1&resourceVersion=${listed.body.metadata.resourceVersion} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: application/json\r\n\r\n`);
  let buf: Buffer = Buffer.alloc(0);
  let headDone = false;
  const splitter = new LineSplitter();
  socket.on('data', (chunk: Buffer) => {
    buf = buf.length > 0 ? Buffer.concat([buf, chunk]) : chunk;
    if (!headDone) {
      const at = buf.indexOf('\r\n\r\n');
      if (at < 0) return;
      headDone = true;
      buf = buf.subarray(at + 4);
    }
    for (;;) {
      const eol = buf.indexOf('\r\n');
      if (eol < 0) return;
      const size = parseInt(buf.toString('latin1', 0, eol), 16);
      if (buf.length < eol + 2 + size + 2) return;
      handle(splitter, buf.subarray(eol + 2, eol + 2 + size));
      buf = buf.subarray(eol + 2 + size + 2);
    }
  });
  return { stop: () => socket.destroy() };
}

/** Runs the writer child and returns this process's CPU per event the informer received meanwhile. */
async function watchCost(kubeconfigFile: string, samplesFile: string, client: Upstream, kind: 'work' | 'work-raw' | 'work-https' | 'member', n: number, prefix: string): Promise<{ usPerEvent: number; events: number }> {
  let events = 0;
  const informer = kind === 'work-raw' || kind === 'work-https'
    ? await rawWorkWatch(client, kind === 'work-raw' ? 'tls' : 'https', (name) => { if (name.startsWith(prefix)) events++; })
    : startInformer<KubeObject>({
      upstream: client,
      listPath: kind === 'work' ? `/apis/work.karmada.io/v1alpha1/namespaces/${NS}/works` : `/apis/apps/v1/namespaces/${NS}/deployments`,
      transform: kind === 'work' ? (w) => workView(w as Work) : memberView,
      onEvent: (_type, obj) => { if (obj.metadata.name?.startsWith(prefix)) events++; },
    });
  if (kind === 'work-raw' || kind === 'work-https') await new Promise((r) => setTimeout(r, 500));
  else await (informer as unknown as { synced(): Promise<void> }).synced();
  const expected = kind === 'member' ? n : 2 * n;
  const before = cpuMs();
  const child = fork(fileURLToPath(import.meta.url), ['writer', kubeconfigFile, samplesFile, kind === 'member' ? 'member' : 'work', String(n), prefix], { execArgv: ['--import', 'tsx'] });
  const exited = new Promise<void>((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}`)))));
  await exited;
  const deadline = Date.now() + 120_000;
  while (events < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const used = cpuMs() - before;
  informer.stop();
  return { usPerEvent: (used * 1000) / events, events };
}

async function main(): Promise<void> {
  const [samplesFile, nArg, roundsArg] = process.argv.slice(2);
  if (!samplesFile) throw new Error('usage: propagation-costs.ts SAMPLES.json [n] [rounds]');
  const samples = JSON.parse(readFileSync(samplesFile, 'utf8')) as Samples;
  const n = Number(nArg ?? 2000);
  const rounds = Number(roundsArg ?? 2);
  const server = await startEmbedded({ repoRoot: join(fileURLToPath(import.meta.url), '../..') });
  const kubeconfigFile = join(server.dataDir, 'kubeconfig');
  const client = createUpstream({ path: kubeconfigFile });
  try {
    await ensureCrds(client, readCrdFiles(CRDS_DIR));
    must(await client.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }), 201, 409);
    const workCreate = find(samples, 'host POST /apis/work.karmada.io/v1alpha1/namespaces/X/works');
    const workStatus = find(samples, 'host PUT /apis/work.karmada.io/v1alpha1/namespaces/X/works/X/status');
    const apply = find(samples, 'member PATCH /apis/apps/v1/namespaces/X/deployments/X');
    const bindingCreate = find(samples, 'host POST /apis/work.karmada.io/v1alpha2/namespaces/X/resourcebindings');
    const bindingStatus = Object.entries(samples).filter(([k]) => k === 'host PUT /apis/work.karmada.io/v1alpha2/namespaces/X/resourcebindings/X/status').map(([, s]) => s)[0];
    const size = (s: Sample): number => Buffer.byteLength(JSON.stringify(s.body));
    console.log(`bodies: Work ${size(workCreate)} B, Work status ${size(workStatus)} B, member apply ${size(apply)} B, binding ${size(bindingCreate)} B`);
    for (let round = 1; round <= rounds; round++) {
      const p = `r${round}`;
      const rv = new Map<number, string>();
      const row: Array<[string, number]> = [];
      if (!process.env.COSTS_WATCH_ONLY) {
      row.push(['Work POST (metadata answer)', await timed(n, async (i) => {
        const { path, body } = rename(workCreate, `${p}-w-${i}`);
        const res = await client.request<Work>('POST', path, body, workCreate.headers);
        must(res, 201);
        rv.set(i, res.body.metadata.resourceVersion ?? '');
      })]);
      row.push(['Work status PUT (metadata answer)', await timed(n, async (i) => {
        const { path, body } = rename(workStatus, `${p}-w-${i}`);
        body.metadata.resourceVersion = rv.get(i);
        must(await client.request('PUT', path, body, workStatus.headers), 200);
      })]);
      row.push(['member apply PATCH (whole answer)', await timed(n, async (i) => {
        const { path, body } = rename(apply, `${p}-d-${i}`);
        must(await client.request('PATCH', path, body, apply.headers), 200, 201);
      })]);
      row.push(['member apply PATCH (metadata answer)', await timed(n, async (i) => {
        const { path, body } = rename(apply, `${p}-m-${i}`);
        must(await client.request('PATCH', path, body, { ...apply.headers, ...METADATA_ONLY }), 200, 201);
      })]);
      if (bindingStatus) {
        const brv = new Map<number, string>();
        await runConcurrent(8, 2 * n, async (i) => {
          const { path, body } = rename(bindingCreate, `${p}-b-${i}`);
          const res = await client.request<KubeObject>('POST', path, body);
          must(res, 201);
          brv.set(i, res.body.metadata.resourceVersion ?? '');
        });
        for (const [label, headers, offset] of [['binding status PUT (whole answer)', {}, 0], ['binding status PUT (metadata answer)', METADATA_ONLY, n]] as const) {
          row.push([label, await timed(n, async (i) => {
            const { path, body } = rename(bindingStatus, `${p}-b-${i + offset}`);
            body.metadata.resourceVersion = brv.get(i + offset);
            must(await client.request('PUT', path, body, headers), 200);
          })]);
        }
      }
      }
      const works = await watchCost(kubeconfigFile, samplesFile, client, 'work', n, `${p}-ww`);
      row.push([`Work watch event (ADDED, MODIFIED; ${works.events} received)`, works.usPerEvent]);
      const https = await watchCost(kubeconfigFile, samplesFile, client, 'work-https', n, `${p}-wh`);
      row.push([`Work watch event, node:https stream without the informer (${https.events} received)`, https.usPerEvent]);
      const raw = await watchCost(kubeconfigFile, samplesFile, client, 'work-raw', n, `${p}-wr`);
      row.push([`Work watch event, bare TLS socket: the floor (${raw.events} received)`, raw.usPerEvent]);
      const copies = await watchCost(kubeconfigFile, samplesFile, client, 'member', n, `${p}-mw`);
      row.push([`member copy watch event (ADDED; ${copies.events} received)`, copies.usPerEvent]);
      console.log(`round ${round} (n=${n}), client CPU per item:`);
      for (const [label, us] of row) console.log(`  ${us.toFixed(0).padStart(6)} µs  ${label}`);
    }
  } finally {
    client.close();
    await server.stop();
  }
}

if (process.argv[2] === 'writer') {
  const [, kubeconfigFile, samplesFile, kind, n, prefix] = process.argv.slice(2) as [string, string, string, string, string, string];
  await writer(kubeconfigFile, JSON.parse(readFileSync(samplesFile, 'utf8')) as Samples, kind, Number(n), prefix);
} else {
  await main();
}
