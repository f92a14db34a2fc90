// An HTTP/1.1 response read from the bytes of a keep-alive connection (ADR
// 0041): the status line, the headers, and a body framed by Content-Length, by
// chunked transfer coding, or (no framing given) by the connection's end. Pure:
// bytes in, one response out; the connection pool (lean-https.ts) feeds it.
// The peer may be a member cluster, which the engine does not trust (ADR 0019):
// framing that is ambiguous (Content-Length beside chunked, two lengths that
// differ, a malformed size) or a head over MAX_HEAD_BYTES is an error, and the
// connection is not reused after it.

/** Node's default --max-http-header-size is 16 KiB; a kube-apiserver answer's head is well under 1 KiB. */
export const MAX_HEAD_BYTES = 64 * 1024;
/**
 * A hostile member could otherwise send a body without end and take the process's memory from every tenant.
 * node:https had no bound; a body near 512 MiB could not be decoded into one string anyway (V8's limit).
 */
export const MAX_BODY_BYTES = 256 * 1024 * 1024;

// RFC 9110 field-name token; a value of visible characters, spaces, tabs and obs-text (as llhttp's strict mode).
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

export interface Http1Response {
  status: number;
  /** Header names in lower case, as node:http gives them; repeated headers joined by ", " (set-cookie: a list). */
  headers: Record<string, string | string[]>;
  body: Buffer;
  /** The connection may carry the next request (HTTP/1.1 without `Connection: close`, nothing left over). */
  reusable: boolean;
}

export class MalformedResponseError extends Error {}

type Framing = { kind: 'length'; remaining: number } | { kind: 'chunked' } | { kind: 'until-close' } | { kind: 'none' };
type ChunkState = 'size' | 'data' | 'data-end' | 'trailer';

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

/** Reads one response. feed() returns it once complete; end() when the connection ended first. */
export class Http1ResponseReader {
  private pending: Buffer | undefined;
  private head: { status: number; headers: Record<string, string | string[]>; keepAlive: boolean } | undefined;
  private framing: Framing | undefined;
  private readonly pieces: Buffer[] = [];
  private chunk: ChunkState = 'size';
  private chunkLeft = 0;
  private bodyBytes = 0;

  /** `method`: a HEAD answer has no body whatever its headers say. */
  constructor(private readonly method: string, private readonly maxBodyBytes = MAX_BODY_BYTES) {}

  /** True once any byte of the answer arrived (a reused connection that closes before is stale, not failed). */
  get started(): boolean {
    return this.pending !== undefined || this.head !== undefined;
  }

  feed(data: Buffer): Http1Response | undefined {
    this.pending = this.pending && this.pending.length > 0 ? Buffer.concat([this.pending, data]) : data;
    if (!this.head && !this.readHead()) return undefined;
    return this.readBody();
  }

  /** The connection ended: the answer if its framing is "until close", else an error. */
  end(): Http1Response {
    if (this.head && this.framing?.kind === 'until-close') {
      if (this.pending && this.pending.length > 0) this.keep(this.pending);
      return this.done(false);
    }
    throw new MalformedResponseError('the connection ended before the answer was complete');
  }

  private readHead(): boolean {
    for (;;) {
      const buf = this.pending as Buffer;
      const at = buf.indexOf(HEAD_END);
      if (at < 0) {
        if (buf.length > MAX_HEAD_BYTES) throw new MalformedResponseError('the answer\'s headers are too large');
        return false;
      }
      if (at > MAX_HEAD_BYTES) throw new MalformedResponseError('the answer\'s headers are too large');
      const lines = buf.toString('latin1', 0, at).split('\r\n');
      this.pending = buf.subarray(at + 4);
      const m = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
      if (!m) throw new MalformedResponseError('the answer has no HTTP/1.x status line');
      const status = Number(m[2]);
      if (status < 100) throw new MalformedResponseError('the answer has no HTTP/1.x status line');
      // The engine never asks to switch protocols: what follows a 101 is not HTTP/1.1.
      if (status === 101) throw new MalformedResponseError('the answer switches protocols, which was not asked for');
      const headers = parseHeaders(lines.slice(1));
      // 1xx answers (100 Continue) precede the real one: skip them (their headers checked all the same).
      if (status < 200) continue;
      const connection = String(headers.connection ?? '').toLowerCase();
      const keepAlive = m[1] === '1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
      this.head = { status, headers, keepAlive };
      this.framing = framingOf(this.method, status, headers);
      if (this.framing.kind === 'length' && this.framing.remaining > this.maxBodyBytes) throw tooLarge();
      return true;
    }
  }

  /** Counts body bytes kept, against the bound. */
  private keep(piece: Buffer): void {
    this.bodyBytes += piece.length;
    if (this.bodyBytes > this.maxBodyBytes) throw tooLarge();
    this.pieces.push(piece);
  }

  private readBody(): Http1Response | undefined {
    const framing = this.framing as Framing;
    if (framing.kind === 'none') return this.done(this.head!.keepAlive);
    if (framing.kind === 'until-close') {
      if (this.pending && this.pending.length > 0) this.keep(this.pending);
      this.pending = Buffer.alloc(0);
      return undefined;
    }
    if (framing.kind === 'length') {
      const buf = this.pending as Buffer;
      const take = Math.min(framing.remaining, buf.length);
      if (take > 0) this.pieces.push(take === buf.length ? buf : buf.subarray(0, take));
      framing.remaining -= take;
      this.pending = buf.subarray(take);
      return framing.remaining === 0 ? this.done(this.head!.keepAlive) : undefined;
    }
    return this.readChunks();
  }

  private readChunks(): Http1Response | undefined {
    for (;;) {
      const buf = this.pending as Buffer;
      if (this.chunk === 'data') {
        const take = Math.min(this.chunkLeft, buf.length);
        if (take === 0) return undefined;
        this.keep(buf.subarray(0, take));
        this.chunkLeft -= take;
        this.pending = buf.subarray(take);
        if (this.chunkLeft === 0) this.chunk = 'data-end';
        continue;
      }
      const at = buf.indexOf(CRLF);
      if (at < 0) {
        if (buf.length > MAX_HEAD_BYTES) throw new MalformedResponseError('a chunk header of the answer is too large');
        return undefined;
      }
      const line = buf.toString('latin1', 0, at);
      this.pending = buf.subarray(at + 2);
      if (this.chunk === 'data-end') {
        if (line !== '') throw new MalformedResponseError('a chunk of the answer is longer than its size');
        this.chunk = 'size';
      } else if (this.chunk === 'size') {
        const size = /^([0-9a-fA-F]{1,8})[ \t]*(?:;.*)?$/.exec(line);
        if (!size) throw new MalformedResponseError('the answer has a malformed chunk size');
        this.chunkLeft = parseInt(size[1] as string, 16);
        this.chunk = this.chunkLeft === 0 ? 'trailer' : 'data';
      } else if (line === '') {
        return this.done(this.head!.keepAlive); // the empty line after the (ignored) trailers
      }
    }
  }

  private done(keepAlive: boolean): Http1Response {
    const leftover = this.pending !== undefined && this.pending.length > 0;
    const body = this.pieces.length === 1 ? (this.pieces[0] as Buffer) : Buffer.concat(this.pieces);
    return { status: this.head!.status, headers: this.head!.headers, body, reusable: keepAlive && !leftover };
  }
}

function parseHeaders(lines: string[]): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const line of lines) {
    // No trimming of the name: a line folded onto the last (leading white space) or a space before the colon is
    // read differently by other parsers (RFC 9112 5.1, 5.2), so it is refused rather than guessed at.
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : '';
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    if (!HEADER_NAME.test(name) || BAD_VALUE.test(value)) throw new MalformedResponseError('the answer has a malformed header line');
    const key = name.toLowerCase();
    const had = headers[key];
    if (key === 'set-cookie') headers[key] = [...((had as string[] | undefined) ?? []), value];
    else headers[key] = had === undefined ? value : `${had as string}, ${value}`;
  }
  return headers;
}

function tooLarge(): MalformedResponseError {
  return new MalformedResponseError('the answer\'s body is too large');
}

function framingOf(method: string, status: number, headers: Record<string, string | string[]>): Framing {
  if (method === 'HEAD' || status === 204 || status === 304) return { kind: 'none' };
  const te = headers['transfer-encoding'];
  const cl = headers['content-length'];
  if (te !== undefined) {
    // Anything but plain chunked (gzip, a length beside it) is a framing the engine never asked for.
    if (cl !== undefined || String(te).toLowerCase().trim() !== 'chunked') throw new MalformedResponseError('the answer\'s framing is ambiguous');
    return { kind: 'chunked' };
  }
  if (cl !== undefined) {
    const values = String(cl).split(',').map((v) => v.trim());
    if (!values.every((v) => /^\d{1,15}$/.test(v) && v === values[0])) throw new MalformedResponseError('the answer has a malformed Content-Length');
    return Number(values[0]) === 0 ? { kind: 'none' } : { kind: 'length', remaining: Number(values[0]) };
  }
  return { kind: 'until-close' };
}
