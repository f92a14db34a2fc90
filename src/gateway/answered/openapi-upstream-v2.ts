// The upstream's /openapi/v2, fetched once and revalidated: a 1.20 host's
// document is 4 MB and takes ~2 s to send, so every later request asks with
// If-None-Match and keeps the parsed copy on 304. Concurrent callers share one
// fetch. One copy for all tenants: the upstream document is the same for each.
//
// Trap: kube-openapi before ~1.23 answers /openapi/v2 with Content-Type
// text/plain (http.ServeContent sniffs it), so the upstream client hands back
// the body as a string. Spreading that string as an object turned each
// character into a `"123":"c"` property: 14x the size, minutes to encode.
import { createHash } from 'node:crypto';
import { ApiError } from '../../core/api-error.ts';
import type { Upstream } from '../../kube/upstream.ts';

type Obj = Record<string, unknown>;

export interface UpstreamSwagger {
  /** The upstream's ETag (or a hash of the body when it sends none): the key of every derived cache. */
  etag: string;
  swagger: Obj;
}

const unavailable = (): ApiError => new ApiError('ServiceUnavailable', 'the OpenAPI document is not available right now');

function isRecord(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The swagger object of an answer body, JSON or text/plain; undefined when it is not one. */
export function swaggerOfBody(body: unknown): Obj | undefined {
  if (isRecord(body)) return body;
  if (typeof body !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function createUpstreamSwagger(upstream: Upstream): () => Promise<UpstreamSwagger> {
  let current: UpstreamSwagger | undefined;
  let inFlight: Promise<UpstreamSwagger> | undefined;

  const fetchDoc = async (): Promise<UpstreamSwagger> => {
    const known = current;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (known) headers['If-None-Match'] = known.etag;
    const answer = await upstream.request<unknown>('GET', '/openapi/v2', undefined, headers);
    if (answer.status === 304 && known) return known;
    if (answer.status !== 200) throw unavailable();
    const swagger = swaggerOfBody(answer.body);
    if (!swagger) throw unavailable();
    const header = answer.headers.etag;
    const etag = typeof header === 'string' && header !== ''
      ? header
      : `"${createHash('sha512').update(JSON.stringify(swagger)).digest('hex').toUpperCase()}"`;
    current = { etag, swagger };
    return current;
  };

  return () => {
    inFlight ??= fetchDoc().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}
