// JSON, merge and strategic merge patches, applied by the gateway to the
// tenant's view of the object and written back with a resourceVersion
// precondition (retried on conflict by retry-stale-write.ts, as kube-apiserver's
// own patch handler does).
// The patched object is a tenant body like any other: the request settles its
// kind, namespace and name, it is translated with the request's kind, and the
// final upstream object (not the patch) is what the guard and admission judge.
import { ApiError, conflict } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import { toTenantObject } from '../../core/tenancy/object-translation.ts';
import { applyJsonPatch } from '../../core/patch/json-patch.ts';
import { applyMergePatch } from '../../core/patch/merge-patch.ts';
import { applyStrategicMergePatch, strategicMergeUnsupported, supportsStrategicMerge } from '../../core/patch/strategic-merge-patch.ts';
import { definitionNameFor } from '../../core/patch/type-resolver.ts';
import { apiVersionOf } from '../../core/tenancy/request-kind.ts';
import type { Upstream, UpstreamResponse } from '../../kube/upstream.ts';
import { type PreparedRequest, withQuery } from './prepared-request.ts';
import { translateWrite, type WriteTarget } from './write-object.ts';
import { heldBody, refuseHeldStatusWrite } from './held-writes.ts';
import { hasHeldResource, isHeld } from '../../core/propagation/host-hold.ts';
import type { FinalObject } from '../admission/admission-chain.ts';
import { retryStaleWrite } from './retry-stale-write.ts';

/** Strategic merge follows the request's type, not whatever the patched document claims to be. */
export function applyPatch(type: string, doc: KubeObject, patch: unknown, typeName: string | undefined): KubeObject {
  if (type === 'json') return applyJsonPatch(doc, patch);
  if (type === 'merge') return applyMergePatch(doc, patch);
  if (!supportsStrategicMerge(typeName)) throw strategicMergeUnsupported();
  return applyStrategicMergePatch(doc, patch, typeName);
}

export interface PatchInput {
  upstream: Upstream;
  target: WriteTarget;
  prepared: PreparedRequest;
  /** The isolation guard and admission, on the final object, right before it is written; throws to refuse. */
  vet: (final: FinalObject) => Promise<void>;
}

export async function patchByReadModifyWrite(input: PatchInput): Promise<UpstreamResponse> {
  const { upstream, target, prepared } = input;
  const { ctx, info, kind } = target;
  const typeName = definitionNameFor(apiVersionOf(kind.group, kind.version), kind.kind ?? '');
  // The tenant's view carries the live resourceVersion, so the write is pinned on every pass; a patch that
  // named another version is refused below. A conflict is a concurrent writer: read again and re-apply.
  return retryStaleWrite<UpstreamResponse>(async () => {
    const current = await upstream.request<KubeObject>('GET', prepared.path);
    if (current.status !== 200) return { result: current, pinnedHere: false };
    const live = current.body;
    const view = toTenantObject(ctx, structuredClone(live));
    if (!view) throw new ApiError('NotFound', `${info.resource} "${info.name}" not found`, { name: info.name, kind: info.resource });
    const stored = structuredClone(view);
    const patched = applyPatch(prepared.patchType ?? 'merge', view, prepared.body, typeName);
    const pinned = patched.metadata?.resourceVersion;
    if (pinned && pinned !== live.metadata.resourceVersion) {
      throw conflict({ group: info.apiGroup, resource: info.resource, name: info.name }, 'the object has been modified; please apply your changes to the latest version and try again');
    }
    const held = hasHeldResource(info.apiGroup, info.resource) && isHeld(live);
    if (held && info.subresource === 'status') throw refuseHeldStatusWrite(info, ctx.user);
    const translated = translateWrite(target, patched, { source: 'patch', verb: 'patch' });
    // A held object (ADR 0023) stays held: the patch changed the tenant's values, which go to its annotations.
    const final = held ? { ...translated, upstream: heldBody(translated.upstream, live, false) } : translated;
    final.upstream.metadata.resourceVersion = live.metadata.resourceVersion;
    await input.vet({ ...final, stored, apply: false });
    const written = await upstream.request('PUT', withQuery(prepared.path, prepared.query), final.upstream);
    return { result: written, written, pinnedHere: true };
  });
}
