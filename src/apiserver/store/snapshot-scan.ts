// Reading a resource's keys in order as of an older revision: the live index
// merged with the history overlay (event-history.ts), so that continue tokens
// see one consistent snapshot however the data changed between pages.
import type { ListOptions } from './store.ts';
import type { SortedKeys } from './sorted-keys.ts';
import { compareKeys } from './object-key.ts';

export interface Entry {
  json: string;
  revision: number;
}

export interface Table {
  entries: Map<string, Entry>;
  keys: SortedKeys;
}

/**
 * Yields [key, json] in key order, as of the revision the overlay was taken at: the current index,
 * with keys written since replaced by their older state (overlay value) or hidden (null).
 */
export function* scanSnapshot(
  table: Table | undefined,
  overlay: Map<string, string | null> | undefined,
  options: Pick<ListOptions, 'namespace' | 'after'>,
): Generator<[string, string]> {
  const prefix = options.namespace ? `${options.namespace}/` : undefined;
  const after = options.after;
  const inRange = (key: string): boolean =>
    (prefix === undefined || key.startsWith(prefix)) && (after === undefined || compareKeys(key, after) > 0);
  // Keys that existed then but are gone now are not in the index: merge them in, in order.
  const gone = overlay
    ? [...overlay].filter(([k, v]) => v !== null && !table?.entries.has(k) && inRange(k)).map(([k]) => k).sort(compareKeys)
    : [];
  // Start at the later of the namespace's first key and the key after `after`.
  let start: string | undefined = prefix;
  let exclusive = false;
  if (after !== undefined && (start === undefined || compareKeys(after, start) >= 0)) {
    start = after;
    exclusive = true;
  }
  const keys = table?.keys.from(start, exclusive);
  let current = nextInRange(keys, prefix);
  let j = 0;
  while (true) {
    const old = gone[j];
    if (current === undefined && old === undefined) return;
    if (old !== undefined && (current === undefined || compareKeys(old, current) < 0)) {
      j++;
      yield [old, overlay?.get(old) ?? ''];
      continue;
    }
    const key = current as string;
    current = nextInRange(keys, prefix);
    const json = overlay?.has(key) ? overlay.get(key) : table?.entries.get(key)?.json;
    if (json !== null && json !== undefined) yield [key, json];
  }
}

/** The next key from the index, or undefined past the end or past the namespace. */
function nextInRange(keys: Generator<string> | undefined, prefix: string | undefined): string | undefined {
  const next = keys?.next();
  if (!next || next.done) return undefined;
  return prefix === undefined || next.value.startsWith(prefix) ? next.value : undefined;
}
