// Copies of an object that translation (object-translation.ts) may mutate
// without touching the original, at a cost that does not grow with what
// translation never touches. The gateway needs two per write: the tenant's view
// (kept for admission while the body itself is translated upstream) and the
// read-back check (can the tenant see what is about to be stored). Both were
// structuredClone()s: with 10,000 labels and 9,000 data keys, two deep copies
// of every member per write, each a synchronous step of tens of milliseconds
// (ADR 0026).
//
// What translation writes, in either direction, and so what is copied here:
// - top-level apiVersion (a string: reassigned on the copy's own shell);
// - metadata's namespace, name, generateName (strings, same);
// - metadata.labels: replaced on the way in (forceTenantLabel copies), deleted
//   from in place on the way out (unlabelObject);
// - metadata.ownerReferences: replaced by new arrays of new entries both ways;
// - metadata.managedFields: entries' apiVersion on the way in, fieldsV1 on the
//   way out (the tenant label's key) and the list filtered;
// - whatever a kind converter (kind-converters.ts) rewrites: spec, subjects,
//   roleRef, templates, involvedObject... Every non-metadata member of a kind
//   that has a converter is deep-copied.
// Never written: metadata.annotations, and every non-metadata member of a kind
// without a converter (a ConfigMap's data, a custom resource's spec): shared.
import type { KubeObject, ObjectMeta } from '../types.ts';
import { isObject } from '../types.ts';
import { KIND_CONVERTERS } from './kind-converters.ts';

/** Kind names that have a converter in any group: matched by name alone, so a copy errs towards deep. */
const CONVERTED_KINDS: ReadonlySet<string> = new Set([...KIND_CONVERTERS.keys()].map((key) => key.slice(key.indexOf('/') + 1)));

export interface TranslationCopyOptions {
  /**
   * For a copy only asked whether the tenant could read it back
   * (toTenantObject(...) !== undefined): labels and managedFields never decide
   * that, so they are left out instead of copied. Without it, the copy is for
   * the way IN only (toUpstreamObject on either the copy or the original): it
   * shares the label map and fieldsV1, which the way out writes to.
   */
  readBackOnly?: boolean;
}

/** A copy that translation upstream (or, with readBackOnly, the read-back check) may mutate while `obj` stays as it is. */
export function translationCopy(obj: KubeObject, options: TranslationCopyOptions = {}): KubeObject {
  const deep = typeof obj.kind !== 'string' || CONVERTED_KINDS.has(obj.kind);
  const copy: KubeObject = { ...obj, metadata: {} };
  if (deep) {
    for (const key of Object.keys(obj)) {
      if (key !== 'metadata') copy[key] = structuredClone(obj[key]);
    }
  }
  if (!isObject(obj.metadata)) {
    // Malformed (the shape check refuses it): a deep copy, so nothing can be shared by mistake.
    copy.metadata = structuredClone(obj.metadata);
    return copy;
  }
  copy.metadata = metadataCopy(obj.metadata, options.readBackOnly === true);
  return copy;
}

function metadataCopy(meta: ObjectMeta, readBackOnly: boolean): ObjectMeta {
  const out: ObjectMeta = { ...meta };
  if (readBackOnly) {
    delete out.labels;
    delete out.managedFields;
  } else if (Array.isArray(meta.managedFields)) {
    // The way in rewrites each entry's apiVersion: the entries are copied, their fieldsV1 shared.
    out.managedFields = meta.managedFields.map((entry) => (isObject(entry) ? { ...entry } : entry));
  }
  return out;
}
