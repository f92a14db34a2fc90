// The informer's cache: objects by key, plus optional secondary indexes
// (client-go's Indexer). Updating an index costs one index function call on the
// old object and one on the new, never a scan: one informer may hold 100k objects.
export type IndexFunc<T> = (obj: T) => string[];

export class IndexedStore<T> {
  readonly items = new Map<string, T>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  private readonly indices = new Map<string, Map<string, Set<string>>>();

  /** Stores obj under key and returns the object it replaced. */
  set(key: string, obj: T): T | undefined {
    const old = this.items.get(key);
    this.items.set(key, obj);
    for (const [name, fn] of this.indexers) {
      if (old !== undefined) this.unindex(name, fn(old), key);
      this.index(name, fn(obj), key);
    }
    return old;
  }

  /** Removes key and returns the object it held. */
  delete(key: string): T | undefined {
    const old = this.items.get(key);
    if (old === undefined) return undefined;
    this.items.delete(key);
    for (const [name, fn] of this.indexers) this.unindex(name, fn(old), key);
    return old;
  }

  addIndex(name: string, fn: IndexFunc<T>): void {
    if (this.indexers.has(name)) throw new Error(`index "${name}" already exists`);
    this.indexers.set(name, fn);
    this.indices.set(name, new Map());
    for (const [key, obj] of this.items) this.index(name, fn(obj), key);
  }

  byIndex(name: string, value: string): T[] {
    const index = this.indices.get(name);
    if (!index) throw new Error(`no index "${name}"`);
    const keys = index.get(value);
    if (!keys) return [];
    const out: T[] = [];
    for (const key of keys) {
      const obj = this.items.get(key);
      if (obj !== undefined) out.push(obj);
    }
    return out;
  }

  private index(name: string, values: string[], key: string): void {
    const index = this.indices.get(name);
    if (!index) return;
    for (const value of values) {
      let keys = index.get(value);
      if (!keys) index.set(value, (keys = new Set()));
      keys.add(key);
    }
  }

  private unindex(name: string, values: string[], key: string): void {
    const index = this.indices.get(name);
    if (!index) return;
    for (const value of values) {
      const keys = index.get(value);
      if (!keys) continue;
      keys.delete(key);
      // Empty sets would pile up as values come and go (namespaces, ids).
      if (keys.size === 0) index.delete(value);
    }
  }
}
