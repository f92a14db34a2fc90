// What the memory store hands to a durability layer before it applies a write.
import type { StoreEventType } from './store.ts';

export interface WriteRecord {
  type: StoreEventType;
  resource: string;
  namespace: string;
  name: string;
  revision: number;
  /** The stored object (ADDED, MODIFIED); absent for DELETED, whose last state the replay already holds. */
  json?: string;
}

export interface Journal {
  /** Must make the record durable (to the configured degree) before returning, or throw: the write is then refused. */
  append(record: WriteRecord): void;
  /** Called after the write is applied in memory and delivered; a place to schedule compaction. */
  afterWrite?(): void;
  close(): Promise<void>;
}
