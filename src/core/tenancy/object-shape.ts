// The shape of an object's metadata, checked before translation walks it. A
// tenant body like {"metadata": {"ownerReferences": {}}} would otherwise crash
// the translator (found by fuzzing) and come back as a 500; kube-apiserver
// refuses it while decoding, with a 400. Only what translation reads is
// checked: the upstream validates the rest in its own words.
import { isObject } from '../types.ts';

const STRING_FIELDS = ['name', 'namespace', 'generateName'] as const;
const STRING_MAPS = ['labels', 'annotations'] as const;
const OBJECT_LISTS = ['ownerReferences', 'managedFields'] as const;
/** Fields of ownerReferences and managedFields entries that translation reads as strings. */
const ENTRY_STRINGS = ['apiVersion', 'kind', 'name'] as const;

/** Why `obj.metadata` cannot be translated (kube's decoding words), or undefined when it can. */
export function metadataShapeError(obj: unknown): string | undefined {
  if (!isObject(obj)) return 'the object is not a JSON object';
  for (const field of ['apiVersion', 'kind'] as const) {
    if (obj[field] !== undefined && typeof obj[field] !== 'string') return `json: cannot unmarshal ${field} into Go struct field of type string`;
  }
  const meta = obj.metadata;
  if (meta === undefined || meta === null) return undefined;
  if (!isObject(meta)) return 'json: cannot unmarshal metadata into Go struct field of type v1.ObjectMeta';
  for (const field of STRING_FIELDS) {
    if (meta[field] !== undefined && meta[field] !== null && typeof meta[field] !== 'string') return `json: cannot unmarshal metadata.${field} into Go struct field ObjectMeta.metadata.${field} of type string`;
  }
  for (const field of STRING_MAPS) {
    const map = meta[field];
    if (map === undefined || map === null) continue;
    if (!isObject(map) || !allStrings(map)) return `json: cannot unmarshal metadata.${field} into Go struct field ObjectMeta.metadata.${field} of type map[string]string`;
  }
  for (const field of OBJECT_LISTS) {
    const list = meta[field];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list) || list.some((entry) => !isObject(entry))) return `json: cannot unmarshal metadata.${field} into Go struct field ObjectMeta.metadata.${field} of type array of objects`;
    for (const entry of list as Record<string, unknown>[]) {
      for (const key of ENTRY_STRINGS) {
        // An owner reference needs all three (kube: Required value); a managedFields entry may leave them out.
        const optional = field === 'managedFields' && (entry[key] === undefined || entry[key] === null);
        if (!optional && typeof entry[key] !== 'string') return `json: cannot unmarshal metadata.${field}.${key} into Go struct field of type string`;
      }
    }
  }
  return undefined;
}

/** Every value a string; a loop, not Object.values(): a label map may hold thousands (ADR 0026). */
function allStrings(map: Record<string, unknown>): boolean {
  for (const key in map) if (typeof map[key] !== 'string') return false;
  return true;
}
