// The ordered key index of one resource, as a list of sorted chunks. A single
// sorted array made each insert into the middle a memmove of the whole array
// (70 µs per write at 100,000 keys, seconds to replay a log); chunks of at most
// 1,024 keys bound that, while lookups stay two binary searches.
import { compareKeys } from './object-key.ts';

const MAX_CHUNK = 1024;

export class SortedKeys {
  private chunks: string[][] = [];
  private count = 0;

  get length(): number {
    return this.count;
  }

  /** Index of the first chunk whose last key is >= key (> key when exclusive); chunks.length if none. */
  private chunkFor(key: string, exclusive: boolean): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = this.chunks[mid] ?? [];
      const c = compareKeys(chunk[chunk.length - 1] ?? '', key);
      if (c < 0 || (exclusive && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(key: string): void {
    if (this.chunks.length === 0) {
      this.chunks.push([key]);
      this.count = 1;
      return;
    }
    // Past every chunk's end: append to the last chunk (the common case when keys arrive in order).
    const ci = Math.min(this.chunkFor(key, false), this.chunks.length - 1);
    const chunk = this.chunks[ci] ?? [];
    const pos = lowerBound(chunk, key, false);
    if (chunk[pos] === key) return;
    chunk.splice(pos, 0, key);
    this.count++;
    if (chunk.length > MAX_CHUNK) this.chunks.splice(ci, 1, chunk.slice(0, chunk.length >>> 1), chunk.slice(chunk.length >>> 1));
  }

  remove(key: string): void {
    const ci = this.chunkFor(key, false);
    const chunk = this.chunks[ci];
    if (!chunk) return;
    const pos = lowerBound(chunk, key, false);
    if (chunk[pos] !== key) return;
    chunk.splice(pos, 1);
    this.count--;
    if (chunk.length === 0) this.chunks.splice(ci, 1);
  }

  /** Keys in order, starting at the first key >= `start` (> when exclusive), or at the beginning. */
  *from(start?: string, exclusive = false): Generator<string> {
    let ci = start === undefined ? 0 : this.chunkFor(start, exclusive);
    let pos = start === undefined ? 0 : lowerBound(this.chunks[ci] ?? [], start, exclusive);
    // Reads the live chunks: callers must not write while iterating (the store is single-threaded and lists synchronously).
    for (; ci < this.chunks.length; ci++, pos = 0) {
      const chunk = this.chunks[ci] ?? [];
      for (; pos < chunk.length; pos++) yield chunk[pos] as string;
    }
  }
}

function lowerBound(keys: string[], key: string, exclusive: boolean): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareKeys(keys[mid] ?? '', key);
    if (c < 0 || (exclusive && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
