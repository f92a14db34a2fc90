// What the engine keeps of each Work (issue 18): a Work holds a whole manifest,
// and at 10,000 templates on 10 members the informer held 100,000 of them,
// parsed (1.3 GiB of RSS). The engine reads of a Work only its identity and
// marks (labels, annotations: whose slot it is), its status (the Applied
// condition it keeps) and whether its spec is the one it would write: a hash
// of the spec answers that. managedFields go too (kept by the server on an
// update that omits them), and creationTimestamp (reset from the stored copy).
import { createHash } from 'node:crypto';
import type { KubeObject, ObjectMeta } from '../../core/types.ts';
import type { Work } from '../../core/propagation/karmada-types.ts';
import { viewStrings } from './interned-strings.ts';

export interface WorkView extends KubeObject {
  metadata: ObjectMeta;
  status?: Work['status'];
  /** specHash(spec) of the Work as stored: what ensureWork compares instead of the spec. */
  specHash: string;
}

/**
 * The informer's transform: a parsed Work in, its view out (the manifest is dropped with the rest of
 * the spec). `knownHash`: the spec's hash when the caller knows it (a status write's answer).
 */
export function workView(work: Work, knownHash?: string): WorkView {
  // Built by assignment, not from conditional spreads: an object literal of `...(x ? { x } : {})` parts
  // got a hidden class of its own per view (~200 B each, measured), assignments share one chain of them.
  // ownerReferences and finalizers too: an update of the Work sends this metadata back whole.
  const view: WorkView = { metadata: pickMeta(work.metadata, WORK_META), specHash: '' };
  if (work.apiVersion) view.apiVersion = viewStrings.string(work.apiVersion);
  if (work.kind) view.kind = viewStrings.string(work.kind);
  if (work.status) view.status = viewStrings.shared(work.status as Work['status']);
  // The same manifest on every cluster (Duplicated) is the same hash: one copy of it.
  view.specHash = viewStrings.string(knownHash ?? specHash(work.spec));
  return view;
}

const WORK_META = ['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'deletionTimestamp', 'labels', 'annotations', 'finalizers', 'ownerReferences'] as const;

/**
 * The metadata fields named, as they are (absent stays absent). The rest (managedFields above all,
 * creationTimestamp) the engine never reads, and an update that omits them leaves them as stored.
 */
export function pickMeta(meta: ObjectMeta, keys: readonly (keyof ObjectMeta & string)[]): ObjectMeta {
  const out: ObjectMeta = {};
  for (const key of keys) {
    const value = meta[key];
    if (value === undefined) continue;
    // Shared with the object's siblings, frozen (interned-strings.ts); uid and resourceVersion are its own.
    out[key] = key === 'uid' || key === 'resourceVersion' ? value : viewStrings.shared(value);
  }
  return out;
}

/**
 * A digest of a JSON value that ignores key order (the server may store a spec with its keys in
 * another order than the engine built them, as jsonEqual ignores it) and drops undefined members.
 */
export function specHash(spec: unknown): string {
  return createHash('sha1').update(canonicalJson(spec ?? null)).digest('base64');
}

// Keys sorted, text built by concatenation: about twice as fast as entries/sort/map/join per level.
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += `${i > 0 ? ',' : ''}${value[i] === undefined ? 'null' : canonicalJson(value[i])}`;
    return `${text}]`;
  }
  const obj = value as Record<string, unknown>;
  let text = '{';
  let first = true;
  for (const key of Object.keys(obj).sort()) {
    const v = obj[key];
    if (v === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${canonicalJson(v)}`;
    first = false;
  }
  return `${text}}`;
}
