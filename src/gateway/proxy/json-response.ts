// A non-streaming JSON answer from upstream, rewritten to the tenant's view.
// The caller's translate() decides what the body becomes (object, list, Status,
// Table); this file is the plumbing, built so a LIST of 10,000 objects never
// holds more than the raw bytes or the parsed objects at a time, and the
// output is never one big string.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { internalError, toApiError } from '../../core/api-error.ts';
import { plainTextError } from './plain-text-error.ts';
import { isObject } from '../../core/types.ts';
import { safeResponseHeaders, type ResponseHeaders, type WarningScrubber } from './response-headers.ts';
import { sendStatus, upstreamFailure } from './proxy-errors.ts';
import { isLarge, yieldToLoop } from '../../http/yield-to-loop.ts';
import { parseJsonInSlices } from '../../http/json-slices.ts';

export interface JsonResponseOptions {
  /** Rewrites the parsed body (in place or not); may throw an ApiError, which the tenant then gets instead. */
  translate: (body: unknown) => unknown;
  scrubWarning?: WarningScrubber;
}

/** Output is written in slices of about this size: few enough write() calls, never the whole body. */
const SLICE_BYTES = 64 * 1024;

/**
 * Collects an uncompressed body with plain 'data' listeners: a for-await over the stream cost more CPU than
 * parsing the ~1.5 KiB answer of a create (its promise per chunk and end-of-stream plumbing; issue 18).
 * A body cut short (upstream died mid-body) rejects, as the iterator did.
 */
function readIdentityBody(upstreamRes: IncomingMessage, declared: number): Promise<Buffer> {
  // A large body with a Content-Length goes straight into one buffer: no second copy from concat.
  const into = Number.isSafeInteger(declared) && isLarge(declared) ? Buffer.allocUnsafe(declared) : undefined;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    upstreamRes.on('data', (chunk: Buffer) => {
      if (into) size += chunk.copy(into, size);
      else { chunks.push(chunk); size += chunk.length; }
    });
    upstreamRes.once('end', () => {
      ended = true;
      if (into) resolve(size === into.length ? into : into.subarray(0, size));
      // One chunk (the usual small answer) is used as it is.
      else resolve(chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks, size));
    });
    upstreamRes.once('error', reject);
    upstreamRes.once('close', () => { if (!ended) reject(new Error('the upstream answer ended before its body did')); });
  });
}

/** Collects the body (gzip decompressed). */
async function readBody(upstreamRes: IncomingMessage): Promise<Buffer> {
  const encoding = String(upstreamRes.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding === 'identity') return await readIdentityBody(upstreamRes, Number(upstreamRes.headers['content-length']));
  const source: Readable = encoding === 'gzip' ? upstreamRes.pipe(createGunzip()) : upstreamRes;
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The status a translated body calls for: a translated Status keeps its own code (translate may have rewritten it). */
function statusCodeOf(body: unknown, upstreamStatus: number): number {
  if (isObject(body) && body.kind === 'Status' && body.status === 'Failure' && typeof body.code === 'number') return body.code;
  return upstreamStatus;
}

/** The last array field of a list (`items`) or Table (`rows`), streamed element by element. */
function bigArrayField(body: unknown): 'items' | 'rows' | undefined {
  if (!isObject(body)) return undefined;
  if (Array.isArray(body.items)) return 'items';
  if (Array.isArray(body.rows)) return 'rows';
  return undefined;
}

/** Writes, and waits for the client to take it when the socket buffer is full (both listeners removed after, or they pile up per slice). */
function write(res: ServerResponse, text: string): Promise<void> | undefined {
  if (res.write(text)) return undefined;
  return new Promise((resolve) => {
    const done = (): void => { res.off('drain', done); res.off('close', done); resolve(); };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Writes `{...rest, "field": [e0, e1, ...]}` slice by slice; each element is released once written. */
async function streamArrayBody(res: ServerResponse, body: Record<string, unknown>, field: 'items' | 'rows'): Promise<void> {
  const elements = body[field] as unknown[];
  const { [field]: _omitted, ...rest } = body;
  const shell = JSON.stringify(rest);
  let slice = `${shell.slice(0, -1)}${shell.length > 2 ? ',' : ''}"${field}":[`;
  for (let i = 0; i < elements.length; i++) {
    slice += (i === 0 ? '' : ',') + JSON.stringify(elements[i]);
    elements[i] = undefined;
    if (slice.length >= SLICE_BYTES) {
      const drained = write(res, slice);
      if (drained) await drained;
      if (res.destroyed) return;
      slice = '';
    }
  }
  res.end(`${slice}]}`);
}

/**
 * Reads upstream's JSON answer, translates it and writes it to `res`. Resolves
 * when the response is complete (or abandoned); never rejects: failures become
 * a Status, or a cut connection once the response has begun.
 */
export async function sendTranslatedJson(upstreamRes: IncomingMessage, res: ServerResponse, options: JsonResponseOptions): Promise<void> {
  const headers: ResponseHeaders = safeResponseHeaders(upstreamRes, options.scrubWarning);
  const upstreamStatus = upstreamRes.statusCode ?? 502;
  let body: unknown;
  let size = 0;
  try {
    let raw: Buffer | undefined = await readBody(upstreamRes);
    if (raw.length === 0) {
      res.writeHead(upstreamStatus, headers);
      res.end();
      return;
    }
    // Fail closed: a body we cannot parse is a body we cannot translate, and it may name other tenants.
    // An error answered in plain text keeps its code, in words of our own.
    if (!/json/i.test(String(upstreamRes.headers['content-type'] ?? ''))) throw plainTextError(upstreamStatus) ?? internalError('the server returned a response that could not be translated');
    size = raw.length;
    if (!isLarge(size)) {
      // Small (every object a create, update or GET answers): parsed and translated in this turn, no awaits.
      body = options.translate(JSON.parse(raw.toString('utf8')));
    } else {
      // A large answer is parsed, translated and serialised in separate turns of the loop (yield-to-loop.ts).
      await yieldToLoop();
      let text: string | undefined = raw.toString('utf8');
      raw = undefined; // Release the bytes before the parsed objects exist.
      // In slices with turns of the loop between them (json-slices.ts): JSON.parse's answer and errors.
      body = await parseJsonInSlices(text);
      text = undefined;
      await yieldToLoop();
      body = options.translate(body);
    }
  } catch (err) {
    // Upstream died mid-body: nothing of it was sent yet, so the client gets a 503 Status, not a reset.
    if (upstreamRes.destroyed && !upstreamRes.complete) { sendStatus(res, upstreamFailure(err)); return; }
    sendStatus(res, err instanceof SyntaxError ? internalError('the server returned a malformed response') : toApiError(err));
    return;
  }
  const status = statusCodeOf(body, upstreamStatus);
  headers['content-type'] ??= 'application/json';
  const field = bigArrayField(body);
  if (field === undefined) {
    if (isLarge(size)) await yieldToLoop();
    if (res.destroyed) return;
    const text = JSON.stringify(body);
    headers['content-length'] = Buffer.byteLength(text);
    res.writeHead(status, headers);
    res.end(text);
    return;
  }
  // Length unknown until the last item is written: chunked transfer (Node's default without Content-Length).
  res.writeHead(status, headers);
  await streamArrayBody(res, body as Record<string, unknown>, field);
}
