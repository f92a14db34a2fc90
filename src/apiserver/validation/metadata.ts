// ObjectMeta checks shared by every kind (apimachinery ValidateObjectMeta and
// ValidateObjectMetaUpdate), with the kind-specific name rule passed in.
import type { ObjectMeta, StatusCause } from '../../core/types.ts';
import { FIELD_IMMUTABLE, forbidden, invalidValue, required, tooLong } from './field-errors.ts';
import { isDNS1123Label, isQualifiedName, isValidLabelValue } from './name-rules.ts';
import type { NameRule } from './object-name.ts';

export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

const utf8 = new TextEncoder();
const byteLength = (s: string): number => utf8.encode(s).length;

export function validateLabels(labels: unknown, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!labels || typeof labels !== 'object') return causes;
  for (const [k, v] of Object.entries(labels as Record<string, unknown>)) {
    for (const msg of isQualifiedName(k)) causes.push(invalidValue(field, k, msg));
    const value = typeof v === 'string' ? v : String(v);
    for (const msg of isValidLabelValue(value)) causes.push(invalidValue(field, value, msg));
  }
  return causes;
}

export function validateAnnotations(annotations: unknown, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!annotations || typeof annotations !== 'object') return causes;
  let total = 0;
  for (const [k, v] of Object.entries(annotations as Record<string, unknown>)) {
    // kube lower-cases annotation keys before the syntax check, so "Foo/Bar" passes.
    for (const msg of isQualifiedName(k.toLowerCase())) causes.push(invalidValue(field, k, msg));
    total += byteLength(k) + byteLength(typeof v === 'string' ? v : String(v));
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) causes.push(tooLong(field, TOTAL_ANNOTATION_SIZE_LIMIT));
  return causes;
}

/** `core` adds the "standard or fully qualified" rule on top of the generic syntax check. */
export function validateFinalizers(finalizers: unknown, field: string, builtin: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!Array.isArray(finalizers)) return causes;
  for (const f of finalizers) {
    const name = String(f);
    const msgs = isQualifiedName(name);
    for (const msg of msgs) causes.push(invalidValue(field, name, msg));
    if (msgs.length === 0 && builtin && !name.includes('/') && !STANDARD_FINALIZERS.has(name)) {
      causes.push(invalidValue(field, name, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  }
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    causes.push(invalidValue(field, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return causes;
}

function validateOwnerReferences(refs: unknown, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!Array.isArray(refs)) return causes;
  for (const raw of refs) {
    const ref = (raw ?? {}) as Record<string, unknown>;
    const apiVersion = String(ref.apiVersion ?? '');
    const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
    if (!version) causes.push(invalidValue(`${field}.apiVersion`, apiVersion, 'version must not be empty'));
    if (!ref.kind) causes.push(invalidValue(`${field}.kind`, String(ref.kind ?? ''), 'kind must not be empty'));
    if (!ref.name) causes.push(invalidValue(`${field}.name`, String(ref.name ?? ''), 'name must not be empty'));
    if (!ref.uid) causes.push(invalidValue(`${field}.uid`, String(ref.uid ?? ''), 'uid must not be empty'));
  }
  return causes;
}

export interface MetaOptions {
  namespaced: boolean;
  nameRule: NameRule;
  /** Built-in kinds also apply core's finalizer-name rule. */
  builtin: boolean;
}

export function validateObjectMeta(meta: ObjectMeta | undefined, opts: MetaOptions, base = 'metadata'): StatusCause[] {
  const m = meta ?? {};
  const causes: StatusCause[] = [];
  if (m.generateName) {
    for (const msg of opts.nameRule(m.generateName, true)) causes.push(invalidValue(`${base}.generateName`, m.generateName, msg));
  }
  if (!m.name) causes.push(required(`${base}.name`, 'name or generateName is required'));
  else for (const msg of opts.nameRule(m.name, false)) causes.push(invalidValue(`${base}.name`, m.name, msg));
  if (opts.namespaced) {
    if (!m.namespace) causes.push(required(`${base}.namespace`));
    else for (const msg of isDNS1123Label(m.namespace)) causes.push(invalidValue(`${base}.namespace`, m.namespace, msg));
  } else if (m.namespace) {
    causes.push(forbidden(`${base}.namespace`, 'not allowed on this type'));
  }
  causes.push(...validateMetaBody(m, base, opts.builtin));
  return causes;
}

function validateMetaBody(m: ObjectMeta, base: string, builtin: boolean): StatusCause[] {
  return [
    ...validateLabels(m.labels, `${base}.labels`),
    ...validateAnnotations(m.annotations, `${base}.annotations`),
    ...validateOwnerReferences(m.ownerReferences, `${base}.ownerReferences`),
    ...validateFinalizers(m.finalizers, `${base}.finalizers`, builtin),
  ];
}

export function validateObjectMetaUpdate(meta: ObjectMeta | undefined, old: ObjectMeta | undefined, builtin: boolean): StatusCause[] {
  const m = meta ?? {};
  const o = old ?? {};
  const causes: StatusCause[] = [];
  if (o.deletionTimestamp) {
    const added = (m.finalizers ?? []).filter((f) => !(o.finalizers ?? []).includes(f));
    if (added.length > 0) {
      const goList = `[]string{${[...new Set(added)].sort().map((f) => JSON.stringify(f)).join(', ')}}`;
      causes.push(forbidden('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers ${goList}`));
    }
  }
  for (const f of ['name', 'namespace', 'uid', 'creationTimestamp'] as const) {
    if ((m[f] ?? '') !== (o[f] ?? '')) causes.push(invalidValue(`metadata.${f}`, m[f] ?? '', FIELD_IMMUTABLE));
  }
  causes.push(...validateMetaBody(m, 'metadata', builtin));
  return causes;
}
