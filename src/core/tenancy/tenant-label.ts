// The tenant label: forced onto every object (and every pod template, so the
// pods, jobs and claims controllers make from it carry it too) on the way in,
// removed on the way out. Whatever the tenant sends under that key is replaced.
// A label map may hold thousands of entries (ADR 0026): nothing here copies one
// only to find the label absent, and the way out deletes in place (the objects
// translated out are the caller's own parse or copy), so the cost is O(1) per
// object instead of one copy of every label per step.
import { isObject, type KubeObject } from '../types.ts';
import { TENANT_LABEL } from './tenant-id.ts';
import { invalid, type ApiError } from '../api-error.ts';

/** A copy of `labels` with the label set (never mutates: the map may be shared with the tenant's view of the write). */
export function forceTenantLabel(id: string, labels: Record<string, string> | undefined): Record<string, string> {
  return { ...(labels ?? {}), [TENANT_LABEL]: id };
}

/** Removes the label, copying only when it is there; undefined when nothing is left, so an object sent without labels comes back without. */
export function stripTenantLabel(labels: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!labels) return undefined;
  if (!Object.hasOwn(labels, TENANT_LABEL)) return hasAnyKey(labels) ? labels : undefined;
  const { [TENANT_LABEL]: _removed, ...rest } = labels;
  return hasAnyKey(rest) ? rest : undefined;
}

/** Removes the label IN PLACE (for objects being translated out, which are the caller's to mutate); undefined when nothing is left. */
export function dropTenantLabel(labels: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!labels) return undefined;
  if (Object.hasOwn(labels, TENANT_LABEL)) delete labels[TENANT_LABEL];
  return hasAnyKey(labels) ? labels : undefined;
}

/** Object.keys(o).length > 0 without building the key array of a map of thousands. */
function hasAnyKey(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

/** Applies `map` to `holder.metadata.labels` when holder.metadata is an object. */
export function mapTemplateLabels(holder: unknown, map: (labels: Record<string, string> | undefined) => Record<string, string> | undefined): void {
  if (!isObject(holder) || !isObject(holder.metadata)) return;
  const labels = map(holder.metadata.labels as Record<string, string> | undefined);
  if (labels === undefined) delete holder.metadata.labels;
  else holder.metadata.labels = labels;
}

/**
 * Warren's bound on an object's labels, keys and values together: kube's bound
 * on annotations (256 KiB), which kube does not put on labels. Every label is
 * copied, matched and serialised by the gateway, its cache and the engine's
 * informers; without a bound a 200,000-label ConfigMap held the gateway for
 * seconds (break 5, ADR 0026).
 */
export const MAX_LABELS_BYTES = 256 * 1024;

/** kube's FieldValueTooLong, as for annotations, when the labels exceed MAX_LABELS_BYTES; else null. */
export function labelsTooLong(obj: KubeObject): ApiError | null {
  const labels = obj.metadata.labels;
  if (!isObject(labels)) return null;
  let total = 0;
  for (const key in labels) {
    const value = labels[key];
    total += key.length + (typeof value === 'string' ? value.length : 0);
    if (total > MAX_LABELS_BYTES) {
      return invalid({ kind: obj.kind ?? '', name: obj.metadata.name ?? obj.metadata.generateName ?? '' }, [{
        type: 'FieldValueTooLong', field: 'metadata.labels', message: `Too long: must have at most ${MAX_LABELS_BYTES} bytes`,
      }]);
    }
  }
  return null;
}

/** On the way in: sets the label on the object itself (422 when the tenant's labels are too long). Mutates and returns obj. */
export function labelObject(id: string, obj: KubeObject): KubeObject {
  const tooLong = labelsTooLong(obj);
  if (tooLong) throw tooLong;
  obj.metadata.labels = forceTenantLabel(id, obj.metadata.labels);
  return obj;
}

/** On the way out: removes the label from the object's own label map, in place. Mutates and returns obj. */
export function unlabelObject(obj: KubeObject): KubeObject {
  const labels = dropTenantLabel(obj.metadata.labels);
  if (labels === undefined) delete obj.metadata.labels;
  else obj.metadata.labels = labels;
  return obj;
}

/**
 * managedFields record label keys (`f:tenancy.warren.dev/tenant`): remove them,
 * or the tenant would see the label's name there.
 */
export function stripTenantLabelFromManagedFields(obj: KubeObject): void {
  for (const entry of obj.metadata.managedFields ?? []) {
    const meta = entry.fieldsV1?.['f:metadata'];
    if (!isObject(meta) || !isObject(meta['f:labels'])) continue;
    delete meta['f:labels'][`f:${TENANT_LABEL}`];
    if (!hasAnyKey(meta['f:labels'])) delete meta['f:labels'];
  }
}
