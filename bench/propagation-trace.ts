// Where one template's time goes, under a paced load: `node --import tsx
// bench/propagation-trace.ts [rate=10] [count=300] [members=10]` starts the
// propagation bench's stack, writes templates at a steady rate, and times each
// template's milestones from its write, seen from outside the engine: its
// binding (created, Scheduled), its Works (first and last created, last
// Applied), its member copies (first and last), the binding's FullyApplied.
// A diagnostic for engine work, not a suite: prints percentiles, writes nothing.
import { readdirSync, readlinkSync } from 'node:fs';
import { cpuMeter } from './process-cpu.ts';
import { tmpdir } from 'node:os';
import { percentile } from './stats.ts';
import { clientFromKubeconfig, type BenchClient } from './http-client.ts';
import { startPropagationStack } from './propagation-stack.ts';
import { nowMs, streamWatchEvents } from './propagation-watch.ts';
import { placeTenant, probe, writeTemplate } from './propagation-templates.ts';

interface Obj { metadata?: { name?: string; namespace?: string; annotations?: Record<string, string> }; status?: { conditions?: Array<{ type: string; status: string }> }; spec?: { clusters?: unknown[] } }

const [rate = 10, count = 300, memberCount = 10] = process.argv.slice(2).map(Number);
const repoRoot = new URL('..', import.meta.url).pathname;
const log = (m: string): void => void process.stderr.write(`${m}\n`);

/** Streams every event of a watch to `on`, stamped with its arrival time. */
async function watchEvents(client: BenchClient, path: string, on: (type: string, obj: Obj, t: number) => void): Promise<() => void> {
  return await streamWatchEvents<Obj>(client, path, (type, obj, t) => { if (obj) on(type, obj, t); });
}

const milestones = new Map<string, Map<string, number[]>>(); // template -> milestone -> times
function mark(template: string, milestone: string, t: number): void {
  let m = milestones.get(template);
  if (!m) milestones.set(template, (m = new Map()));
  const list = m.get(milestone) ?? [];
  list.push(t);
  m.set(milestone, list);
}
const hasCondition = (o: Obj, type: string): boolean => o.status?.conditions?.some((c) => c.type === type && c.status === 'True') === true;

/** Open sockets of a process (its connections to the host and members, watches included). */
function socketCount(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).filter((fd) => { try { return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:'); } catch { return false; } }).length;
}

// TRACE_PROFILE=1: the engine process (warren serve) writes a CPU profile to $TMPDIR/warren-trace-profiles.
// TRACE_PROFILE_HOST=1: the host apiserver does too (its own subdirectory, host/).
const engineNodeFlags = process.env.TRACE_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${tmpdir()}/warren-trace-profiles`] : [];
const hostNodeFlags = process.env.TRACE_PROFILE_HOST ? ['--cpu-prof', `--cpu-prof-dir=${tmpdir()}/warren-trace-profiles/host`] : [];
// TRACE_PROFILE_MEMBER=1: member1 does too (member1/).
const firstMemberNodeFlags = process.env.TRACE_PROFILE_MEMBER ? ['--cpu-prof', `--cpu-prof-dir=${tmpdir()}/warren-trace-profiles/member1`] : [];
const p = await startPropagationStack({ repoRoot, members: memberCount, engineNodeFlags, hostNodeFlags, firstMemberNodeFlags, log });
const memberClients = p.members.map((m) => clientFromKubeconfig(m.kubeconfig, 2));
const closers: Array<() => void> = [];
try {
  const [a, b] = [await p.stack.createTenant('trace-a'), await p.stack.createTenant('trace-b')];
  const pb = await placeTenant(p, b, 'probes');
  const pa = await placeTenant(p, a, 'load');
  log(`idle probe ${(await probe(p.host, memberClients, pb, 'probe-idle', 60_000)).toFixed(0)} ms`);
  log(`idle probe 2 ${(await probe(p.host, memberClients, pb, 'probe-idle-2', 60_000)).toFixed(0)} ms`);
  const seen = new Set<string>();
  const once = (template: string, milestone: string, t: number): void => {
    const k = `${template}|${milestone}`;
    if (seen.has(k)) return;
    seen.add(k);
    mark(template, milestone, t);
  };
  const watchers = [
    watchEvents(p.host, `/apis/work.karmada.io/v1alpha2/namespaces/${pa.upstreamNs}/resourcebindings?watch=true`, (type, o, t) => {
      const tpl = (o.metadata?.name ?? '').replace(/-deployment$/, '');
      mark(tpl, 'binding events', t);
      once(tpl, 'binding created', t);
      if (hasCondition(o, 'Scheduled')) once(tpl, 'binding Scheduled', t);
      if (hasCondition(o, 'FullyApplied')) once(tpl, 'binding FullyApplied', t);
      void type;
    }),
    watchEvents(p.host, '/apis/work.karmada.io/v1alpha1/works?watch=true', (type, o, t) => {
      const tpl = (o.metadata?.annotations?.['resourcebinding.karmada.io/name'] ?? '').replace(/-deployment$/, '');
      const cluster = o.metadata?.namespace ?? '';
      if (type === 'ADDED') mark(tpl, 'work created', t);
      if (hasCondition(o, 'Applied')) once(`${tpl}`, `applied ${cluster}`, t);
      mark(tpl, 'work events', t);
    }),
    ...memberClients.map((c) => watchEvents(c, `/apis/apps/v1/namespaces/${pa.upstreamNs}/deployments?watch=true`, (type, o, t) => {
      if (type === 'ADDED') mark(o.metadata?.name ?? '', 'member applied', t);
    })),
  ];
  closers.push(...(await Promise.all(watchers)));
  const written = new Map<string, number>();
  const names = Array.from({ length: count }, (_, i) => `trace-${String(i).padStart(5, '0')}`);
  const pids = { engine: p.stack.gateway.pid, host: p.stack.upstream.process.pid, members: p.members.map((m) => m.target.process.pid) };
  const cpu = cpuMeter({ engine: [pids.engine], host: [pids.host], members: pids.members });
  const socketsBefore = socketCount(pids.engine);
  const start = nowMs();
  const inflight: Array<Promise<void>> = [];
  for (let i = 0; i < count; i++) {
    const wait = start + (i * 1000) / rate - nowMs();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const name = names[i] as string;
    inflight.push(writeTemplate(p.host, pa, name).then((t) => void written.set(name, t)));
  }
  await Promise.all(inflight);
  const deadline = nowMs() + 60_000;
  while (nowMs() < deadline && !names.every((n) => (milestones.get(n)?.get('member applied')?.length ?? 0) >= memberCount && milestones.get(n)?.has('binding FullyApplied'))) {
    await new Promise((r) => setTimeout(r, 200));
  }
  await new Promise((r) => setTimeout(r, 2000)); // late status writes
  const used = cpu.read();
  const socketsAfter = socketCount(pids.engine);
  const wall = (nowMs() - start) / 1000;
  const rows: Array<[string, number[]]> = [];
  const pick = (f: (m: Map<string, number[]>, t: number) => number | undefined): number[] =>
    names.flatMap((n) => { const m = milestones.get(n); const t = written.get(n); const v = m && t !== undefined ? f(m, t) : undefined; return v === undefined || Number.isNaN(v) ? [] : [v]; });
  const first = (k: string) => (m: Map<string, number[]>, t: number) => (m.get(k) ? Math.min(...(m.get(k) as number[])) - t : undefined);
  const last = (k: string) => (m: Map<string, number[]>, t: number) => (m.get(k) ? Math.max(...(m.get(k) as number[])) - t : undefined);
  rows.push(['binding created', pick(first('binding created'))]);
  rows.push(['binding Scheduled', pick(first('binding Scheduled'))]);
  rows.push(['first Work created', pick(first('work created'))]);
  rows.push(['last Work created', pick(last('work created'))]);
  rows.push(['first member applied', pick(first('member applied'))]);
  rows.push(['last member applied', pick(last('member applied'))]);
  rows.push(['last Work Applied', pick((m, t) => { const ks = [...m.keys()].filter((k) => k.startsWith('applied ')); return ks.length ? Math.max(...ks.map((k) => (m.get(k) as number[])[0] as number)) - t : undefined; })]);
  rows.push(['binding FullyApplied', pick(first('binding FullyApplied'))]);
  rows.push(['last binding event', pick(last('binding events'))]);
  rows.push(['last work event', pick(last('work events'))]);
  const counts = (k: string): number[] => names.map((n) => milestones.get(n)?.get(k)?.length ?? 0);
  process.stdout.write(`\n${count} templates at ${rate}/s, ${memberCount} members\nmilestone (ms after write)   n     p50     p90     p99     max\n`);
  for (const [label, xs] of rows) {
    process.stdout.write(`${label.padEnd(26)} ${String(xs.length).padStart(4)} ${[50, 90, 99].map((q) => percentile(xs, q).toFixed(0).padStart(7)).join(' ')} ${Math.max(...xs).toFixed(0).padStart(7)}\n`);
  }
  // When the slow ones were written: one stall (a GC, a compaction, a neighbour's burst) or a steady queue.
  const lastApplied = last('member applied');
  const windows = new Map<number, number[]>();
  for (const n of names) {
    const t = written.get(n);
    const m = milestones.get(n);
    const v = t !== undefined && m ? lastApplied(m, t) : undefined;
    if (t === undefined || v === undefined) continue;
    const w = Math.floor((t - start) / 2000);
    windows.set(w, [...(windows.get(w) ?? []), v]);
  }
  process.stdout.write(`last member applied by write time (2 s windows, p50/max ms): ${[...windows].map(([w, xs]) => `${w * 2}s ${percentile(xs, 50).toFixed(0)}/${Math.max(...xs).toFixed(0)}`).join(', ')}\n`);
  const avg = (xs: number[]): string => (xs.reduce((s, x) => s + x, 0) / xs.length).toFixed(2);
  process.stdout.write(`CPU over ${wall.toFixed(0)} s (writes + drain): engine ${(used.engine ?? 0).toFixed(1)} s, host ${(used.host ?? 0).toFixed(1)} s, members ${(used.members ?? 0).toFixed(1)} s\n`);
  const pairs = names.reduce((n, name) => n + Math.min(memberCount, milestones.get(name)?.get('member applied')?.length ?? 0), 0);
  process.stdout.write(`CPU per applied (member, object) pair (${pairs} pairs): engine ${((used.engine ?? 0) * 1000 / pairs).toFixed(2)} ms, host ${((used.host ?? 0) * 1000 / pairs).toFixed(2)} ms, members ${((used.members ?? 0) * 1000 / pairs).toFixed(2)} ms\n`);
  process.stdout.write(`engine process (warren serve) peak RSS ${(p.stack.gateway.memory().peakKiB / 1024).toFixed(0)} MiB\n`);
  process.stdout.write(`engine sockets: ${socketsBefore} before the writes, ${socketsAfter} after\n`);
  process.stdout.write(`events per template: binding ${avg(counts('binding events'))}, work ${avg(counts('work events'))}, work ADDED ${avg(counts('work created'))}\n`);
} finally {
  for (const c of closers) c();
  for (const c of memberClients) c.close();
  await p.stop();
}
