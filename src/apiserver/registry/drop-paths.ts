// Removes fields named by paths such as ".spec.template.spec.containers[0].bogus"
// from a copy of an object: what decoding into a typed struct does to unknown
// fields on a real apiserver.
import type { KubeObject } from '../../core/types.ts';

type Segment = string | number;

export function parseFieldPath(path: string): Segment[] {
  const out: Segment[] = [];
  const re = /\.([^.[\]]+)|\[(\d+)\]|\[([^\]]+)\]/g;
  let match: RegExpExecArray | null;
  while ((match = re.exec(path)) !== null) {
    if (match[1] !== undefined) out.push(match[1]);
    else if (match[2] !== undefined) out.push(Number(match[2]));
    else if (match[3] !== undefined) out.push(match[3]);
  }
  return out;
}

export function dropPaths(obj: KubeObject, paths: string[]): KubeObject {
  if (paths.length === 0) return obj;
  const copy = structuredClone(obj);
  for (const path of paths) {
    const segments = parseFieldPath(path);
    const last = segments.pop();
    if (last === undefined) continue;
    let cursor: unknown = copy;
    for (const segment of segments) {
      cursor = cursor && typeof cursor === 'object' ? (cursor as Record<string | number, unknown>)[segment] : undefined;
    }
    if (cursor && typeof cursor === 'object' && !Array.isArray(cursor)) delete (cursor as Record<string, unknown>)[String(last)];
  }
  return copy;
}
