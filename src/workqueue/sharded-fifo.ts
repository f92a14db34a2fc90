// A FIFO split into shards (one per tenant) served round-robin: a tenant with
// 10,000 waiting keys gets one turn, then each other tenant with work gets
// one, so a single busy tenant cannot make another's one key wait behind it.
export class ShardedFifo {
  private readonly shards = new Map<string, string[]>();
  /** Shards with keys, in turn order; a shard is in it at most once. */
  private readonly turns: string[] = [];
  private size = 0;

  constructor(private readonly shardOf: (key: string) => string) {}

  push(key: string): void {
    const shard = this.shardOf(key);
    let keys = this.shards.get(shard);
    if (!keys) {
      keys = [];
      this.shards.set(shard, keys);
      this.turns.push(shard);
    }
    keys.push(key);
    this.size++;
  }

  shift(): string | undefined {
    const shard = this.turns.shift();
    if (shard === undefined) return undefined;
    const keys = this.shards.get(shard) ?? [];
    const key = keys.shift();
    if (keys.length > 0) this.turns.push(shard);
    else this.shards.delete(shard);
    if (key !== undefined) this.size--;
    return key;
  }

  get length(): number {
    return this.size;
  }
}
