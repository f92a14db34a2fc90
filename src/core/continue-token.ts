// kube-apiserver's continue token, the one codec (issue 17; the embedded apiserver
// and the gateway's cache each had one): {"v":"meta.k8s.io/v1","rv":N,"start":K}
// as unpadded base64url, the start key ending in "\u0000" (the first key after K).
// Refusals carry kube's messages. What K means is the caller's: the apiserver's
// store key, or the cache's key in tenant terms.
import { badRequest } from './api-error.ts';

export interface ContinueToken {
  /** The snapshot revision of the first page. */
  rv: number;
  /** The key of the last item returned (without the trailing "\u0000"). */
  start: string;
}

export const CONTINUE_EXPIRED_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

export function encodeContinueToken(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: token.rv, start: `${token.start}\u0000` })).toString('base64url');
}

/** Throws BadRequest with kube-apiserver's messages for a token it cannot read. */
export function decodeContinueToken(token: string): ContinueToken {
  // kube decodes with base64.RawURLEncoding: padding or any character outside that alphabet is refused.
  const illegal = token.search(/[^A-Za-z0-9_-]/);
  if (illegal >= 0) throw badRequest(`continue key is not valid: illegal base64 data at input byte ${illegal}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('continue key is not valid: illegal base64 data at input byte 0');
  }
  const value = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { v?: unknown; rv?: unknown; start?: unknown };
  if (value.v !== 'meta.k8s.io/v1') throw badRequest('continue key is not valid: server does not recognize this encoded version');
  if (typeof value.rv !== 'number' || !Number.isSafeInteger(value.rv) || value.rv <= 0 || typeof value.start !== 'string') {
    throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  return { rv: value.rv, start: value.start.endsWith('\u0000') ? value.start.slice(0, -1) : value.start };
}
