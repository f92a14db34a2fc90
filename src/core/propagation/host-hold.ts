// The held form of a propagated template on a host that runs controllers
// (ADR 0023), and its inverse. A held Deployment is paused *and* scaled to 0
// upstream: paused alone keeps a ReplicaSet made before a policy selected it
// (kube's deployment controller still scales a paused Deployment to
// spec.replicas), replicas 0 alone gets an empty ReplicaSet at each template
// change; together the host makes none and scales an old one to 0. The
// tenant's own values live in annotations, and the status the tenant reads
// (the engine's aggregated status) in another, because the host's controller
// owns `.status` of every Deployment, held or not.
//
// Who calls what: the engine holds (hold) and releases (release) templates and
// writes the status annotation (withHeldStatus); the gateway shows the tenant
// its own spec (showTenantView, through the kind converter) and keeps a
// tenant's write of a held object held (reholdWrite, setHeldReplicas).
import type { KubeObject } from '../types.ts';

export const HELD_LABEL = 'propagation.warren.dev/held';
export const HELD_STATUS_ANNOTATION = 'propagation.warren.dev/status';
export const REPLICAS_ANNOTATION = 'propagation.warren.dev/replicas';
export const PAUSED_ANNOTATION = 'propagation.warren.dev/paused';
/** Every mark of the held form: the platform's, refused in tenant input and never shown. */
export const HELD_MARKS: readonly string[] = [HELD_LABEL, HELD_STATUS_ANNOTATION, REPLICAS_ANNOTATION, PAUSED_ANNOTATION];

/** Kinds with a held form (apiVersion/kind); StatefulSet, Job, CronJob and DaemonSet are ADR 0023's next rows. */
export function hasHeldForm(obj: Pick<KubeObject, 'apiVersion' | 'kind'>): boolean {
  return obj.apiVersion === 'apps/v1' && obj.kind === 'Deployment';
}

/** The same, by a request's group and resource (the gateway knows the URL before any object). */
export function hasHeldResource(group: string, resource: string): boolean {
  return group === 'apps' && resource === 'deployments';
}

/** Held: carries the label. Only the engine writes it (the gateway refuses it in tenant input). */
export function isHeld(obj: KubeObject): boolean {
  return obj.metadata?.labels?.[HELD_LABEL] === 'true';
}

type Spec = Record<string, unknown>;
export const specOf = (obj: KubeObject): Spec | undefined =>
  (typeof obj.spec === 'object' && obj.spec !== null && !Array.isArray(obj.spec) ? obj.spec as Spec : undefined);

/**
 * The held form of an object in its tenant's (desired) form, upstream names:
 * the tenant's replicas and paused go to annotations, spec holds 0 and paused.
 * `.status` is left as it is (the host's: a write that changed it would make
 * Warren a second writer of it), and so is any status annotation.
 */
export function hold(obj: KubeObject): KubeObject {
  const out = structuredClone(obj);
  const spec: Spec = { ...specOf(out) };
  const annotations: Record<string, string> = { ...out.metadata.annotations };
  // Already marked but not held in full (a write slipped in between): a field still at its held value keeps
  // the tenant's recorded value; one that is not is the newer write's.
  const marked = isHeld(out);
  if (!(marked && spec.replicas === 0)) {
    delete annotations[REPLICAS_ANNOTATION];
    if (typeof spec.replicas === 'number') annotations[REPLICAS_ANNOTATION] = String(spec.replicas);
  }
  if (!(marked && spec.paused === true)) {
    delete annotations[PAUSED_ANNOTATION];
    if (typeof spec.paused === 'boolean') annotations[PAUSED_ANNOTATION] = String(spec.paused);
  }
  out.spec = { ...spec, replicas: 0, paused: true };
  out.metadata = { ...out.metadata, annotations, labels: { ...out.metadata.labels, [HELD_LABEL]: 'true' } };
  return out;
}

/** The tenant's values of the held fields, as the annotations record them (a value Warren would not write reads as absent). */
export function desiredOf(obj: KubeObject): { replicas?: number; paused?: boolean } {
  const annotations = obj.metadata?.annotations ?? {};
  const out: { replicas?: number; paused?: boolean } = {};
  const replicas = annotations[REPLICAS_ANNOTATION];
  if (replicas !== undefined && /^(0|[1-9][0-9]{0,9})$/.test(replicas) && Number(replicas) <= 2147483647) out.replicas = Number(replicas);
  const paused = annotations[PAUSED_ANNOTATION];
  if (paused === 'true' || paused === 'false') out.paused = paused === 'true';
  return out;
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
  }
}

/** Puts the tenant's values back in spec. Mutates. */
function unholdSpec(obj: KubeObject): void {
  const spec = specOf(obj);
  if (!spec) return;
  const desired = desiredOf(obj);
  delete spec.replicas;
  delete spec.paused;
  if (desired.replicas !== undefined) spec.replicas = desired.replicas;
  if (desired.paused !== undefined) spec.paused = desired.paused;
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
  return { ...obj, metadata: { ...obj.metadata, annotations: { ...obj.metadata.annotations, [HELD_STATUS_ANNOTATION]: JSON.stringify(status) } } };
}

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
