// Dot paths such as ".spec.replicas", as CRD scale subresources name their fields.
import type { KubeObject } from '../../core/types.ts';

function segments(path: string): string[] {
  return path.replace(/^\./, '').split('.').filter(Boolean);
}

export function readPath(obj: unknown, path: string): unknown {
  let cursor: unknown = obj;
  for (const segment of segments(path)) {
    if (!cursor || typeof cursor !== 'object') return undefined;
    cursor = (cursor as Record<string, unknown>)[segment];
  }
  return cursor;
}

/** Returns a copy of obj with the value at path set, creating objects on the way. */
export function writePath(obj: KubeObject, path: string, value: unknown): KubeObject {
  const parts = segments(path);
  const copy = structuredClone(obj);
  let cursor: Record<string, unknown> = copy;
  parts.forEach((segment, i) => {
    if (i === parts.length - 1) cursor[segment] = value;
    else {
      const next = cursor[segment];
      if (!next || typeof next !== 'object') cursor[segment] = {};
      cursor = cursor[segment] as Record<string, unknown>;
    }
  });
  return copy;
}
