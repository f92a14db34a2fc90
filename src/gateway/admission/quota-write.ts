// One write judged against the tenant-wide cpu/memory/storage quota: which
// stored object it replaces, what that object becomes, and the usage before and
// after (core/tenancy/quota). Everything here is in upstream terms (the
// snapshot is read from upstream); only names reach the message, and object
// names are never prefixed.
import type { ApiError } from '../../core/api-error.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import type { KubeObject } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import { buildUsage, COUNTED_RESOURCES, keyOf, type QuotaObject } from '../../core/tenancy/quota/object-demand.ts';
import { buildQuotaDecision, type ResourceLimits } from '../../core/tenancy/quota/quota-decision.ts';
import { objectKey, type TenantObjects } from './quota-usage-cache.ts';
import { isHeld, setHeldReplicas } from '../../core/propagation/host-hold.ts';

const WRITES = new Set(['create', 'update', 'patch']);
const SCALABLE = new Set(['apps/deployments', 'apps/replicasets', 'apps/statefulsets', '/replicationcontrollers']);

export interface QuotaTarget {
  group: string;
  resource: string;
  /** The request writes the scale subresource: only spec.replicas of the parent changes. */
  scale: boolean;
}

/** The counted object a request writes, or undefined when the quota has no say. */
export function quotaTargetOf(info: RequestInfo, group: string): QuotaTarget | undefined {
  if (!info.isResourceRequest || !WRITES.has(info.verb)) return undefined;
  const key = keyOf(group, info.resource);
  if (info.subresource === 'scale' && SCALABLE.has(key)) return { group, resource: info.resource, scale: true };
  if (info.subresource || !COUNTED_RESOURCES.includes(key)) return undefined;
  return { group, resource: info.resource, scale: false };
}

/** Does a delete of this resource free quota (the snapshot must be read again)? */
export function freesQuota(info: RequestInfo, group: string): boolean {
  if (info.verb !== 'delete' && info.verb !== 'deletecollection') return false;
  return (group === '' && info.resource === 'namespaces') || (!info.subresource && COUNTED_RESOURCES.includes(keyOf(group, info.resource)));
}

// Server-side apply merges upstream; this approximates the result for the check:
// maps merge, lists and scalars from the applied configuration win.
function mergeApplied(live: unknown, applied: unknown): unknown {
  if (!isObject(live) || !isObject(applied)) return applied;
  const out: Record<string, unknown> = { ...live };
  for (const [k, v] of Object.entries(applied)) out[k] = mergeApplied(live[k], v);
  return out;
}

export interface JudgedWrite {
  key: string;
  /** What the stored object becomes if the write succeeds. */
  next: QuotaObject;
  refusal: ApiError | undefined;
}

export interface WriteInput {
  limits: ResourceLimits;
  snapshot: TenantObjects;
  target: QuotaTarget;
  /** Upstream namespace and the object's name (from the path, else the body). */
  namespace: string;
  name: string;
  /** The object to be written (a Scale for the scale subresource), upstream terms. */
  written: KubeObject;
  /** A server-side apply: `written` is an applied configuration, merged over what is stored. */
  apply?: boolean;
}

/** undefined when the write is not a counted one (a scale of something not stored: upstream answers 404). */
export function judgeWrite(input: WriteInput): JudgedWrite | undefined {
  const { target, snapshot, namespace, name } = input;
  const key = objectKey(target.group, target.resource, namespace, name);
  const stored = snapshot.objects.get(key);
  let obj: KubeObject;
  if (target.scale) {
    if (!stored) return undefined;
    const replicas = (input.written.spec as { replicas?: unknown } | undefined)?.replicas;
    // A held object's scale is the tenant's replicas annotation (ADR 0023, held-scale.ts).
    obj = typeof replicas === 'number' && isHeld(stored.obj) ? setHeldReplicas(stored.obj, replicas) : { ...stored.obj, spec: { ...(stored.obj.spec as object), replicas } };
  } else {
    obj = (input.apply && stored ? mergeApplied(stored.obj, input.written) : input.written) as KubeObject;
    obj = { ...obj, metadata: { ...(obj.metadata ?? {}), namespace, name } };
  }
  const next: QuotaObject = { group: target.group, resource: target.resource, obj };
  const before = buildUsage(snapshot.objects.values());
  const others = [...snapshot.objects].filter(([k]) => k !== key).map(([, v]) => v);
  const after = buildUsage([...others, next]);
  const subjectName = name || obj.metadata.generateName || '';
  const refusal = buildQuotaDecision(input.limits, before, after, { group: target.group, resource: target.resource, ...(subjectName ? { name: subjectName } : {}) });
  return { key, next, refusal };
}
