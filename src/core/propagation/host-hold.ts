// The held form of a propagated template on a host that runs controllers
// (ADR 0023), and its inverse, for every kind of held-kinds.ts (a Deployment
// paused at 0 replicas, a StatefulSet/ReplicaSet/ReplicationController at 0,
// a Job at parallelism 0, a CronJob suspended, a DaemonSet's pods bound to no
// node). The tenant's own values live in annotations, and the status the
// tenant reads (the engine's aggregated status) in another, because the
// host's controllers own `.status` of every workload, held or not.
//
// Who calls what: the engine holds (hold) and releases (release) templates and
// writes the status annotation (withHeldStatus); the gateway shows the tenant
// its own spec (showTenantView, through the kind converter) and keeps a
// tenant's write of a held object held (reholdWrite, setHeldReplicas).
import type { KubeObject } from '../types.ts';
import {
  FIELD_ANNOTATIONS, HELD_KINDS, HELD_LABEL, HELD_NODE_SELECTOR_KEY, REPLICAS_ANNOTATION, heldKindOf, heldKindOfResource, type HeldField,
} from './held-kinds.ts';

export { HELD_LABEL, HELD_NODE_SELECTOR_KEY, PARALLELISM_ANNOTATION, PAUSED_ANNOTATION, REPLICAS_ANNOTATION, SUSPEND_ANNOTATION } from './held-kinds.ts';
export const HELD_STATUS_ANNOTATION = 'propagation.warren.dev/status';
/** Every mark of the held form: the platform's, refused in tenant input and never shown. */
export const HELD_MARKS: readonly string[] = [HELD_LABEL, HELD_STATUS_ANNOTATION, ...FIELD_ANNOTATIONS];

/** Kinds with a held form (apiVersion/kind): the rows of held-kinds.ts. */
export function hasHeldForm(obj: Pick<KubeObject, 'apiVersion' | 'kind'>): boolean {
  return heldKindOf(obj) !== undefined;
}

/** The same, by a request's group and resource (the gateway knows the URL before any object). */
export function hasHeldResource(group: string, resource: string): boolean {
  return heldKindOfResource(group, resource) !== undefined;
}

/** Held: carries the label. Only the engine writes it (the gateway refuses it in tenant input). */
export function isHeld(obj: KubeObject): boolean {
  return obj.metadata?.labels?.[HELD_LABEL] === 'true';
}

type Spec = Record<string, unknown>;
const asRecord = (value: unknown): Spec | undefined =>
  (typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Spec : undefined);
export const specOf = (obj: KubeObject): Spec | undefined => asRecord(obj.spec);

/** The pod template's spec (DaemonSet), or undefined. */
const podSpecOf = (spec: Spec | undefined): Spec | undefined => asRecord(asRecord(spec?.template)?.spec);

/** Held in full: the label, every held field at its held value, the node term where the kind has one. */
export function fullyHeld(obj: KubeObject): boolean {
  const kind = heldKindOf(obj);
  if (!kind || !isHeld(obj)) return false;
  const spec = specOf(obj) ?? {};
  if (!kind.fields.every((f) => spec[f.name] === f.held)) return false;
  return !kind.nodeSelector || asRecord(podSpecOf(spec)?.nodeSelector)?.[HELD_NODE_SELECTOR_KEY] === 'true';
}

/** Adds the node term to a copy of the pod template (spec is a fresh copy; the template is copied on the way). */
function holdNodeSelector(spec: Spec): void {
  const template = asRecord(spec.template) ?? {};
  const podSpec = asRecord(template.spec) ?? {};
  spec.template = { ...template, spec: { ...podSpec, nodeSelector: { ...asRecord(podSpec.nodeSelector), [HELD_NODE_SELECTOR_KEY]: 'true' } } };
}

/** Removes the node term (the tenant cannot write it: held-input.ts); an emptied map goes, as kube omits it. Mutates. */
function releaseNodeSelector(spec: Spec): void {
  const podSpec = podSpecOf(spec);
  const selector = asRecord(podSpec?.nodeSelector);
  if (!podSpec || !selector) return;
  delete selector[HELD_NODE_SELECTOR_KEY];
  if (Object.keys(selector).length === 0) delete podSpec.nodeSelector;
}

const recorded = (field: HeldField, value: unknown): string | undefined =>
  (field.type === 'count' ? (typeof value === 'number' ? String(value) : undefined) : (typeof value === 'boolean' ? String(value) : undefined));

/**
 * The held form of an object in its tenant's (desired) form, upstream names:
 * the tenant's values of the held fields go to annotations, spec holds the
 * held values (a DaemonSet's pod template gets the node term). `.status` is
 * left as it is (the host's: a write that changed it would make Warren a
 * second writer of it), and so is any status annotation. An object of a kind
 * without a held form comes back as an unchanged copy.
 */
export function hold(obj: KubeObject): KubeObject {
  const out = structuredClone(obj);
  const kind = heldKindOf(out);
  if (!kind) return out;
  const spec: Spec = { ...specOf(out) };
  const annotations: Record<string, string> = { ...out.metadata.annotations };
  // Already marked but not held in full (a write slipped in between): a field still at its held value keeps
  // the tenant's recorded value; one that is not is the newer write's.
  const marked = isHeld(out);
  for (const field of kind.fields) {
    if (marked && spec[field.name] === field.held) continue;
    delete annotations[field.annotation];
    const value = recorded(field, spec[field.name]);
    if (value !== undefined) annotations[field.annotation] = value;
  }
  for (const field of kind.fields) spec[field.name] = field.held;
  if (kind.nodeSelector) holdNodeSelector(spec);
  out.spec = spec;
  out.metadata = { ...out.metadata, annotations, labels: { ...out.metadata.labels, [HELD_LABEL]: 'true' } };
  return out;
}

/**
 * The held form of an object being created (a whole object, before the apiserver defaults it): each held
 * field the body omits first gets kube's default (held-kinds.ts), as the apiserver would have stored it, so
 * the tenant's view of the created object shows it. Used by the gateway when a policy already claims what it
 * creates (ADR 0023, hold at create time).
 */
export function holdCreated(obj: KubeObject): KubeObject {
  const kind = heldKindOf(obj);
  if (!kind) return structuredClone(obj);
  const spec: Spec = { ...specOf(obj) };
  for (const field of kind.fields) if (spec[field.name] === undefined && field.kubeDefault !== undefined) spec[field.name] = field.kubeDefault;
  return hold({ ...obj, spec });
}

/** The tenant's values of the held fields, by name. */
export interface DesiredValues { replicas?: number; paused?: boolean; parallelism?: number; suspend?: boolean }

const ALL_FIELDS: readonly HeldField[] = [...new Map(HELD_KINDS.flatMap((k) => k.fields).map((f) => [f.name, f])).values()];

function parseField(field: HeldField, text: string | undefined): number | boolean | undefined {
  if (text === undefined) return undefined;
  if (field.type === 'boolean') return text === 'true' || text === 'false' ? text === 'true' : undefined;
  return /^(0|[1-9][0-9]{0,9})$/.test(text) && Number(text) <= 2147483647 ? Number(text) : undefined;
}

/**
 * The tenant's values of the held fields, as the annotations record them (a value Warren would not write
 * reads as absent). By the object's kind; without one (a bare metadata), every field the annotations name.
 */
export function desiredOf(obj: Pick<KubeObject, 'metadata'> & Partial<Pick<KubeObject, 'apiVersion' | 'kind'>>): DesiredValues {
  const annotations = obj.metadata?.annotations ?? {};
  const fields = heldKindOf(obj)?.fields ?? ALL_FIELDS;
  const out: Record<string, number | boolean> = {};
  for (const field of fields) {
    const value = parseField(field, annotations[field.annotation]);
    if (value !== undefined) out[field.name] = value;
  }
  return out as DesiredValues;
}

/** The status the engine recorded for the tenant, or undefined. */
export function heldStatusOf(obj: KubeObject): Record<string, unknown> | undefined {
  const text = obj.metadata?.annotations?.[HELD_STATUS_ANNOTATION];
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
}

/** Removes every mark from labels, annotations and managedFields (which name the keys they manage). Mutates. */
function stripMarks(obj: KubeObject): void {
  const meta = obj.metadata;
  for (const field of ['labels', 'annotations'] as const) {
    const map = meta[field];
    if (!map) continue;
    for (const mark of HELD_MARKS) delete map[mark];
    if (Object.keys(map).length === 0) delete meta[field];
  }
  for (const entry of meta.managedFields ?? []) {
    const fields = entry.fieldsV1?.['f:metadata'] as Record<string, Record<string, unknown> | undefined> | undefined;
    for (const field of ['f:labels', 'f:annotations']) {
      const map = fields?.[field];
      if (!fields || !map) continue;
      for (const mark of HELD_MARKS) delete map[`f:${mark}`];
      if (Object.keys(map).length === 0) delete fields[field];
    }
    // A DaemonSet's node term, as the engine's managedFields entry names it.
    const podSpec = asRecord(asRecord(asRecord(entry.fieldsV1?.['f:spec'])?.['f:template'])?.['f:spec']);
    const selector = asRecord(podSpec?.['f:nodeSelector']);
    if (podSpec && selector) {
      delete selector[`f:${HELD_NODE_SELECTOR_KEY}`];
      if (Object.keys(selector).length === 0) delete podSpec['f:nodeSelector'];
    }
  }
}

/** Puts the tenant's values back in spec (and takes the node term out). Mutates. */
function unholdSpec(obj: KubeObject): void {
  const spec = specOf(obj);
  const kind = heldKindOf(obj);
  if (!spec || !kind) return;
  const desired: Record<string, unknown> = { ...desiredOf(obj) };
  for (const field of kind.fields) {
    delete spec[field.name];
    if (desired[field.name] !== undefined) spec[field.name] = desired[field.name];
  }
  if (kind.nodeSelector) releaseNodeSelector(spec);
}

/**
 * The tenant's view, in place: a held object shows the tenant's spec and the
 * engine's status (none until the engine wrote one); the marks are never
 * shown, on any object of a held kind. A partial object (Table rows'
 * PartialObjectMetadata: no spec, no status) only loses its marks.
 */
export function showTenantView(obj: KubeObject): void {
  if (isHeld(obj)) {
    const partial = obj.spec === undefined && obj.status === undefined;
    if (!partial) {
      unholdSpec(obj);
      const status = heldStatusOf(obj);
      if (status !== undefined) obj.status = status;
      else delete obj.status;
    }
  }
  stripMarks(obj);
}

/** The tenant's view of an object (a copy); any object not held comes back without marks. */
export function fromHeld(obj: KubeObject): KubeObject {
  const out = structuredClone(obj);
  showTenantView(out);
  return out;
}

/** The upstream object released: the tenant's values back in spec, every mark gone, `.status` (the host's) kept. */
export function release(obj: KubeObject): KubeObject {
  const out = structuredClone(obj);
  if (isHeld(out)) unholdSpec(out);
  stripMarks(out);
  return out;
}

/** The engine's aggregated status recorded for the tenant (a metadata write the host's controllers ignore). */
export function withHeldStatus(obj: KubeObject, status: Record<string, unknown>): KubeObject {
  return { ...obj, metadata: { ...obj.metadata, annotations: { ...obj.metadata.annotations, [HELD_STATUS_ANNOTATION]: heldStatusText(status) } } };
}

/** The status annotation's value alone (the engine patches just that one, without copying the object's annotations). */
export const heldStatusText = (status: Record<string, unknown>): string => JSON.stringify(status);

/**
 * A tenant's write of a held object, made held again: `written` is what the
 * tenant asked for (its spec, upstream names, no marks: the gateway refuses
 * them), `live` the stored object. The result carries the tenant's values in
 * the annotations, the engine's status annotation and the host's `.status`
 * from `live`, so the write changes neither status.
 */
export function reholdWrite(written: KubeObject, live: KubeObject): KubeObject {
  const out = hold(written);
  const status = live.metadata.annotations?.[HELD_STATUS_ANNOTATION];
  if (status !== undefined) out.metadata.annotations = { ...out.metadata.annotations, [HELD_STATUS_ANNOTATION]: status };
  if (live.status !== undefined) out.status = structuredClone(live.status);
  else delete out.status;
  return out;
}

/** A held object with the tenant's replicas set to `replicas` (the scale subresource of a held object). */
export function setHeldReplicas(live: KubeObject, replicas: number): KubeObject {
  return { ...live, metadata: { ...live.metadata, annotations: { ...live.metadata.annotations, [REPLICAS_ANNOTATION]: String(replicas) } } };
}
