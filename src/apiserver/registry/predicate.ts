// Turns label and field selector strings into one predicate over objects,
// refusing field labels the resource does not support, as kube-apiserver does.
import { badRequest } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import { toEventsV1 } from '../../core/resources/event-versions.ts';
import { isEventsV1 } from './catalog.ts';
import { parseLabelSelector, matchesLabels, parseFieldSelector, matchesFields, fieldValue } from '../../core/selectors/index.ts';

export type Predicate = (obj: KubeObject) => boolean;

export interface CompiledPredicate {
  matches: Predicate;
  /** True when no selector narrows the result (kube only then reports remainingItemCount). */
  everything: boolean;
  /**
   * True when the selector reads nothing but metadata.name, metadata.namespace and metadata.labels:
   * an object reduced to those (`metadataView`) matches exactly as the whole object does.
   */
  metadataOnly: boolean;
}

const METADATA_PATHS = new Set(['.metadata.name', '.metadata.namespace']);

/** The part of an object a metadata-only predicate reads. */
export function metadataView(name: string, namespace: string, labels: Record<string, string>): KubeObject {
  return { metadata: { name, ...(namespace ? { namespace } : {}), labels } } as KubeObject;
}

export function compilePredicate(def: ResourceDef, labelSelector?: string, fieldSelector?: string): CompiledPredicate {
  const labels = labelSelector ? parseLabelSelector(labelSelector) : [];
  const fields = fieldSelector ? parseFieldSelector(fieldSelector) : [];
  const paths: Record<string, string> = { 'metadata.name': '.metadata.name', ...(def.fieldSelectors ?? {}) };
  if (def.namespaced) paths['metadata.namespace'] = '.metadata.namespace';
  for (const requirement of fields) {
    if (requirement.field in paths) continue;
    // Kinds with their own field-label conversion answer one way; the rest fall back to apimachinery's default.
    if (def.fieldSelectors) throw badRequest(`field label not supported: ${requirement.field}`);
    throw badRequest(`"${requirement.field}" is not a known field selector: only "metadata.name", "metadata.namespace"`);
  }
  const getField = (obj: KubeObject) => (field: string): string | undefined => {
    const path = paths[field];
    return path === undefined ? undefined : fieldValue(obj, path) ?? '';
  };
  if (labels.length === 0 && fields.length === 0) return { matches: () => true, everything: true, metadataOnly: true };
  // events.k8s.io Events are stored as core Events: their field paths (regarding...) read the converted form.
  const asServed = isEventsV1(def) ? (obj: KubeObject) => toEventsV1(obj) : (obj: KubeObject) => obj;
  const metadataOnly = !isEventsV1(def) && fields.every((f) => METADATA_PATHS.has(paths[f.field] ?? ''));
  return {
    everything: false,
    metadataOnly,
    matches: (obj) => matchesLabels(labels, obj.metadata.labels ?? {}) && (fields.length === 0 || matchesFields(fields, getField(asServed(obj)))),
  };
}
