// Which kinds have a held form (ADR 0023), and what holds each: a spec field
// set to a value that makes the host's controller run nothing, the tenant's
// own value kept in an annotation. Data, not code paths: the pair in
// host-hold.ts, the input checks, the Table cells and the gateway's write
// paths all read this table. Each row comes from kube 1.20's controllers
// (checked on a real host with kube-controller-manager:
// test/real/host-hold-kinds.test.ts):
// - Deployment: paused *and* 0 replicas (paused alone keeps an older
//   ReplicaSet at spec.replicas; 0 alone makes an empty ReplicaSet at every
//   template change).
// - StatefulSet, ReplicaSet, ReplicationController: 0 replicas (existing pods
//   are scaled away).
// - Job: parallelism 0 (`suspend` is 1.21+; with parallelism 0 the job
//   controller wants no active pod and deletes running ones).
// - CronJob: suspend (no new Job is made; a Job made before the hold runs on).
// - DaemonSet: no count to zero. Its pod template gets a nodeSelector term
//   on a label no node carries (nodes are the platform's; a tenant cannot
//   label them, and Warren's domain is not a label any kubelet sets), so the
//   daemon controller finds no node for it and deletes the pods it ran. The
//   tenant's nodeSelector is kept as it is beside the term, which is only
//   added and removed, so no annotation is needed.
export const HELD_LABEL = 'propagation.warren.dev/held';
/** The nodeSelector term of a held DaemonSet's pod template: the same key as the label, value `true`. */
export const HELD_NODE_SELECTOR_KEY = HELD_LABEL;
export const REPLICAS_ANNOTATION = 'propagation.warren.dev/replicas';
export const PAUSED_ANNOTATION = 'propagation.warren.dev/paused';
export const PARALLELISM_ANNOTATION = 'propagation.warren.dev/parallelism';
export const SUSPEND_ANNOTATION = 'propagation.warren.dev/suspend';

/** A spec field held at `held`; the tenant's value goes to `annotation`. */
export interface HeldField {
  /** The field's name under `spec`. */
  name: 'replicas' | 'paused' | 'parallelism' | 'suspend';
  type: 'count' | 'boolean';
  held: number | boolean;
  annotation: string;
  /**
   * kube's default for the field when a created object omits it (1.20's defaulters), or none when kube leaves
   * it unset (a Deployment's paused). Holding at create time (the gateway, before the apiserver defaults the
   * body) records it, so the tenant reads back what kube would have stored.
   */
  kubeDefault?: number | boolean;
}

export interface HeldKind {
  group: string;
  resource: string;
  kind: string;
  fields: readonly HeldField[];
  /** Held by a nodeSelector term in the pod template (DaemonSet). */
  nodeSelector: boolean;
  /** Served with a scale subresource, read from and written to `spec.replicas`. */
  scale: boolean;
}

const REPLICAS: HeldField = { name: 'replicas', type: 'count', held: 0, annotation: REPLICAS_ANNOTATION, kubeDefault: 1 };
const PAUSED: HeldField = { name: 'paused', type: 'boolean', held: true, annotation: PAUSED_ANNOTATION };
const PARALLELISM: HeldField = { name: 'parallelism', type: 'count', held: 0, annotation: PARALLELISM_ANNOTATION, kubeDefault: 1 };
const SUSPEND: HeldField = { name: 'suspend', type: 'boolean', held: true, annotation: SUSPEND_ANNOTATION, kubeDefault: false };

export const HELD_KINDS: readonly HeldKind[] = [
  { group: 'apps', resource: 'deployments', kind: 'Deployment', fields: [REPLICAS, PAUSED], nodeSelector: false, scale: true },
  { group: 'apps', resource: 'statefulsets', kind: 'StatefulSet', fields: [REPLICAS], nodeSelector: false, scale: true },
  { group: 'apps', resource: 'replicasets', kind: 'ReplicaSet', fields: [REPLICAS], nodeSelector: false, scale: true },
  { group: '', resource: 'replicationcontrollers', kind: 'ReplicationController', fields: [REPLICAS], nodeSelector: false, scale: true },
  { group: 'apps', resource: 'daemonsets', kind: 'DaemonSet', fields: [], nodeSelector: true, scale: false },
  { group: 'batch', resource: 'jobs', kind: 'Job', fields: [PARALLELISM], nodeSelector: false, scale: false },
  // batch/v1beta1 on 1.20, batch/v1 from 1.21: the same row (the group decides, not the version).
  { group: 'batch', resource: 'cronjobs', kind: 'CronJob', fields: [SUSPEND], nodeSelector: false, scale: false },
];

/** The annotations that carry the tenant's values, over every kind. */
export const FIELD_ANNOTATIONS: readonly string[] = [...new Set(HELD_KINDS.flatMap((k) => k.fields.map((f) => f.annotation)))];

const groupOf = (apiVersion: unknown): string | undefined => {
  if (typeof apiVersion !== 'string' || apiVersion === '') return undefined;
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
};

/** The held kind of an object (by its apiVersion's group and kind), or undefined. */
export function heldKindOf(obj: { apiVersion?: unknown; kind?: unknown }): HeldKind | undefined {
  const group = groupOf(obj.apiVersion);
  return group === undefined ? undefined : HELD_KINDS.find((k) => k.group === group && k.kind === obj.kind);
}

/** The held kind of a request's group and resource (the gateway knows the URL before any object), or undefined. */
export function heldKindOfResource(group: string, resource: string): HeldKind | undefined {
  return HELD_KINDS.find((k) => k.group === group && k.resource === resource);
}
