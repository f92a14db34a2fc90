// A watch response, rewritten event by event. Upstream sends one JSON event per
// line, but chunk boundaries do not align with events (an event may span
// chunks, a chunk may hold many): bytes are buffered to the newline before
// parsing. Splitting on the byte 0x0A is safe for UTF-8, since no multi-byte
// character contains it, so a line is decoded only once it is whole.
import { Transform, type TransformCallback } from 'node:stream';
import { internalError } from '../../core/api-error.ts';
import { isObject, type KubeObject, type WatchEvent } from '../../core/types.ts';

export interface WatchTransformOptions {
  /** Every event goes through here, BOOKMARK and ERROR included; undefined drops it. */
  translateEvent: (event: WatchEvent) => WatchEvent | undefined;
  /**
   * Bytes the gateway will hold for one watch (unsent output, unprocessed
   * input, a partial line) before it cuts the client off. With pipe() the
   * source pauses long before this; the limit catches writers that ignore
   * backpressure and clients too slow for them. Default 16 MiB.
   */
  maxBufferedBytes?: number;
}

export type WatchEndReason = 'malformed' | 'overflow';

const EVENT_TYPES = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);
const NEWLINE = 0x0a;

export class WatchOverflowError extends Error {
  constructor(limit: number) {
    super(`watch client too slow: more than ${limit} bytes buffered`);
    this.name = 'WatchOverflowError';
  }
}

function parseEvent(line: string): WatchEvent | undefined {
  const value: unknown = JSON.parse(line);
  if (!isObject(value) || typeof value.type !== 'string' || !EVENT_TYPES.has(value.type) || !isObject(value.object)) return undefined;
  return { type: value.type as WatchEvent['type'], object: value.object as unknown as KubeObject };
}

/** What the client gets instead of a line we could not read: an ERROR event, as client-go expects when a watch fails. */
function decodeFailureLine(): string {
  const status = internalError('unable to decode an event from the watch stream').toStatus();
  return `${JSON.stringify({ type: 'ERROR', object: status })}\n`;
}

export class WatchTransform extends Transform {
  /** Why the stream ended early, if it did. */
  endReason: WatchEndReason | undefined;
  private readonly translateEvent: WatchTransformOptions['translateEvent'];
  private readonly maxBufferedBytes: number;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(options: WatchTransformOptions) {
    super();
    this.translateEvent = options.translateEvent;
    this.maxBufferedBytes = options.maxBufferedBytes ?? 16 * 1024 * 1024;
  }

  // Checked on write, not only in _transform: while the reader is slow, Node
  // holds our callback and queued writes never reach _transform.
  override write(chunk: unknown, encoding?: BufferEncoding | ((error?: Error | null) => void), callback?: (error?: Error | null) => void): boolean {
    const ok = super.write(chunk, encoding as BufferEncoding, callback);
    this.checkBuffered();
    return ok;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.endReason !== undefined) { callback(); return; }
    let out = '';
    let start = 0;
    let newline = chunk.indexOf(NEWLINE, start);
    while (newline >= 0) {
      const piece = chunk.subarray(start, newline);
      const line = this.pending.length === 0 ? piece : Buffer.concat([...this.pending, piece]);
      this.pending = [];
      this.pendingBytes = 0;
      const translated = this.translateLine(line);
      if (translated === undefined) return this.fail(out, callback);
      out += translated;
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
    }
    if (out) this.push(out);
    this.checkBuffered();
    callback();
  }

  // A last line without its newline means upstream was cut mid-event: it is
  // dropped (the client re-watches from its last resourceVersion), unless whole.
  override _flush(callback: TransformCallback): void {
    if (this.endReason === undefined && this.pendingBytes > 0) {
      try {
        const translated = this.translateLine(Buffer.concat(this.pending));
        if (translated) this.push(translated);
      } catch {
        // A truncated event: nothing to send.
      }
    }
    callback();
  }

  /** The output for one line ('' to drop or skip a blank line), or undefined when the line is malformed. */
  private translateLine(raw: Buffer): string | undefined {
    const line = raw.toString('utf8').trim(); // trim: upstream may frame with CRLF
    if (line === '') return '';
    let event: WatchEvent | undefined;
    try {
      event = parseEvent(line);
      if (event === undefined) return undefined;
      const translated = this.translateEvent(event);
      return translated === undefined ? '' : `${JSON.stringify(translated)}\n`;
    } catch {
      return undefined;
    }
  }

  /** Sends what was good, then the ERROR event, then ends: garbage is never forwarded. */
  private fail(out: string, callback: TransformCallback): void {
    this.endReason = 'malformed';
    this.pending = [];
    this.pendingBytes = 0;
    this.push(out + decodeFailureLine());
    this.push(null);
    callback();
  }

  private checkBuffered(): void {
    if (this.destroyed || this.endReason !== undefined) return;
    if (this.writableLength + this.readableLength + this.pendingBytes > this.maxBufferedBytes) {
      this.endReason = 'overflow';
      this.destroy(new WatchOverflowError(this.maxBufferedBytes));
    }
  }
}
