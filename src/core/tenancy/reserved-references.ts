// Fields of a workload that name a shared object the host's or a member's own
// controllers follow, not the gateway, and that a tenant may not name:
//  - a pod's priorityClassName `system-*`: kube reserves the prefix for its
//    built-in system-node-critical and system-cluster-critical (2,000,001,000
//    and 2,000,000,000). Since kube 1.17 any namespace may use them unless the
//    cluster's admins configured otherwise; such a pod preempts any other pod on
//    a full node (another tenant's: the scheduler evicts them) and is the last
//    the kubelet evicts under pressure. Platform-made classes (shown read-only)
//    stay usable: offering them is the platform's choice;
//  - a StatefulSet's volumeClaimTemplates[].spec.volumeName: the host's (or a
//    member's) StatefulSet controller makes each claim with the template's
//    spec, and the volume binder binds a claim naming an Available volume to
//    it, so the claim the gateway's PVC check (pvc-volume-admitter.ts) never
//    sees would take the platform's volume and whatever data it holds.
//  - a Service's spec.externalIPs (CVE-2020-8554): every node's kube-proxy
//    captures traffic to those addresses, from every pod of every tenant, and
//    sends it to the Service's endpoints: a tenant naming the cluster DNS's
//    address or another tenant's would intercept it (kube's answer is the
//    DenyServiceExternalIPs admission plugin, off by default). The status
//    variant (status.loadBalancer.ingress) is closed by denying services/status
//    to tenants (resource-classes.ts).
//  - a pod spec's nodeName (pods, and every template a controller makes pods
//    from): a pod created with it is never scheduled, the named node's kubelet
//    runs it as it is, past the scheduler's taints, affinity and resource fit
//    (a control-plane node, or a node the platform reserves for another
//    tenant). pods/binding, the scheduler's own way to set it, is denied
//    (resource-classes.ts); this is the same choice made on the spec. Only the
//    scheduler sets it on a tenant's pods (a DaemonSet's too, since kube 1.12:
//    its controller pins a node by affinity, not nodeName). A stored pod keeps
//    the one the scheduler gave it: a write that leaves it as stored passes.
// On a member, the tenant's copy comes out of its overrides, which no gateway
// admission judged: there a claim's volumeName is refused too (the template's
// own is pruned, build-work.ts; only an override can put one back).
// Pure: the gateway's admitter and the engine's member check share it.
import { isObject } from '../types.ts';

type Obj = Record<string, unknown>;

/** One refused field: where (tenant-readable path), what it names, and why it is refused. */
export interface ReservedReference {
  field: string;
  value: string;
  why: string;
}

export const RESERVED_PRIORITY_PREFIX = 'system-';

const PRIORITY_WHY = 'is reserved for the cluster\'s own components (it would preempt other tenants\' pods)';
const VOLUME_WHY = 'names a PersistentVolume; volumes are the platform\'s, and a claim binds only to a volume provisioned or reserved for it';
const NODE_NAME_WHY = 'may not be set: the scheduler places pods, on nodes this tenant may use';
const EXTERNAL_IP_WHY = 'is not allowed: every node would send traffic for that address, from every tenant\'s pods, to this Service';

export const at = (obj: unknown, ...path: string[]): unknown => {
  let v: unknown = obj;
  for (const key of path) v = isObject(v) ? v[key] : undefined;
  return v;
};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * Where each kind that holds a pod spec holds it (`<group>/<Kind>`, core group ''). A ControllerRevision is a
 * StatefulSet's or DaemonSet's history: its data is a patch holding the whole pod template, and kube's
 * StatefulSet controller builds the pods below a rolling update's partition from the revision its status names
 * (ApplyRevision), adopting any revision that matches the set's selector: a tenant that replaces that revision
 * with its own steers pods that never pass the gateway (ADR 0043, v1 amendment).
 */
export const POD_SPEC_PATHS: Readonly<Record<string, readonly string[]>> = {
  '/Pod': ['spec'],
  '/PodTemplate': ['template', 'spec'],
  '/ReplicationController': ['spec', 'template', 'spec'],
  'apps/Deployment': ['spec', 'template', 'spec'],
  'apps/ReplicaSet': ['spec', 'template', 'spec'],
  'apps/StatefulSet': ['spec', 'template', 'spec'],
  'apps/DaemonSet': ['spec', 'template', 'spec'],
  'batch/Job': ['spec', 'template', 'spec'],
  'batch/CronJob': ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
  // A StatefulSet's or DaemonSet's revision (`{"spec":{"template":...}}`): the host's StatefulSet controller
  // makes the pods of its status.currentRevision (a tenant may write statefulsets/status) from the revision's
  // template, adopting an unowned revision whose labels its selector matches.
  'apps/ControllerRevision': ['data', 'spec', 'template', 'spec'],
};

/** Kinds whose pod spec is there only when the object holds a workload's template (a revision may hold any data). */
export const OPTIONAL_POD_SPEC: ReadonlySet<string> = new Set(['apps/ControllerRevision']);

const groupOf = (apiVersion: unknown): string => {
  const text = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = text.indexOf('/');
  return slash < 0 ? '' : text.slice(0, slash);
};

/** The kind key of an object (its apiVersion's group and its kind), or of a request (`group`, `kind`). */
export const kindKey = (group: string, kind: string): string => `${group}/${kind}`;
export const kindKeyOf = (obj: { apiVersion?: unknown; kind?: unknown }): string => kindKey(groupOf(obj.apiVersion), typeof obj.kind === 'string' ? obj.kind : '');

/** The reserved priority class a pod spec of this object names, with the field's path. */
function reservedPriority(key: string, body: Obj): ReservedReference[] {
  const path = POD_SPEC_PATHS[key];
  if (!path) return [];
  const name = at(body, ...path, 'priorityClassName');
  if (typeof name !== 'string' || !name.startsWith(RESERVED_PRIORITY_PREFIX)) return [];
  return [{ field: [...path, 'priorityClassName'].join('.'), value: name, why: PRIORITY_WHY }];
}

/** A node named in a pod spec of this object (skips the scheduler), with the field's path. */
function namedNode(key: string, body: Obj): ReservedReference[] {
  const path = POD_SPEC_PATHS[key];
  if (!path) return [];
  const name = at(body, ...path, 'nodeName');
  return typeof name === 'string' && name !== '' ? [{ field: [...path, 'nodeName'].join('.'), value: name, why: NODE_NAME_WHY }] : [];
}

/** A claim's volumeName, on a PersistentVolumeClaim itself or in a StatefulSet's claim templates. */
export function claimVolumeNames(key: string, body: Obj): ReservedReference[] {
  const named = (field: string, value: unknown): ReservedReference[] => (typeof value === 'string' && value !== '' ? [{ field, value, why: VOLUME_WHY }] : []);
  if (key === '/PersistentVolumeClaim') return named('spec.volumeName', at(body, 'spec', 'volumeName'));
  if (key !== 'apps/StatefulSet') return [];
  return list(at(body, 'spec', 'volumeClaimTemplates')).flatMap((t, i) => named(`spec.volumeClaimTemplates[${i}].spec.volumeName`, at(t, 'spec', 'volumeName')));
}

/**
 * The fields a revision's data reaches a pod's placement by, folded: kube's StatefulSet controller decodes the
 * patched set with Go's encoding/json (ApplyRevision), which matches field names case-insensitively, `ſ` and
 * the Kelvin sign included, so `data.Spec.template.spec.Tolerations` is read as the template's tolerations while
 * every rule here reads the exact spelling. Checked on every object in a revision's data.
 */
const STEERING_FIELDS: ReadonlyMap<string, string> = new Map(['spec', 'template', 'metadata', 'labels', 'tolerations', 'nodeSelector', 'nodeName', 'priorityClassName',
  'affinity', 'podAffinity', 'podAntiAffinity', 'nodeAffinity', 'namespaces', 'namespaceSelector', 'dnsConfig', 'searches', 'volumeClaimTemplates', 'volumeName']
  .map((name) => [goFold(name), name]));
const MISSPELT_WHY = 'is a spelling of a pod template field the controller reads as that field: write it exactly';

/** A key as Go's encoding/json compares it (a superset: any case, `ſ` as s, the Kelvin sign as k). */
function goFold(key: string): string {
  return key.toUpperCase().toLowerCase();
}

/** Keys of a ControllerRevision's data, at any depth, that Go reads as a steering field under another spelling. */
function misspeltRevisionFields(key: string, body: Obj): ReservedReference[] {
  if (key !== 'apps/ControllerRevision') return [];
  const found: ReservedReference[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) { value.forEach((v, i) => walk(v, `${path}[${i}]`)); return; }
    if (!isObject(value)) return;
    for (const [k, v] of Object.entries(value)) {
      const exact = STEERING_FIELDS.get(goFold(k));
      if (exact !== undefined && exact !== k) found.push({ field: path, value: k, why: MISSPELT_WHY });
      walk(v, `${path}.${k}`);
    }
  };
  walk(body.data, 'data');
  return found;
}

/** A Service's external IPs, each on its own (an update may keep the ones stored, as kube's plugin allows). */
function externalIps(key: string, body: Obj): ReservedReference[] {
  if (key !== '/Service') return [];
  return list(at(body, 'spec', 'externalIPs')).filter((ip): ip is string => typeof ip === 'string' && ip !== '').map((ip) => ({ field: 'spec.externalIPs', value: ip, why: EXTERNAL_IP_WHY }));
}

/**
 * What a tenant's write may not name on the host: a reserved priority class in a pod spec, a volume in a
 * StatefulSet's claim templates, a Service's external IPs. (A PersistentVolumeClaim's own volumeName is judged with a read of the
 * volume, pvc-volume-admitter.ts.)
 */
export function hostReservedReferences(key: string, body: unknown): ReservedReference[] {
  if (!isObject(body)) return [];
  return [...reservedPriority(key, body), ...namedNode(key, body), ...(key === 'apps/StatefulSet' ? claimVolumeNames(key, body) : []), ...externalIps(key, body), ...misspeltRevisionFields(key, body)];
}

/** What a member's copy of a tenant's object may not hold: a reserved priority class, a node name, any claim volumeName, external IPs. */
export function memberReservedReferences(obj: unknown): ReservedReference[] {
  if (!isObject(obj)) return [];
  const key = kindKeyOf(obj);
  return [...reservedPriority(key, obj), ...namedNode(key, obj), ...claimVolumeNames(key, obj), ...externalIps(key, obj), ...misspeltRevisionFields(key, obj)];
}

/** The refusal text for the first reference, in the tenant's terms. */
export function describeReserved(ref: ReservedReference): string {
  return `${ref.field}: "${ref.value}" ${ref.why}`;
}
