// `node --import tsx bench/profile-summary.ts FILE.cpuprofile [N]`: where a
// server's CPU time went, from a V8 profile written by --cpu-prof (see
// `npm run bench -- --profile`): self time per function, and the total
// ("inclusive") time of the top frames, so one can see both the hot leaf and
// which handler called it.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface FrameTime {
  frame: string;
  selfMs: number;
  totalMs: number;
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^file:\/\//, '').replace(/^.*\/(src|node_modules)\//, '$1/');
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
}

/** Self and inclusive milliseconds per frame name (recursion counted once per sample). */
export function summarise(profile: Profile): FrameTime[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id);
    if (!node) return;
    const name = frameName(node);
    self.set(name, (self.get(name) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = byId.get(at);
      if (!n) break;
      const frame = frameName(n);
      if (seen.has(frame)) continue;
      seen.add(frame);
      total.set(frame, (total.get(frame) ?? 0) + ms);
    }
  });
  return [...total.entries()].map(([frame, totalMs]) => ({ frame, selfMs: self.get(frame) ?? 0, totalMs }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, n = '25'] = process.argv.slice(2);
  if (!file) {
    console.error('usage: profile-summary.ts FILE.cpuprofile [N]');
    process.exit(2);
  }
  const rows = summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile);
  const all = rows.reduce((a, r) => a + r.selfMs, 0);
  const show = (title: string, key: 'selfMs' | 'totalMs'): void => {
    console.log(`\n${title} (of ${all.toFixed(0)} ms sampled)`);
    for (const r of [...rows].sort((a, b) => b[key] - a[key]).slice(0, Number(n))) {
      console.log(`${r[key].toFixed(0).padStart(7)} ms ${((r[key] / all) * 100).toFixed(1).padStart(5)}%  ${r.frame}`);
    }
  };
  show('self time', 'selfMs');
  show('inclusive time', 'totalMs');
}
