// `node --max-old-space-size=6000 --import tsx bench/heap-summary.ts FILE.heapsnapshot [N]`:
// what a V8 heap snapshot holds, grouped so per-object costs show: objects by
// their first property names (a Work view's metadata, a condition, a Map's
// backing store each get their own row), strings by shape (digits and hex
// runs folded, so 100,000 uids are one row), and arrays, closures and code by
// V8's name. Self sizes only (no retained sizes): enough to say "N objects of
// this shape, B bytes each" and divide by the pairs the run applied.
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const [file, topArg, retainersOf] = process.argv.slice(2);
if (!file) {
  console.error('usage: bench/heap-summary.ts FILE.heapsnapshot [N] [GROUP: also who holds the objects of this row]');
  process.exit(2);
}
const top = Number(topArg ?? 40);
const snap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
const { meta } = snap.snapshot;
const nf = meta.node_fields.length;
const ef = meta.edge_fields.length;
const [typeAt, nameAt, sizeAt, edgeCountAt] = ['type', 'name', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f)) as [number, number, number, number];
const [edgeTypeAt, edgeNameAt, edgeToAt] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f)) as [number, number, number];
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const propertyEdge = edgeTypes.indexOf('property');

const groups = new Map<string, { count: number; bytes: number }>();
const add = (key: string, bytes: number): void => {
  const g = groups.get(key);
  if (g) {
    g.count++;
    g.bytes += bytes;
  } else groups.set(key, { count: 1, bytes });
};
const shapeOfString = (s: string): string => s.slice(0, 48).replace(/[0-9a-f]{8,}/g, 'H').replace(/\d+/g, 'N');

let total = 0;
let edgeIndex = 0;
const groupOf: string[] = [];
for (let i = 0; i < snap.nodes.length; i += nf) {
  const type = nodeTypes[snap.nodes[i + typeAt] as number] ?? '?';
  const name = snap.strings[snap.nodes[i + nameAt] as number] ?? '';
  const size = snap.nodes[i + sizeAt] as number;
  const edgeCount = snap.nodes[i + edgeCountAt] as number;
  total += size;
  if (type === 'object' && (name === 'Object' || name === 'Array')) {
    const props: string[] = [];
    for (let e = 0; e < edgeCount && props.length < 5; e++) {
      const at = (edgeIndex + e) * ef;
      if (snap.edges[at + edgeTypeAt] === propertyEdge) props.push(snap.strings[snap.edges[at + edgeNameAt] as number] ?? '');
    }
    groupOf.push(`${name} {${props.join(',')}}`);
  } else if (type === 'string' || type === 'concatenated string' || type === 'sliced string') {
    groupOf.push(`string "${shapeOfString(name)}"`);
  } else {
    groupOf.push(`${type} ${name.slice(0, 60)}`);
  }
  add(groupOf[groupOf.length - 1] as string, size);
  edgeIndex += edgeCount;
}
const rows = [...groups.entries()].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top);
const mib = (b: number): string => (b / 2 ** 20).toFixed(1);
console.log(`total self size ${mib(total)} MiB in ${(snap.nodes.length / nf).toLocaleString('en-US')} nodes`);
for (const [key, g] of rows) console.log(`${mib(g.bytes).padStart(8)} MiB ${String(g.count).padStart(9)} x ${(g.bytes / g.count).toFixed(0).padStart(6)} B  ${key}`);

// Who holds the objects of one row: the holder's row and the edge's name, counted over every edge into them.
if (retainersOf) {
  const holders = new Map<string, number>();
  let from = 0;
  let e = 0;
  for (let i = 0; i < snap.nodes.length; i += nf, from++) {
    const count = snap.nodes[i + edgeCountAt] as number;
    for (let k = 0; k < count; k++, e++) {
      const to = (snap.edges[e * ef + edgeToAt] as number) / nf;
      if (groupOf[to] !== retainersOf) continue;
      const edgeType = edgeTypes[snap.edges[e * ef + edgeTypeAt] as number];
      const edgeName = edgeType === 'element' || edgeType === 'hidden' ? `[${edgeType}]` : snap.strings[snap.edges[e * ef + edgeNameAt] as number];
      const key = `${groupOf[from]} .${edgeName}`;
      holders.set(key, (holders.get(key) ?? 0) + 1);
    }
  }
  console.log(`\nheld by (edges into "${retainersOf}"):`);
  for (const [key, n] of [...holders.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${String(n).padStart(9)}  ${key}`);
}
