// The spec hashes of the engine's own Work writes, so the informer does not hash
// the same spec again when the write comes back as a watch event (issue 18: the
// canonical hash of a whole manifest, once per Work ADDED, was about a third of
// the Work view's cost per applied pair). Keyed by the resourceVersion the
// server gave the write: an event at that version is the stored copy the write
// answered with, so its spec is the one hashed; an event at any other version
// (someone else's write, or the event that beat the answer) is hashed as before.
/** Entries left by events that arrived before their write's answer go when the table is full. */
const MAX_ENTRIES = 50_000;

export interface WrittenSpecHashes {
  /** The engine wrote this spec (hash) and the server stored it at this resourceVersion. */
  remember(key: string, resourceVersion: string | undefined, hash: string): void;
  /** The hash of the spec stored at this version, if the engine wrote it; the entry is used up. */
  take(key: string, resourceVersion: string | undefined): string | undefined;
  size(): number;
}

export function createWrittenSpecHashes(maxEntries = MAX_ENTRIES): WrittenSpecHashes {
  let table = new Map<string, { resourceVersion: string; hash: string }>();
  return {
    remember(key, resourceVersion, hash) {
      if (!resourceVersion) return;
      if (table.size >= maxEntries) table = new Map();
      table.set(key, { resourceVersion, hash });
    },
    take(key, resourceVersion) {
      const entry = table.get(key);
      if (entry === undefined) return undefined;
      table.delete(key); // any event for the key retires it: a later version is not this write
      return resourceVersion !== undefined && entry.resourceVersion === resourceVersion ? entry.hash : undefined;
    },
    size: () => table.size,
  };
}
