// RFC 7386 JSON merge patch: objects merge recursively, null deletes, anything
// else (arrays included) replaces. kube-apiserver (evanphx/json-patch
// MergePatch) rejects a patch that is not a JSON object with 400 "Invalid JSON
// Patch" rather than replacing the whole document as the RFC allows.
import { badRequest } from '../api-error.ts';
import { isObject } from '../types.ts';
import { cloneJson, setOwn } from './json-value.ts';

export function mergeObjects(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = cloneJson(target);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete out[key];
    } else if (isObject(value)) {
      const current = out[key];
      setOwn(out, key, mergeObjects(isObject(current) ? current : {}, value));
    } else {
      setOwn(out, key, cloneJson(value));
    }
  }
  return out;
}

/** Applies a merge patch to a copy of `doc`; never mutates either. */
export function applyMergePatch<T extends Record<string, unknown>>(doc: T, patch: unknown): T {
  if (!isObject(patch)) throw badRequest('Invalid JSON Patch');
  return mergeObjects(doc, patch) as T;
}
