// The cache's continue tokens: the snapshot version of the first page and the
// key to resume after, in kube-apiserver's JSON form, base64url-encoded. The
// key is kept in tenant terms (the `<id>-` prefix removed) so that a decoded
// token shows the tenant nothing of the upstream layout. A forged token can
// only move the start of the tenant's own listing: pages come from its index.
import { badRequest } from '../../core/api-error.ts';
import { addPrefix, stripPrefix } from '../../core/tenancy/tenant-id.ts';

export interface ContinuePosition {
  rv: number;
  /** Upstream key (`namespace/name` or `name`) of the last item returned. */
  after: string;
}

export const CONTINUE_EXPIRED_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

// Prefixed keys: `<id>-ns/name` (namespaced), `<id>-name` (cluster-scoped), `plural.<id>-group` (CRDs).
function toTokenKey(id: string, key: string, crdNames: boolean): string {
  if (crdNames) {
    const dot = key.indexOf('.');
    const group = dot > 0 ? stripPrefix(id, key.slice(dot + 1)) : undefined;
    return group === undefined ? key : `${key.slice(0, dot)}.${group}`;
  }
  return stripPrefix(id, key) ?? key;
}

function fromTokenKey(id: string, key: string, crdNames: boolean): string {
  if (crdNames) {
    const dot = key.indexOf('.');
    return dot > 0 ? `${key.slice(0, dot)}.${addPrefix(id, key.slice(dot + 1))}` : addPrefix(id, key);
  }
  return addPrefix(id, key);
}

export function encodeContinue(id: string, position: ContinuePosition, crdNames = false): string {
  const json = JSON.stringify({ v: 'meta.k8s.io/v1', rv: position.rv, start: `${toTokenKey(id, position.after, crdNames)}\u0000` });
  return Buffer.from(json).toString('base64url');
}

/** Throws BadRequest with kube-apiserver's messages for a token it cannot read. */
export function decodeContinue(id: string, token: string, crdNames = false): ContinuePosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('continue key is not valid: illegal base64 data at input byte 0');
  }
  const value = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { v?: unknown; rv?: unknown; start?: unknown };
  if (value.v !== 'meta.k8s.io/v1') throw badRequest('continue key is not valid: server does not recognize this encoded version');
  if (typeof value.rv !== 'number' || !Number.isSafeInteger(value.rv) || value.rv <= 0 || typeof value.start !== 'string' || value.start === '') {
    throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  const start = value.start.endsWith('\u0000') ? value.start.slice(0, -1) : value.start;
  return { rv: value.rv, after: fromTokenKey(id, start, crdNames) };
}
