// A pool of keep-alive TLS connections to one apiserver that sends a JSON
// request and reads its answer with no more machinery than that takes (ADR
// 0041). node:https spent ~240 µs of the client's CPU per small request on this
// machine, against ~80 µs for the same TLS request written and read directly
// (same run, bench in the ADR): the ClientRequest and IncomingMessage streams,
// the agent's per-request bookkeeping, listeners added and removed per
// request. The engine sends ~3.6 requests per applied pair, so that difference
// was a third of its CPU. What this keeps from node:https: one request at a
// time per connection (no pipelining), at most `maxSockets` connections, a
// deadline per request, connections closed after `idleMs` idle (ADR 0036), and
// a reused connection that closes before any byte of its answer reported as
// stale (the caller may send a read again). Streams (watches) stay on node:https.
import type tls from 'node:tls';
import { Http1ResponseReader, type Http1Response } from './http1-response.ts';

export interface LeanPoolOptions {
  /**
   * Opens a TLS connection to the server (writes before the handshake ends are queued by Node), resuming
   * `session` when given: the last session the server issued to this pool, as https.Agent resumes them.
   */
  connect(session: Buffer | undefined): tls.TLSSocket;
  /** The Host header (host[:port], as node:https sends it). */
  host: string;
  maxSockets: number;
  /** A connection idle this long is closed (ADR 0036: before the server closes it under a request). */
  idleMs: number;
}

export interface LeanRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  payload?: Buffer | undefined;
  timeoutMs: number;
}

export interface LeanPool {
  request(req: LeanRequest): Promise<Http1Response>;
  close(): void;
}

/** A reused connection closed before any byte of the answer: the request may not have reached the server. */
export class StaleConnectionError extends Error {}
export class DeadlineExceededError extends Error {}
export class PoolClosedError extends Error {}

interface Job {
  req: LeanRequest;
  resolve(res: Http1Response): void;
  reject(err: unknown): void;
  /** Started when the request is made, so time queued behind busy connections counts (as node:https's did). */
  timer: NodeJS.Timeout;
  /** Set once the job is on a connection: the deadline then ends that exchange. */
  expire?: () => void;
}

interface Conn {
  socket: tls.TLSSocket;
  /** The request on this connection now, if any. */
  current: { data(chunk: Buffer): void; closed(): void } | undefined;
  used: boolean;
  idleSince: number;
  error: Error | undefined;
}

// Request line and headers go on the wire as they are, encoded latin1: nothing may end a line early (header
// injection). Node's own rules: a method and a header name are tokens, a value is tab, visible ASCII or
// obs-text; a character over U+00FF is refused because latin1 keeps only its low byte (U+010A is written LF).
const UNSAFE_PATH = /[^\x21-\x7e]/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const UNSAFE_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
/** Headers the pool writes itself: the body's length is its own, whatever a caller passed. */
const FRAMING = new Set(['host', 'content-length', 'transfer-encoding']);

export function createLeanPool(options: LeanPoolOptions): LeanPool {
  const idle: Conn[] = [];
  const all = new Set<Conn>();
  const waiting: Job[] = [];
  let open = 0;
  let closed = false;
  let sweeper: NodeJS.Timeout | undefined;
  let session: Buffer | undefined;

  function sweep(): void {
    const now = Date.now();
    for (const conn of [...idle]) {
      if (now - conn.idleSince < options.idleMs) continue;
      idle.splice(idle.indexOf(conn), 1); // out of the pool now: its 'close' comes a turn later
      conn.socket.destroy();
    }
    if (open === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  }

  function openConn(): Conn {
    const socket = options.connect(session);
    socket.setNoDelay(true);
    // A connection opened after the idle ones closed resumes the TLS session instead of a full handshake.
    socket.on('session', (ticket: Buffer) => {
      session = ticket;
    });
    const conn: Conn = { socket, current: undefined, used: false, idleSince: 0, error: undefined };
    open++;
    all.add(conn);
    sweeper ??= setInterval(sweep, Math.max(100, Math.floor(options.idleMs / 4))).unref();
    // Installed once per connection, not per request: each request only sets `current`.
    socket.on('data', (chunk: Buffer) => {
      if (conn.current) conn.current.data(chunk);
      else socket.destroy(); // bytes nobody asked for: the connection's framing cannot be trusted any more
    });
    socket.on('error', (err: Error) => {
      conn.error = err;
    });
    socket.on('close', () => {
      open--;
      all.delete(conn);
      const at = idle.indexOf(conn);
      if (at >= 0) idle.splice(at, 1);
      conn.current?.closed();
      const next = waiting.shift();
      if (next && !closed) start(openConn(), next);
    });
    return conn;
  }

  /**
   * The connection idle longest, not the most recently used: connections take turns, so while requests keep
   * coming every pooled connection is used within its idle lifetime and stays open. Taking the most recent
   * one left the others idle until the sweep closed them, and the next peak opened them again, a TLS
   * handshake on both ends each time (issue 18: 0.3 new connections per applied pair in a burst). One idle
   * past its lifetime that the sweep has not reached yet is closed here, not used: the server may be closing it.
   */
  function takeIdle(): Conn | undefined {
    const now = Date.now();
    for (let conn = idle.shift(); conn; conn = idle.shift()) {
      if (conn.socket.destroyed) continue;
      if (now - conn.idleSince < options.idleMs) return conn;
      conn.socket.destroy();
    }
    return undefined;
  }

  function release(conn: Conn): void {
    const next = waiting.shift();
    if (next) {
      start(conn, next);
      return;
    }
    conn.idleSince = Date.now();
    idle.push(conn);
  }

  function start(conn: Conn, job: Job): void {
    const { req } = job;
    const reader = new Http1ResponseReader(req.method);
    const reused = conn.used;
    conn.used = true;
    let settled = false;
    const finish = (err: unknown, res?: Http1Response): void => {
      if (settled) return;
      settled = true;
      clearTimeout(job.timer);
      conn.current = undefined;
      if (err !== undefined || !res) {
        conn.socket.destroy();
        job.reject(err);
        return;
      }
      if (res.reusable && !closed) release(conn);
      else conn.socket.destroy();
      job.resolve(res);
    };
    job.expire = () => finish(new DeadlineExceededError());
    conn.current = {
      data(chunk) {
        let res: Http1Response | undefined;
        try {
          res = reader.feed(chunk);
        } catch (err) {
          finish(err);
          return;
        }
        if (res) finish(undefined, res);
      },
      closed() {
        if (reused && !reader.started) {
          finish(new StaleConnectionError());
          return;
        }
        let res: Http1Response;
        try {
          res = reader.end();
        } catch (err) {
          finish(conn.error ?? err);
          return;
        }
        finish(undefined, res);
      },
    };
    conn.socket.write(requestBytes(options.host, req));
  }

  function expire(job: Job): void {
    if (job.expire) return job.expire();
    const at = waiting.indexOf(job);
    if (at >= 0) waiting.splice(at, 1);
    job.reject(new DeadlineExceededError());
  }

  return {
    request(req) {
      const refused = refusal(req);
      if (refused) return Promise.reject(refused);
      if (closed) return Promise.reject(new PoolClosedError('the connection pool is closed'));
      return new Promise<Http1Response>((resolve, reject) => {
        const job: Job = { req, resolve, reject, timer: setTimeout(() => expire(job), req.timeoutMs) };
        const conn = takeIdle();
        if (conn) start(conn, job);
        else if (open < options.maxSockets) start(openConn(), job);
        else waiting.push(job);
      });
    },
    close() {
      closed = true;
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      for (const job of waiting.splice(0)) {
        clearTimeout(job.timer);
        job.reject(new PoolClosedError('the connection pool is closed'));
      }
      // As agent.destroy(): busy connections too (their requests fail as unavailable).
      idle.length = 0;
      for (const conn of [...all]) conn.socket.destroy();
    },
  };
}

/** Why node:https would refuse this request (a TypeError, as it throws), or undefined. */
function refusal(req: LeanRequest): TypeError | undefined {
  if (!TOKEN.test(req.method)) return new TypeError('Method must be a valid HTTP token');
  if (UNSAFE_PATH.test(req.path)) return new TypeError('Request path contains unescaped characters');
  for (const [name, value] of Object.entries(req.headers)) {
    if (!TOKEN.test(name)) return new TypeError('Header name must be a valid HTTP token');
    if (UNSAFE_VALUE.test(value)) return new TypeError(`Invalid character in header content ["${name}"]`);
  }
  return undefined;
}

/** The request line, headers and body as one buffer: one write, one TLS record for a small request. */
function requestBytes(host: string, req: LeanRequest): Buffer {
  let head = `${req.method} ${req.path} HTTP/1.1\r\nHost: ${host}\r\n`;
  for (const [name, value] of Object.entries(req.headers)) if (!FRAMING.has(name.toLowerCase())) head += `${name}: ${value}\r\n`;
  if (req.payload && req.payload.length > 0) head += `Content-Length: ${req.payload.length}\r\n`;
  head += '\r\n';
  if (!req.payload || req.payload.length === 0) return Buffer.from(head, 'latin1');
  const headBytes = Buffer.byteLength(head, 'latin1');
  const out = Buffer.allocUnsafe(headBytes + req.payload.length);
  out.write(head, 0, 'latin1');
  req.payload.copy(out, headBytes);
  return out;
}
