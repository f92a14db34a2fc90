// Watch streams are newline-delimited JSON, but chunk boundaries do not align
// with events: a chunk may hold half an event, or several. Buffer to newline
// before parsing.
export class LineSplitter {
  private pending = '';
  private readonly decoder = new TextDecoder();

  /** The complete lines in this chunk (plus what was pending), without their newlines. */
  push(chunk: Uint8Array): string[] {
    // stream: true keeps a multi-byte character split across chunks intact.
    const text = this.pending + this.decoder.decode(chunk, { stream: true });
    const lines = text.split('\n');
    this.pending = lines.pop() ?? '';
    return lines.filter((line) => line.trim() !== '');
  }

  /** What is left when the stream ends (a last line without a newline). */
  end(): string[] {
    const rest = this.pending + this.decoder.decode();
    this.pending = '';
    return rest.trim() === '' ? [] : [rest];
  }
}
