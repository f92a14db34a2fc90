// The cache's continue tokens: the snapshot version of the first page and the
// key to resume after, in kube-apiserver's JSON form, base64url-encoded. The
// key is kept in tenant terms (the `<id>-` prefix removed) so that a decoded
// token shows the tenant nothing of the upstream layout. A forged token can
// only move the start of the tenant's own listing: pages come from its index.
// The token form is core/continue-token.ts, shared with the embedded apiserver.
import { badRequest } from '../../core/api-error.ts';
import { decodeContinueToken, encodeContinueToken } from '../../core/continue-token.ts';
import { addPrefix, stripPrefix } from '../../core/tenancy/tenant-id.ts';

export { CONTINUE_EXPIRED_MESSAGE } from '../../core/continue-token.ts';

export interface ContinuePosition {
  rv: number;
  /** Upstream key (`namespace/name` or `name`) of the last item returned. */
  after: string;
}

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
  return encodeContinueToken({ rv: position.rv, start: toTokenKey(id, position.after, crdNames) });
}

/** Throws BadRequest with kube-apiserver's messages for a token it cannot read. */
export function decodeContinue(id: string, token: string, crdNames = false): ContinuePosition {
  const { rv, start } = decodeContinueToken(token);
  // The cache resumes after a key: an empty one names no position in the tenant's listing.
  if (start === '') throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  return { rv, after: fromTokenKey(id, start, crdNames) };
}
