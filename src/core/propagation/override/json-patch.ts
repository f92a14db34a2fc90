// JSON patch as Karmada applies it (evanphx/json-patch): a path that does not
// resolve fails the whole override instead of being created on the way.
import jsonpatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { OverriderFailure } from './overrider-failure.ts';

export interface PatchOp { op: 'add' | 'remove' | 'replace'; path: string; value?: unknown }

/** Applies `ops` to `doc` in place, returning the (possibly new root) document. */
export function patchInPlace<T>(doc: T, ops: readonly PatchOp[], field: string | ((index: number) => string)): T {
  if (ops.length === 0) return doc;
  const at = (i: number): string => (typeof field === 'string' ? field : field(i));
  for (const [i, op] of ops.entries()) {
    if (op.op !== 'add' && op.op !== 'remove' && op.op !== 'replace') {
      throw new OverriderFailure(at(i), `Unexpected kind: ${String(op.op)}`);
    }
    if (op.path !== '' && !op.path.startsWith('/')) {
      throw new OverriderFailure(`${at(i)}.path`, `invalid path ${JSON.stringify(op.path)}: a JSON pointer must start with "/"`);
    }
  }
  // One operation at a time, so a failure names the operation at fault (fast-json-patch's
  // up-front validation reports index 0 for all). The caller works on a copy, so a
  // half-applied patch is thrown away with the error.
  let out = doc;
  for (const [i, o] of ops.entries()) {
    const operation = (o.op === 'remove' ? { op: o.op, path: o.path } : { op: o.op, path: o.path, value: jsonpatch.deepClone(o.value ?? null) }) as Operation;
    try {
      out = jsonpatch.applyPatch(out, [operation], true, true).newDocument;
    } catch (err) {
      throw new OverriderFailure(at(i), describe(err, o));
    }
  }
  return out;
}

function describe(err: unknown, op: PatchOp): string {
  const e = err as { name?: string; message?: string };
  if (e.name === 'OPERATION_PATH_UNRESOLVABLE' || e.name === 'OPERATION_PATH_CANNOT_ADD') {
    return `${op.op} operation does not apply: doc is missing path: ${JSON.stringify(op.path)}`;
  }
  return (e.message ?? String(err)).split('\n')[0] ?? 'json patch failed';
}
