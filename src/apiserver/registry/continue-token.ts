// Continue tokens carry the snapshot revision and the key to resume after, in
// the same JSON form kube-apiserver uses ({"v":"meta.k8s.io/v1","rv":N,"start":K}),
// base64url-encoded. Clients treat them as opaque.
import { badRequest } from '../../core/api-error.ts';

export interface ContinuePosition {
  revision: number;
  after: string;
}

export function encodeContinue(position: ContinuePosition): string {
  const json = JSON.stringify({ v: 'meta.k8s.io/v1', rv: position.revision, start: `${position.after}\u0000` });
  return Buffer.from(json).toString('base64url');
}

export function decodeContinue(token: string): ContinuePosition {
  // kube decodes with base64.RawURLEncoding: padding or any character outside that alphabet is refused.
  const illegal = token.search(/[^A-Za-z0-9_-]/);
  if (illegal >= 0) throw badRequest(`continue key is not valid: illegal base64 data at input byte ${illegal}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('continue key is not valid: illegal base64 data at input byte 0');
  }
  const value = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (value.v !== 'meta.k8s.io/v1') throw badRequest('continue key is not valid: server does not recognize this encoded version');
  if (typeof value.rv !== 'number' || value.rv <= 0 || typeof value.start !== 'string') {
    throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  return { revision: value.rv, after: value.start.endsWith('\u0000') ? value.start.slice(0, -1) : value.start };
}

export const CONTINUE_EXPIRED_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';
