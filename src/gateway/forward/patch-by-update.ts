// JSON, merge and strategic merge patches, applied by the gateway to the
// tenant's view of the object and written back with a resourceVersion
// precondition (retried on conflict, as kube-apiserver's own patch handler does).
import { ApiError, conflict } from '../../core/api-error.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import type { KubeObject } from '../../core/types.ts';
import type { ForwardedRequest } from '../../core/tenancy/request-translation.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import { toTenantObject, toUpstreamObject } from '../../core/tenancy/object-translation.ts';
import { applyJsonPatch } from '../../core/patch/json-patch.ts';
import { applyMergePatch } from '../../core/patch/merge-patch.ts';
import { applyStrategicMergePatch, strategicMergeUnsupported, supportsStrategicMerge } from '../../core/patch/strategic-merge-patch.ts';
import { definitionNameFor } from '../../core/patch/type-resolver.ts';
import type { Upstream, UpstreamResponse } from '../../kube/upstream.ts';
import type { PreparedRequest } from './prepared-request.ts';


const MAX_ATTEMPTS = 5;

function withQuery(path: string, query: URLSearchParams): string {
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

function applyPatch(type: string, doc: KubeObject, patch: unknown): KubeObject {
  if (type === 'json') return applyJsonPatch(doc, patch);
  if (type === 'merge') return applyMergePatch(doc, patch);
  const typeName = definitionNameFor(String(doc.apiVersion ?? ''), String(doc.kind ?? ''));
  if (!supportsStrategicMerge(typeName)) throw strategicMergeUnsupported();
  return applyStrategicMergePatch(doc, patch, typeName);
}

export interface PatchInput {
  upstream: Upstream;
  ctx: TenantContext;
  info: RequestInfo;
  fwd: ForwardedRequest;
  prepared: PreparedRequest;
  /** Last word on the upstream object before it is written (policy the tenant cannot change). */
  finish?: (obj: KubeObject) => KubeObject;
}

export async function patchByReadModifyWrite(input: PatchInput): Promise<UpstreamResponse> {
  const { upstream, ctx, info, fwd, prepared } = input;
  const readQuery = new URLSearchParams();
  for (let attempt = 1; ; attempt++) {
    const current = await upstream.request<KubeObject>('GET', withQuery(prepared.path, readQuery));
    if (current.status !== 200) return current;
    const live = current.body;
    const view = toTenantObject(ctx, structuredClone(live));
    if (!view) throw new ApiError('NotFound', `${info.resource} "${info.name}" not found`, { name: info.name, kind: info.resource });
    const patched = applyPatch(prepared.patchType ?? 'merge', view, prepared.body);
    const pinned = patched.metadata?.resourceVersion;
    if (pinned && pinned !== live.metadata.resourceVersion) {
      throw conflict({ group: info.apiGroup, resource: info.resource, name: info.name }, 'the object has been modified; please apply your changes to the latest version and try again');
    }
    if (patched.metadata?.name !== undefined && patched.metadata.name !== info.name) {
      throw new ApiError('BadRequest', `the name of the object (${String(patched.metadata.name)}) does not match the name on the URL (${info.name})`);
    }
    const desired = (input.finish ?? ((o: KubeObject) => o))(toUpstreamObject(ctx, patched, { namespaced: fwd.namespaced }));
    desired.metadata.resourceVersion = live.metadata.resourceVersion;
    const written = await upstream.request('PUT', withQuery(prepared.path, prepared.query), desired);
    const isConflict = written.status === 409 && (written.body as { reason?: string } | undefined)?.reason === 'Conflict';
    // The tenant's view carries the live resourceVersion, so `pinned` is set on every pass; a patch
    // that named another version was refused above. A conflict here is a concurrent writer
    // (a controller updating status): read again and re-apply, as kube-apiserver does.
    if (!isConflict || attempt >= MAX_ATTEMPTS) return written;
  }
}
