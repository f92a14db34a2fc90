// Tenant input to an object of a held kind (ADR 0023), checked before the
// gateway holds it: the marks are the engine's (a tenant that wrote them could
// steer what it is shown and what is propagated), and the held fields' values
// never reach the upstream's validation (it sees 0 and true), so they are
// checked here as kube would.
import type { KubeObject, StatusCause } from '../types.ts';
import { invalid, type ApiError } from '../api-error.ts';
import { HELD_MARKS, specOf } from './host-hold.ts';

/** The first mark found on an object's own labels or annotations (tenant input must carry none), or undefined. */
export function heldMarkIn(obj: KubeObject): string | undefined {
  const meta = obj.metadata;
  if (typeof meta !== 'object' || meta === null) return undefined;
  for (const map of [meta.labels, meta.annotations]) {
    if (typeof map !== 'object' || map === null) continue;
    const found = HELD_MARKS.find((mark) => Object.prototype.hasOwnProperty.call(map, mark));
    if (found) return found;
  }
  return undefined;
}

/**
 * The tenant's values of the held fields, checked as the upstream would check them: held, the upstream
 * only sees 0 and true, so a negative count or a paused that is not a boolean would pass unseen (and then
 * read as absent). kube's messages (a type error is kube's 400 at decoding; here it is a 422 on the field).
 */
export function heldFieldsInvalid(obj: KubeObject): ApiError | null {
  const spec = specOf(obj) ?? {};
  const causes: StatusCause[] = [];
  const { replicas, paused } = spec;
  if (replicas !== undefined && replicas !== null) {
    if (typeof replicas !== 'number' || !Number.isInteger(replicas)) causes.push({ type: 'FieldValueInvalid', field: 'spec.replicas', message: `Invalid value: ${JSON.stringify(replicas)}: must be an integer` });
    else if (replicas < 0) causes.push({ type: 'FieldValueInvalid', field: 'spec.replicas', message: `Invalid value: ${replicas}: must be greater than or equal to 0` });
    else if (replicas > 2147483647) causes.push({ type: 'FieldValueInvalid', field: 'spec.replicas', message: `Invalid value: ${replicas}: must be less than or equal to 2147483647` });
  }
  if (paused !== undefined && paused !== null && typeof paused !== 'boolean') causes.push({ type: 'FieldValueInvalid', field: 'spec.paused', message: `Invalid value: ${JSON.stringify(paused)}: must be a boolean` });
  return causes.length === 0 ? null : invalid({ group: 'apps', kind: obj.kind ?? 'Deployment', name: obj.metadata?.name ?? '' }, causes);
}
