// The managedFields bookkeeping of the last write of each large object, kept
// for the next write of that object (ADR 0026): an update of the largest
// ConfigMap spent over half its CPU re-walking the object it had just written
// and parsing every manager's fieldsV1 back into sets. The store keeps JSON
// text, so nothing parsed survives between writes otherwise.
//
// An entry is valid only for the exact stored object it was computed for: it
// is keyed by the object's key and looked up with the resourceVersion of the
// object the next write reads (the store's revision is global and monotonic,
// so one key at one resourceVersion is one stored text). Small objects are not
// kept: walking them again costs less than keeping them.
import type { CarriedFields } from '../../core/patch/track-update.ts';
import type { ObjectKey } from '../store/store.ts';

/** Below this many tracked members, a write's bookkeeping is cheap enough to redo. */
export const CARRY_MIN_MEMBERS = 1_000;
/** Objects kept at once (each entry holds its object's field paths: a few MB at 20,000 members). */
const LIMIT = 16;

export class CarriedFieldsCache {
  private readonly entries = new Map<string, { resourceVersion: string; carried: CarriedFields }>();

  get(key: ObjectKey, resourceVersion: string | undefined): CarriedFields | undefined {
    // Reading does not change it (the bookkeeping copies the sets it edits): a dry run or a failed
    // write leaves it valid for the next one.
    const hit = this.entries.get(idOf(key));
    return hit?.resourceVersion === resourceVersion ? hit?.carried : undefined;
  }

  put(key: ObjectKey, resourceVersion: string | undefined, members: number, carry: (() => CarriedFields) | undefined): void {
    const id = idOf(key);
    this.entries.delete(id);
    if (resourceVersion === undefined || carry === undefined || members < CARRY_MIN_MEMBERS) return;
    this.entries.set(id, { resourceVersion, carried: carry() });
    if (this.entries.size > LIMIT) this.entries.delete(this.entries.keys().next().value ?? '');
  }
}

function idOf(key: ObjectKey): string {
  return `${key.resource}\u0000${key.namespace}\u0000${key.name}`;
}
