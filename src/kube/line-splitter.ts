// Watch streams are newline-delimited JSON, but chunk boundaries do not align
// with events: a chunk may hold half an event, or several. Buffer to newline
// before parsing.
// A large event (a 1 MB object) comes in a hundred chunks: only each new chunk
// is searched for a newline, and the pieces of an unfinished line are joined
// once, when it ends. Before, every chunk re-split the whole pending text (a
// flattened copy of it each time): quadratic in the event's size, ~200 ms of
// the gateway's loop per 1.5 MB event (ADR 0026).
export class LineSplitter {
  private pending: string[] = [];
  private readonly decoder = new TextDecoder();

  /** The complete lines in this chunk (plus what was pending), without their newlines. */
  push(chunk: Uint8Array): string[] {
    // stream: true keeps a multi-byte character split across chunks intact.
    const text = this.decoder.decode(chunk, { stream: true });
    const lines: string[] = [];
    let start = 0;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', start)) {
      this.pending.push(text.slice(start, at));
      const line = this.pending.length === 1 ? (this.pending[0] ?? '') : this.pending.join('');
      this.pending = [];
      if (line.trim() !== '') lines.push(line);
      start = at + 1;
    }
    if (start < text.length) this.pending.push(text.slice(start));
    return lines;
  }

  /** What is left when the stream ends (a last line without a newline). */
  end(): string[] {
    const rest = this.pending.join('') + this.decoder.decode();
    this.pending = [];
    return rest.trim() === '' ? [] : [rest];
  }
}
