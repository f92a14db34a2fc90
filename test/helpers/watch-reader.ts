// Reads a watch stream as parsed events. Chunk boundaries do not align with
// events: buffer to newline before parsing. Every wait has a deadline so a
// server that never sends the expected event fails the test instead of hanging it.
import type { IncomingMessage, ClientRequest } from 'node:http';
import type { KubeHttp } from './kube-http.ts';

export interface WatchEventJson {
  type: string;
  object: any;
}

export class WatchReader {
  readonly status: number;
  /** Body of a non-200 answer (the server refused the watch outright). */
  readonly errorBody: any;
  private readonly queue: WatchEventJson[] = [];
  private waiter: (() => void) | undefined;
  private buffer = '';
  private ended = false;
  private readonly req: ClientRequest;

  private constructor(req: ClientRequest, res: IncomingMessage, errorBody?: any) {
    this.req = req;
    this.status = res.statusCode ?? 0;
    this.errorBody = errorBody;
    if (errorBody !== undefined) { this.ended = true; return; }
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl).trim();
        this.buffer = this.buffer.slice(nl + 1);
        if (line) this.queue.push(JSON.parse(line) as WatchEventJson);
      }
      this.wake();
    });
    const finish = () => { this.ended = true; this.wake(); };
    res.on('end', finish);
    res.on('close', finish);
    res.on('error', finish);
  }

  static async open(http: KubeHttp, path: string): Promise<WatchReader> {
    const { req, res } = await http.open('GET', path);
    if (res.statusCode !== 200) {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      let body: any = text;
      try { body = JSON.parse(text); } catch { /* keep text */ }
      return new WatchReader(req, res, body);
    }
    return new WatchReader(req, res);
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }

  /** Has the server closed the stream? */
  get isEnded(): boolean {
    return this.ended && this.queue.length === 0;
  }

  /** The next event, or undefined when the stream ends; throws at the deadline. */
  async next(timeoutMs = 10_000): Promise<WatchEventJson | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (true) {
      const event = this.queue.shift();
      if (event) return event;
      if (this.ended) return undefined;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`watch: no event within ${timeoutMs}ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => { clearTimeout(timer); resolve(); };
      });
    }
  }

  /** Reads events until one matches; returns every event read (the match last). */
  async until(match: (e: WatchEventJson) => boolean, timeoutMs = 10_000): Promise<WatchEventJson[]> {
    const deadline = Date.now() + timeoutMs;
    const seen: WatchEventJson[] = [];
    while (true) {
      const e = await this.next(Math.max(1, deadline - Date.now()));
      if (!e) throw new Error(`watch ended before a matching event; saw ${seen.map((s) => s.type).join(',')}`);
      seen.push(e);
      if (match(e)) return seen;
    }
  }

  /** Waits for the server to close the stream; returns the events read meanwhile. */
  async waitForEnd(timeoutMs = 15_000): Promise<WatchEventJson[]> {
    const seen: WatchEventJson[] = [];
    const deadline = Date.now() + timeoutMs;
    while (true) {
      const e = await this.next(Math.max(1, deadline - Date.now()));
      if (!e) return seen;
      seen.push(e);
    }
  }

  close(): void {
    this.ended = true;
    this.req.destroy();
    this.wake();
  }
}
