// The paced propagation scenario: templates written at a steady rate, open
// loop (each write leaves at its due time whether or not the previous ones
// have been answered), so a template's latency is its own trip through the
// engine and not its place in a backlog. Karmada's published distribution
// latency comes from such a load (ClusterLoader2, tuningSet qps 0.1 for its
// Deployments); the burst scenario, all at once, measures throughput instead.
import { percentile } from './stats.ts';
import type { BenchClient } from './http-client.ts';
import type { PropagationStack } from './propagation-stack.ts';
import { nowMs, watchArrivals, watchFirst } from './propagation-watch.ts';
import type { PropagationRow } from './propagation-report.ts';
import { latenciesOf, writeTemplate, type Placed } from './propagation-templates.ts';

export interface PacedOptions {
  count: number;
  /** Templates per second. */
  rate: number;
  /** Time allowed after the last write for everything to arrive. */
  drainMs: number;
  /** The goal is judged on this scenario's per-template p99 (issue 5: under 1 s at 1,000 templates). */
  goal: boolean;
  log(m: string): void;
}

export interface PacedResult {
  rows: PropagationRow[];
  notes: string[];
  /** Per-template p99 (write -> applied on every member), NaN if some never arrived. */
  p99: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function pacedLabel(count: number, rate: number): string {
  return `${count.toLocaleString('en-US')} templates paced at ${rate}/s`;
}

export async function pacedScenario(p: PropagationStack, memberClients: BenchClient[], a: Placed, options: PacedOptions): Promise<PacedResult> {
  const { count, rate } = options;
  const label = pacedLabel(count, rate);
  const names = Array.from({ length: count }, (_, i) => `paced-${String(i).padStart(5, '0')}`);
  const members = memberClients.length;
  const arrivals = await watchArrivals(memberClients, a.upstreamNs);
  // Karmada names a binding <name>-<kind>: the split between detector/scheduler and executor.
  const scheduled = await watchFirst([p.host], `/apis/work.karmada.io/v1alpha2/namespaces/${a.upstreamNs}/resourcebindings?watch=true&timeoutSeconds=900`,
    (_type, obj) => (obj.spec?.clusters?.length ?? 0) > 0);
  const written = new Map<string, number>();
  const writeMs: number[] = [];
  const notes: string[] = [];
  try {
    const period = 1000 / rate;
    const start = nowMs();
    const inflight: Array<Promise<void>> = [];
    let lateWrites = 0;
    for (let i = 0; i < count; i++) {
      const wait = start + i * period - nowMs();
      if (wait > 1) await sleep(wait);
      else if (wait < -period) lateWrites++;
      const name = names[i] as string;
      inflight.push(writeTemplate(p.host, a, name).then((t) => {
        written.set(name, t);
        writeMs.push(nowMs() - t);
      }));
    }
    await Promise.all(inflight);
    const writeSeconds = (nowMs() - start) / 1000;
    options.log(`propagation: ${label}: ${written.size} written in ${writeSeconds.toFixed(1)} s, write p99 ${percentile(writeMs, 99).toFixed(0)} ms`);
    if (lateWrites > 0) notes.push(`${label}: ${lateWrites} writes left more than one period late (the bench process could not keep the pace)`);
    let complete = true;
    try {
      await arrivals.waitForAll(names, options.drainMs);
    } catch {
      complete = false;
      const missing = count * members - arrivals.at.reduce((n, m) => n + m.size, 0);
      notes.push(`${label}: ${missing} of ${count * members} (member, object) pairs were not applied ${options.drainMs / 1000} s after the last write; latencies are over what arrived`);
    }
    const { pairs, perTemplate } = latenciesOf(names, written, arrivals);
    const toBinding = names.map((n) => (scheduled.at[0]?.get(`${n}-deployment`) ?? NaN) - (written.get(n) ?? NaN)).filter((x) => !Number.isNaN(x));
    const p99 = complete ? percentile(perTemplate, 99) : NaN;
    options.log(`propagation: ${label}: per template p50 ${percentile(perTemplate, 50).toFixed(0)} ms, p99 ${percentile(perTemplate, 99).toFixed(0)} ms, max ${Math.max(...perTemplate).toFixed(0)} ms; scheduled p50 ${percentile(toBinding, 50).toFixed(0)} ms p99 ${percentile(toBinding, 99).toFixed(0)} ms`);
    const rows: PropagationRow[] = [
      { scenario: label, metric: 'template writes per second (open loop, achieved)', unit: '/s', value: written.size / writeSeconds },
      { scenario: label, metric: `(member, object) pairs applied, of ${count * members}`, unit: 'pairs', value: pairs.length },
      { scenario: label, metric: 'write -> binding scheduled, p50 (per template)', unit: 'ms', value: percentile(toBinding, 50) },
      { scenario: label, metric: 'write -> binding scheduled, p99 (per template)', unit: 'ms', value: percentile(toBinding, 99) },
      { scenario: label, metric: 'write -> applied on a member, p50 (per member, object)', unit: 'ms', value: percentile(pairs, 50) },
      { scenario: label, metric: 'write -> applied on a member, p99 (per member, object)', unit: 'ms', value: percentile(pairs, 99) },
      { scenario: label, metric: `write -> applied on all ${members} members, p50 (per template)`, unit: 'ms', value: percentile(perTemplate, 50) },
      { scenario: label, metric: `write -> applied on all ${members} members, p99 (per template)`, unit: 'ms', value: percentile(perTemplate, 99),
        ...(options.goal ? { goal: '< 1,000 ms', pass: complete && p99 < 1_000 } : {}) },
      { scenario: label, metric: `write -> applied on all ${members} members, max (per template)`, unit: 'ms', value: perTemplate.length > 0 ? Math.max(...perTemplate) : NaN },
    ];
    return { rows, notes, p99 };
  } finally {
    arrivals.close();
    scheduled.close();
  }
}
