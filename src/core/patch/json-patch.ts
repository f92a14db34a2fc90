// RFC 6902 JSON patch with kube-apiserver's error mapping
// (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go):
// - a body that does not decode as a list of operations → 400 BadRequest;
// - more than 10000 operations → 413 RequestEntityTooLarge;
// - any failure while applying (failed `test`, missing path, unknown op) →
//   422 Invalid, built by NewGenericServerResponse, whose message is fixed and
//   does NOT carry the underlying error (kubectl prints "The request is invalid:
//   the server rejected our request due to an error in our request").
import jsonpatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { ApiError, badRequest } from '../api-error.ts';
import { isObject } from '../types.ts';

export const MAX_JSON_PATCH_OPERATIONS = 10000;
const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** The 422 kube returns whenever a decoded JSON patch fails to apply. */
export function jsonPatchApplyError(): ApiError {
  return new ApiError('Invalid', 'the server rejected our request due to an error in our request');
}

/** Checks the decoded body is a list of objects, as evanphx/json-patch's DecodePatch does. */
function decodeOperations(ops: unknown): Record<string, unknown>[] {
  if (!Array.isArray(ops)) {
    throw badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  }
  for (const op of ops) {
    if (!isObject(op)) throw badRequest('json: cannot unmarshal non-object into Go value of type jsonpatch.Operation');
  }
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new ApiError('RequestEntityTooLarge',
      `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`);
  }
  return ops as Record<string, unknown>[];
}

/** An operation kube would fail at apply time (so 422, not 400). */
function isWellFormed(op: Record<string, unknown>): op is Operation & Record<string, unknown> {
  if (typeof op.op !== 'string' || !OPS.has(op.op) || typeof op.path !== 'string') return false;
  if ((op.op === 'move' || op.op === 'copy') && typeof op.from !== 'string') return false;
  if ((op.op === 'add' || op.op === 'replace' || op.op === 'test') && !('value' in op)) return false;
  return true;
}

/** Applies `ops` to a copy of `doc`; never mutates either. */
export function applyJsonPatch<T>(doc: T, ops: unknown): T {
  const decoded = decodeOperations(ops);
  if (!decoded.every(isWellFormed)) throw jsonPatchApplyError();
  try {
    // validate=true makes fast-json-patch reject unresolvable paths instead of
    // silently creating them; mutateDocument=false keeps `doc` untouched.
    const cloned = jsonpatch.deepClone(doc) as T;
    return jsonpatch.applyPatch(cloned, jsonpatch.deepClone(decoded) as Operation[], true, false).newDocument;
  } catch {
    throw jsonPatchApplyError();
  }
}
