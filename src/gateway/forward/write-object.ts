// One written object, from the tenant's body (or the gateway's patch result)
// to the exact upstream object: the request settles its kind, namespace and
// name (core/tenancy/request-kind.ts), the translator maps it with the
// request's kind, translation forces the platform's labels, and an object the
// tenant could not read back is refused before it is sent. The tenant's
// placement contract's node selector is merged into the pod spec of every
// kind that holds one (ADR 0043): here, so the tenant's copy, the upstream
// body, the guard and admission all see the same merged object. Before, such an
// object (a RoleBinding whose roleRef slipped through unprefixed) was stored
// upstream and then answered 404, because the response translation hid it.
import { ApiError, forbidden } from '../../core/api-error.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import type { KubeObject } from '../../core/types.ts';
import type { ForwardedRequest } from '../../core/tenancy/request-translation.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import { toTenantObject, toUpstreamObject } from '../../core/tenancy/object-translation.ts';
import { translationCopy } from '../../core/tenancy/translation-copy.ts';
import { forceNamespacePodSecurity, type PodSecurityLevel } from '../../core/tenancy/pod-security.ts';
import { forceNodeSelector, type PlacementContract } from '../../core/tenancy/pod-placement.ts';
import { describeReserved, kindKey } from '../../core/tenancy/reserved-references.ts';
import { heldMarkIn } from '../../core/propagation/held-input.ts';
import { settleBodyKind, settleBodyMetadata, type BodySource, type MetadataTarget, type RequestKind } from '../../core/tenancy/request-kind.ts';

export interface WriteTarget {
  ctx: TenantContext;
  info: RequestInfo;
  fwd: ForwardedRequest;
  kind: RequestKind;
  podSecurity: PodSecurityLevel;
  /** The tenant's placement contract (ADR 0043); absent: nothing is merged (admission still judges the object). */
  placement?: PlacementContract;
}

export interface TranslatedWrite {
  /** Tenant terms, settled (a copy: translation mutates the object it is given). */
  tenant: KubeObject;
  upstream: KubeObject;
}

/**
 * The marks of a propagated template's held form (ADR 0023) are the engine's: a tenant that wrote them could
 * make the gateway show, and the engine propagate, values it never asked for. Refused on every kind, in the
 * final object the tenant asks for (a patch's result included); its view never carries them, so a patch
 * that removes one is a no-op, and the live object's marks are kept (held-writes.ts).
 */
function refuseHeldMarks(info: RequestInfo, user: string | undefined, obj: KubeObject): void {
  const mark = heldMarkIn(obj);
  if (mark === undefined) return;
  throw forbidden({ group: info.apiGroup, resource: info.resource, verb: info.verb, ...(info.name ? { name: info.name } : {}), ...(info.subresource ? { subresource: info.subresource } : {}), ...(info.namespace && info.resource !== 'namespaces' ? { namespace: info.namespace } : {}), ...(user !== undefined ? { user } : {}) },
    `${mark} is set by the propagation engine and cannot be set, changed or removed`);
}

/** Kinds whose stored pod spec kube does not let change (a Pod's; a Job's template, in 1.20; a ControllerRevision's data). */
const FIXED_POD_SPEC = new Set(['/Pod', 'batch/Job', 'apps/ControllerRevision']);

/**
 * Merges the contract's node selector into the object's pod spec (PodNodeSelector's merge). Where the stored
 * pod spec is immutable, only a create (or an apply, which may create) gets it; an update keeps the stored
 * one, which admission compares (reserved-references-admitter.ts). A conflicting tenant value is refused, 403.
 */
function forcePlacement(target: WriteTarget, key: string, obj: KubeObject, verb: MetadataTarget['verb']): void {
  const { info, ctx } = target;
  if (FIXED_POD_SPEC.has(key) && verb !== 'create' && verb !== 'apply') return;
  const conflict = target.placement ? forceNodeSelector(key, obj, target.placement) : undefined;
  if (!conflict) return;
  throw forbidden({ group: info.apiGroup, resource: info.resource, verb: info.verb, ...(info.name ? { name: info.name } : {}), ...(info.namespace ? { namespace: info.namespace } : {}), ...(ctx.user !== undefined ? { user: ctx.user } : {}) }, describeReserved(conflict));
}

export function translateWrite(target: WriteTarget, obj: KubeObject, how: { source: BodySource; verb: MetadataTarget['verb'] }): TranslatedWrite {
  const { ctx, info, fwd, kind } = target;
  settleBodyKind(obj, kind, how.source);
  settleBodyMetadata(obj, { namespace: fwd.namespaced ? info.namespace : '', name: info.name, verb: how.verb });
  refuseHeldMarks(info, ctx.user, obj);
  if (target.placement && !info.subresource && kind.kind !== undefined) forcePlacement(target, kindKey(kind.group, kind.kind), obj, how.verb);
  // Copies that share what translation never writes (translation-copy.ts): two deep copies of a
  // 10,000-label body were two of the largest synchronous steps of a write (ADR 0026).
  const tenant = translationCopy(obj);
  const upstream = toUpstreamObject(ctx, obj, { namespaced: fwd.namespaced, type: { group: kind.group, kind: kind.kind } });
  if (info.apiGroup === '' && info.resource === 'namespaces' && kind.kind === 'Namespace') forceNamespacePodSecurity(upstream, target.podSecurity);
  if (toTenantObject(ctx, translationCopy(upstream, { readBackOnly: true })) === undefined) {
    throw new ApiError('Forbidden', `${info.resource}${info.name ? ` "${info.name}"` : ''} is forbidden: the object refers to something outside the tenant and could not be read back`, { kind: info.resource, ...(info.name ? { name: info.name } : {}) });
  }
  return { tenant, upstream };
}
