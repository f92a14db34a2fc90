// Tenant input to an object of a held kind (ADR 0023), checked before the
// gateway holds it: the marks are the engine's (a tenant that wrote them could
// steer what it is shown and what is propagated), and the held fields' values
// never reach the upstream's validation (it sees the held values), so they are
// checked here as kube would.
import type { KubeObject, StatusCause } from '../types.ts';
import { invalid, type ApiError } from '../api-error.ts';
import { HELD_MARKS, specOf } from './host-hold.ts';
import { HELD_NODE_SELECTOR_KEY, heldKindOf } from './held-kinds.ts';

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  (typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined);

/**
 * The first mark found on an object's own labels or annotations, or in a DaemonSet's pod template
 * nodeSelector (the held term: the tenant's view never has it, so a tenant that wrote it would see
 * its DaemonSet run nowhere and the term vanish), or undefined. Tenant input must carry none.
 */
export function heldMarkIn(obj: KubeObject): string | undefined {
  const meta = obj.metadata;
  if (typeof meta !== 'object' || meta === null) return undefined;
  for (const map of [meta.labels, meta.annotations]) {
    if (typeof map !== 'object' || map === null) continue;
    const found = HELD_MARKS.find((mark) => Object.prototype.hasOwnProperty.call(map, mark));
    if (found) return found;
  }
  if (heldKindOf(obj)?.nodeSelector) {
    const selector = asRecord(asRecord(asRecord(specOf(obj)?.template)?.spec)?.nodeSelector);
    if (selector && Object.prototype.hasOwnProperty.call(selector, HELD_NODE_SELECTOR_KEY)) return `nodeSelector ${HELD_NODE_SELECTOR_KEY}`;
  }
  return undefined;
}

const INT32_MAX = 2147483647;

/**
 * The tenant's values of the held fields, checked as the upstream would check them: held, the upstream
 * only sees the held values, so a negative count or a suspend that is not a boolean would pass unseen
 * (and then read as absent). kube's messages (a type error is kube's 400 at decoding; here it is a 422
 * on the field).
 */
export function heldFieldsInvalid(obj: KubeObject): ApiError | null {
  const kind = heldKindOf(obj);
  if (!kind) return null;
  const spec = specOf(obj) ?? {};
  const causes: StatusCause[] = [];
  for (const field of kind.fields) {
    const value = spec[field.name];
    if (value === undefined || value === null) continue;
    const path = `spec.${field.name}`;
    if (field.type === 'boolean') {
      if (typeof value !== 'boolean') causes.push({ type: 'FieldValueInvalid', field: path, message: `Invalid value: ${JSON.stringify(value)}: must be a boolean` });
    } else if (typeof value !== 'number' || !Number.isInteger(value)) {
      causes.push({ type: 'FieldValueInvalid', field: path, message: `Invalid value: ${JSON.stringify(value)}: must be an integer` });
    } else if (value < 0) {
      causes.push({ type: 'FieldValueInvalid', field: path, message: `Invalid value: ${value}: must be greater than or equal to 0` });
    } else if (value > INT32_MAX) {
      causes.push({ type: 'FieldValueInvalid', field: path, message: `Invalid value: ${value}: must be less than or equal to ${INT32_MAX}` });
    }
  }
  return causes.length === 0 ? null : invalid({ group: kind.group, kind: obj.kind ?? kind.kind, name: obj.metadata?.name ?? '' }, causes);
}
