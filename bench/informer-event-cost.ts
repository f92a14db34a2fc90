// What the informer's own handling of a watch event costs, with no network: `node --import tsx
// bench/informer-event-cost.ts SAMPLES.json [events=20000] [rounds=3]` (SAMPLES from bench/propagation-count.ts
// with COUNT_SAMPLES). The engine's Work informer (its view transform and its two indexes) reads Work events
// fed one per chunk from a stand-in stream; the "bare" row parses the same lines and builds the same views
// with nothing else (no store, no timers, no queue). Their difference is the informer's per-event overhead.
// CPU per event, this process only; a diagnostic, not a suite.
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { startInformer } from '../src/kube/informer.ts';
import { LineSplitter } from '../src/kube/line-splitter.ts';
import type { Upstream } from '../src/kube/upstream.ts';
import type { KubeObject } from '../src/core/types.ts';
import type { Work } from '../src/core/propagation/karmada-types.ts';
import { workView, type WorkView } from '../src/controllers/propagation/work-view.ts';

const [samplesFile, eventsArg, roundsArg] = process.argv.slice(2);
if (!samplesFile) throw new Error('usage: informer-event-cost.ts SAMPLES.json [events] [rounds]');
const samples = JSON.parse(readFileSync(samplesFile, 'utf8')) as Record<string, { body: Work }>;
const found = samples['host POST /apis/work.karmada.io/v1alpha1/namespaces/X/works']?.body;
if (!found) throw new Error('no Work create in the samples');
const sample: Work = found;
const N = Number(eventsArg ?? 20_000);
const ROUNDS = Number(roundsArg ?? 3);

/** A Work as the host stores it (uid, version, managedFields), as a watch event's line. */
function eventLine(i: number, type: 'ADDED' | 'MODIFIED'): string {
  const now = '2026-11-27T10:00:00Z';
  const work = {
    ...sample,
    metadata: {
      ...sample.metadata, name: `w-${i}`, uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, resourceVersion: String(1000 + 2 * i + (type === 'MODIFIED' ? 1 : 0)),
      generation: 1, creationTimestamp: now,
      managedFields: [{ manager: 'warren', operation: 'Update', apiVersion: 'work.karmada.io/v1alpha1', time: now, fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': {}, 'f:annotations': {} }, 'f:spec': { '.': {}, 'f:workload': {} } } }],
    },
    ...(type === 'MODIFIED' ? { status: { conditions: [{ type: 'Applied', status: 'True', reason: 'AppliedSuccessful', message: 'Manifest has been successfully applied', lastTransitionTime: now }] } } : {}),
  };
  return `${JSON.stringify({ type, object: work })}\n`;
}

const lines = Array.from({ length: N }, (_, i) => Buffer.from(eventLine(i >> 1, i % 2 === 0 ? 'ADDED' : 'MODIFIED')));
const cpuUs = (): number => { const u = process.cpuUsage(); return u.user + u.system; };
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Feeds the lines one per chunk, a turn of the loop between batches of 16 (as reads arrive). */
async function feed(push: (chunk: Buffer) => void): Promise<void> {
  for (let i = 0; i < lines.length; i++) {
    push(lines[i] as Buffer);
    if (i % 16 === 15) await turn();
  }
}

async function viaInformer(): Promise<number> {
  const stream = new Readable({ read() {} }) as Readable & { statusCode: number; headers: Record<string, string> };
  stream.statusCode = 200;
  stream.headers = {};
  let listed = false;
  const upstream: Upstream = {
    server: 'https://stand-in',
    requestOptions: () => ({}),
    request: async <T>() => {
      listed = true;
      return { status: 200, headers: {}, body: { apiVersion: 'work.karmada.io/v1alpha1', kind: 'WorkList', metadata: { resourceVersion: '1' }, items: [] } as T };
    },
    stream: async () => stream as unknown as IncomingMessage,
    close: () => undefined,
  };
  let seen = 0;
  const informer = startInformer<WorkView>({
    upstream, listPath: '/apis/work.karmada.io/v1alpha1/works', onEvent: () => { seen++; },
    transform: (w) => workView(w as unknown as Work),
  });
  // The engine's two indexes on Works: tenant and binding.
  informer.addIndex('tenant', (w) => { const t = w.metadata.labels?.['tenancy.warren.dev/tenant']; return t ? [t] : []; });
  informer.addIndex('binding', (w) => { const u = w.metadata.labels?.['resourcebinding.karmada.io/permanent-id']; return u ? [u] : []; });
  await informer.synced();
  if (!listed) throw new Error('the informer did not list');
  while (stream.listenerCount('data') === 0) await turn();
  const before = cpuUs();
  await feed((chunk) => stream.push(chunk));
  while (seen < N) await turn();
  const used = cpuUs() - before;
  informer.stop();
  return used / N;
}

async function bare(): Promise<number> {
  const kept = new Map<string, KubeObject>();
  const splitter = new LineSplitter();
  let seen = 0;
  const before = cpuUs();
  await feed((chunk) => {
    for (const line of splitter.push(chunk)) {
      const view = workView((JSON.parse(line) as { object: Work }).object);
      kept.set(`${view.metadata.namespace}/${view.metadata.name}`, view);
      seen++;
    }
  });
  const used = cpuUs() - before;
  if (seen !== N) throw new Error(`bare: ${seen} of ${N}`);
  return used / N;
}

console.log(`${N} Work events of ${lines[0]?.length} B (ADDED) and ${lines[1]?.length} B (MODIFIED), one per chunk`);
for (let round = 1; round <= ROUNDS; round++) {
  const a = await viaInformer();
  const b = await bare();
  console.log(`round ${round}: informer ${a.toFixed(1)} µs per event, bare ${b.toFixed(1)} µs per event`);
}
