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
// Pure; not wired yet (ADR 0023, "State"): the engine's hold/release and the
// gateway's view/write translation are to call these.
import type { KubeObject } from '../types.ts';

export const HELD_LABEL = 'propagation.warren.dev/held';
export const HELD_STATUS_ANNOTATION = 'propagation.warren.dev/status';
const REPLICAS_ANNOTATION = 'propagation.warren.dev/replicas';
const PAUSED_ANNOTATION = 'propagation.warren.dev/paused';
/** Every mark of the held form: the gateway strips and refuses them in tenant input like the tenant label. */
export const HELD_MARKS: readonly string[] = [HELD_LABEL, HELD_STATUS_ANNOTATION, REPLICAS_ANNOTATION, PAUSED_ANNOTATION];

/** Kinds with a held form (apiVersion/kind); StatefulSet, Job, CronJob and DaemonSet are ADR 0023's next rows. */
export function hasHeldForm(obj: Pick<KubeObject, 'apiVersion' | 'kind'>): boolean {
  return obj.apiVersion === 'apps/v1' && obj.kind === 'Deployment';
}

export function isHeld(obj: KubeObject): boolean {
  return obj.metadata.labels?.[HELD_LABEL] === 'true';
}

type Spec = Record<string, unknown>;

/** The held form of a Deployment in its tenant form; the tenant's `.status` goes to the status annotation. */
export function toHeld(obj: KubeObject): KubeObject {
  const out = structuredClone(obj);
  const spec: Spec = { ...(out.spec as Spec | undefined) };
  const annotations: Record<string, string> = { ...out.metadata.annotations };
  if (typeof spec.replicas === 'number') annotations[REPLICAS_ANNOTATION] = String(spec.replicas);
  if (typeof spec.paused === 'boolean') annotations[PAUSED_ANNOTATION] = String(spec.paused);
  if (out.status !== undefined) annotations[HELD_STATUS_ANNOTATION] = JSON.stringify(out.status);
  delete out.status;
  out.spec = { ...spec, replicas: 0, paused: true };
  out.metadata = { ...out.metadata, annotations, labels: { ...out.metadata.labels, [HELD_LABEL]: 'true' } };
  return out;
}

/** The tenant form of a held object (status from the annotation); any other object unchanged. */
export function fromHeld(obj: KubeObject): KubeObject {
  if (!isHeld(obj)) return obj;
  const out = structuredClone(obj);
  const annotations: Record<string, string> = { ...out.metadata.annotations };
  const labels: Record<string, string> = { ...out.metadata.labels };
  const spec: Spec = { ...(out.spec as Spec | undefined) };
  delete spec.replicas;
  delete spec.paused;
  const replicas = annotations[REPLICAS_ANNOTATION];
  // Only Warren writes these; a value that is not what it writes reads as absent rather than as a guess.
  if (replicas !== undefined && /^(0|[1-9][0-9]{0,9})$/.test(replicas)) spec.replicas = Number(replicas);
  const paused = annotations[PAUSED_ANNOTATION];
  if (paused === 'true' || paused === 'false') spec.paused = paused === 'true';
  const status = parseStatus(annotations[HELD_STATUS_ANNOTATION]);
  delete out.status;
  if (status !== undefined) out.status = status;
  for (const mark of HELD_MARKS) delete annotations[mark];
  delete labels[HELD_LABEL];
  out.spec = spec;
  out.metadata = { ...out.metadata, annotations, labels };
  if (Object.keys(annotations).length === 0) delete out.metadata.annotations;
  if (Object.keys(labels).length === 0) delete out.metadata.labels;
  return out;
}

function parseStatus(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
