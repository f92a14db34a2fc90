// Reads and decodes request bodies. The limit is kube-apiserver's 3 MiB; a
// larger body is refused with 413 before it is parsed, and a JSON body nested
// too deep or with an object too large for its cost (json-scan.ts) with 400.
import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { ApiError, badRequest } from '../core/api-error.ts';
import { decodeKubeProtobuf, isKubeProtobuf } from '../core/protobuf/index.ts';
import { MAX_BODY_MEMBERS, MAX_JSON_DEPTH, MAX_OBJECT_MEMBERS, scanJson, type JsonScanRefusal } from './json-scan.ts';
import { parseJsonInSlices } from './json-slices.ts';
import { isLarge } from './yield-to-loop.ts';

export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/**
 * Whether the client sends a body at all: Transfer-Encoding (a body of unknown length), or a declared
 * non-zero Content-Length. As in Go's net/http (and RFC 9112 §6.3), Transfer-Encoding decides when it is
 * present. A request carrying both never reaches a handler: Node's parser answers it 400 (RFC 9112 §6.1,
 * the shape of request smuggling); test/adversarial/request-smuggling.test.ts holds the gateway to that.
 */
export function sendsBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  return Number(req.headers['content-length'] ?? 0) > 0;
}

export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > limit) {
      reject(tooLarge(limit));
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(tooLarge(limit));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function tooLarge(limit: number): ApiError {
  return new ApiError('RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
}

export type PatchKind = 'json' | 'merge' | 'strategic' | 'apply';

const PATCH_KINDS: Record<string, PatchKind> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

/** Which kind of PATCH a Content-Type names, or undefined for one kube does not accept (415). */
export function patchKindOf(contentType: string | undefined): PatchKind | undefined {
  return PATCH_KINDS[mediaType(contentType)];
}

/** The media type without parameters, lower-cased. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** What a body should be when its envelope does not say (protobuf may leave apiVersion/kind empty). */
export interface BodyType {
  group: string;
  version: string;
  kind: string;
}

/**
 * Decodes a JSON, YAML or Kubernetes-protobuf body (kubectl 1.32+ sends typed
 * objects as protobuf); apply patches are YAML, a superset of JSON.
 */
export function decodeBody(body: Buffer, contentType: string | undefined, expected?: BodyType, limits: JsonLimits = APISERVER_JSON_LIMITS): unknown {
  const refused = looksLikeJsonBytes(body) ? scanJson(body, limits) : undefined;
  if (refused) throw scanRefusal(refused, expected);
  const type = mediaType(contentType);
  if (isKubeProtobuf(type)) {
    const defaults = expected ? { apiVersion: expected.group ? `${expected.group}/${expected.version}` : expected.version, kind: expected.kind } : undefined;
    return decodeKubeProtobuf(body, defaults);
  }
  const text = body.toString('utf8');
  if (text.trim() === '') throw badRequest('the body of the request was empty');
  if (type.includes('protobuf') || type.includes('cbor')) {
    throw new ApiError('UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`);
  }
  if (type === 'application/yaml' || type === 'application/apply-patch+yaml' || type === 'text/yaml') {
    // JSON is YAML too, and clients (controllers, client-go's apply) mostly send apply patches as JSON:
    // read those as JSON, like a JSON body (last duplicate key wins there too), since the YAML parser
    // costs several times more (it was the member apiservers' largest cost under propagation load).
    const json = looksLikeJsonObject(text) ? tryJson(text) : undefined;
    if (json !== undefined) return json;
    try {
      return parseYaml(text, { maxAliasCount: 100 });
    } catch (err) {
      throw badRequest(`error converting YAML to JSON: ${(err as Error).message.split('\n')[0] ?? ''}`);
    }
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`error decoding body: ${(err as Error).message}`);
  }
}

/**
 * decodeBody, with a large JSON body (or JSON-shaped YAML) parsed in slices with turns of the
 * loop between them (json-slices.ts): the same answer and the same errors, in steps of a few
 * milliseconds instead of one JSON.parse of up to 0.5 s (issue 13).
 */
export async function decodeBodyInSteps(body: Buffer, contentType: string | undefined, expected?: BodyType, limits: JsonLimits = APISERVER_JSON_LIMITS): Promise<unknown> {
  const type = mediaType(contentType);
  const yaml = type === 'application/yaml' || type === 'application/apply-patch+yaml' || type === 'text/yaml';
  const json = yaml || !(type.includes('protobuf') || type.includes('cbor'));
  if (!isLarge(body.length) || !json || !looksLikeJsonBytes(body)) return decodeBody(body, contentType, expected, limits);
  const refused = scanJson(body, limits);
  if (refused) throw scanRefusal(refused, expected);
  try {
    return await parseJsonInSlices(body.toString('utf8'));
  } catch (err) {
    // Not JSON after all: YAML bodies go to the YAML parser, as decodeBody's tryJson does.
    if (yaml) return decodeBody(body, contentType, expected, limits);
    throw badRequest(`error decoding body: ${(err as Error).message}`);
  }
}

export interface JsonLimits {
  depth?: number;
  members?: number;
  /** Object members in the whole body. */
  total?: number;
}

/**
 * The embedded apiserver's: depth only (kube refuses beyond 10,000; Node cannot serialise
 * 2,000), no bound on members, as kube has none.
 */
export const APISERVER_JSON_LIMITS: JsonLimits = { depth: MAX_JSON_DEPTH, members: Number.POSITIVE_INFINITY, total: Number.POSITIVE_INFINITY };

/** The gateway's: depth, members per object and in the whole body (json-scan.ts, ADR 0026). */
export const GATEWAY_JSON_LIMITS: JsonLimits = { depth: MAX_JSON_DEPTH, members: MAX_OBJECT_MEMBERS, total: MAX_BODY_MEMBERS };

/** kube's words for a body refused before decoding (its decoder says "exceeded max depth" beyond 10,000 levels). */
function scanRefusal(refused: JsonScanRefusal, expected: BodyType | undefined): ApiError {
  const type = expected?.kind ? ` (must be of type ${expected.kind})` : '';
  const why = refused.kind === 'depth'
    ? `invalid character '${refused.char}' exceeded max depth (${refused.limit})`
    : refused.kind === 'members' ? `an object has more than ${refused.limit} members` : `the body has more than ${refused.limit} object members`;
  return badRequest(`the object provided is unrecognized${type}: couldn't get version/kind; json parse error: ${why}`);
}

function looksLikeJsonBytes(body: Buffer): boolean {
  for (let i = 0; i < body.length && i < 1024; i++) {
    const c = body[i];
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    return c === 0x7b || c === 0x5b; // { or [
  }
  return false;
}

function looksLikeJsonObject(text: string): boolean {
  const first = text.trimStart()[0];
  return first === '{' || first === '[';
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // not JSON after all (YAML flow style, comments): the YAML parser decides
  }
}
