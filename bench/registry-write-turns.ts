// CPU of each synchronous step of the embedded registry's update of the largest accepted
// ConfigMap, run in turns (write-turns.ts) against run at once: the longest step is what a
// neighbour's request can wait behind inside the upstream (issue 13, break 5). CPU time
// (process.cpuUsage), so that the shared machine's load moves it less than wall time.
// Run: node --import tsx bench/registry-write-turns.ts
import { MemoryStore } from '../src/apiserver/store/memory-store.ts';
import { ResourceCatalog } from '../src/apiserver/registry/catalog.ts';
import { Registry } from '../src/apiserver/registry/registry.ts';
import { createDefaultStrategy } from '../src/apiserver/registry/default-strategy.ts';
import { ensureSystemObjects } from '../src/apiserver/builtin-controllers/namespace-bootstrap.ts';
import { yieldToLoop } from '../src/http/yield-to-loop.ts';
import type { KubeObject } from '../src/core/types.ts';

function largest(variant: number): KubeObject {
  const labels: Record<string, string> = {};
  const data: Record<string, string> = {};
  for (let i = 0; i < 10_000; i++) {
    labels[`k${i.toString(36)}`] = 'v';
    if (i < 9_000) data[`d${i.toString(36)}`] = (i === 0 ? String(variant) : 'x').repeat(100);
  }
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'heavy', labels }, data };
}

const cpuMs = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

const store = new MemoryStore();
const registry = new Registry({ store, catalog: new ResourceCatalog(), strategy: createDefaultStrategy(store) });
ensureSystemObjects(registry);
const cm = registry.lookup('', 'v1', 'configmaps');
if (!cm) throw new Error('no configmaps');
registry.create(cm, 'default', largest(0));
const whole: number[] = [];
const longest: number[] = [];
const steps: number[] = [];
for (let i = 1; i <= 12; i++) {
  const body = largest(i % 2);
  let t = cpuMs();
  const t0 = t;
  registry.update(cm, 'default', 'heavy', largest((i + 1) % 2));
  whole.push(cpuMs() - t0);
  let most = 0;
  let count = 0;
  t = cpuMs();
  await registry.updateInTurns(cm, 'default', 'heavy', body, {}, async () => {
    most = Math.max(most, cpuMs() - t);
    count++;
    await yieldToLoop();
    t = cpuMs();
  });
  most = Math.max(most, cpuMs() - t);
  longest.push(most);
  steps.push(count + 1);
}
process.stdout.write(`update at once: median ${median(whole).toFixed(1)} ms CPU; in turns: ${String(median(steps))} steps, longest step median ${median(longest).toFixed(1)} ms CPU (max ${Math.max(...longest).toFixed(1)})\n`);

/** Each step's CPU of one write in turns: what a neighbour can wait behind, step by step. */
async function stepsOf(write: (between: () => Promise<void>) => Promise<unknown>): Promise<number[]> {
  const each: number[] = [];
  let t = cpuMs();
  await write(async () => {
    each.push(cpuMs() - t);
    await yieldToLoop();
    t = cpuMs();
  });
  each.push(cpuMs() - t);
  return each;
}

// A forced server-side apply of the largest body by a second manager, then by the first again:
// the apply's patch phase and validate were single steps (session 9: 70-180 and 220-510 ms at load 30).
const applied: number[][] = [];
for (let i = 1; i <= 6; i++) {
  const manager = i % 2 === 0 ? 'one' : 'two';
  applied.push(await stepsOf((between) => registry.patchInTurns(cm, 'default', 'heavy', { type: 'apply', body: largest(i % 2) }, { fieldManager: manager, force: true }, between)));
}
const longestApplied = applied.map((each) => Math.max(...each));
process.stdout.write(`forced apply in turns: ${String(median(applied.map((a) => a.length)))} steps, longest step median ${median(longestApplied).toFixed(1)} ms CPU (max ${Math.max(...longestApplied).toFixed(1)}); per step, last run: ${applied.at(-1)?.map((x) => x.toFixed(0)).join(', ') ?? ''}\n`);
