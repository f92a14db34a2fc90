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
import { yieldIfLarge } from '../../http/yield-to-loop.ts';
import { parseJsonInSlices } from '../../http/json-slices.ts';

export interface JsonResponseOptions {
  /** Rewrites the parsed body (in place or not); may throw an ApiError, which the tenant then gets instead. */
  translate: (body: unknown) => unknown;
  scrubWarning?: WarningScrubber;
}

/** Output is written in slices of about this size: few enough write() calls, never the whole body. */
const SLICE_BYTES = 64 * 1024;

/** Collects the body; with a Content-Length the bytes go straight into one buffer (no second copy from concat). */
async function readBody(upstreamRes: IncomingMessage): Promise<Buffer> {
  const encoding = String(upstreamRes.headers['content-encoding'] ?? 'identity').toLowerCase();
  const source: Readable = encoding === 'gzip' ? upstreamRes.pipe(createGunzip()) : upstreamRes;
  const declared = Number(upstreamRes.headers['content-length']);
  if (encoding === 'identity' && Number.isSafeInteger(declared) && declared > 0) {
    const body = Buffer.allocUnsafe(declared);
    let at = 0;
    for await (const chunk of source) at += (chunk as Buffer).copy(body, at);
    return at === declared ? body : body.subarray(0, at);
  }
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
    // A large answer is parsed, translated and serialised in separate turns of the loop (yield-to-loop.ts).
    await yieldIfLarge(size);
    let text: string | undefined = raw.toString('utf8');
    raw = undefined; // Release the bytes before the parsed objects exist.
    // In slices with turns of the loop between them when large (json-slices.ts): JSON.parse's answer and errors.
    body = await parseJsonInSlices(text);
    text = undefined;
    await yieldIfLarge(size);
    body = options.translate(body);
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
    await yieldIfLarge(size);
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
