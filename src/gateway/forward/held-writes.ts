// Tenant writes of a kind with a held form (ADR 0023). Upstream a propagated
// template is stored held (a Deployment paused, 0 replicas) with the tenant's
// values in annotations; the tenant sees and writes its own values. So every
// write of such a kind reads the live object first: if it is held, what the
// tenant asked for is held again before it is sent (its replicas and paused go
// to the annotations; the engine's status annotation and the host's `.status`
// are kept), and the write is pinned to the live resourceVersion, so a hold or
// release by the engine in between is a conflict that is read and re-made here
// (as the patch path does), never a write that unholds the object upstream.
// A write of a held object's status is refused: the tenant's status is the
// engine's aggregate, and upstream `.status` is the host's.
import { ApiError, forbidden } from '../../core/api-error.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import type { KubeObject } from '../../core/types.ts';
import { hasHeldResource, hold, isHeld, reholdWrite } from '../../core/propagation/host-hold.ts';
import { heldFieldsInvalid } from '../../core/propagation/held-input.ts';
import type { Upstream, UpstreamResponse } from '../../kube/upstream.ts';
import type { FinalObject } from '../admission/admission-chain.ts';
import { type PreparedRequest, withQuery } from './prepared-request.ts';
import { retryStaleWrite } from './retry-stale-write.ts';

/** Does this request write an object of a kind with a held form (so the live object must be read first)? */
export function writesHeldKind(info: RequestInfo): boolean {
  return hasHeldResource(info.apiGroup, info.resource) && info.name !== '' && (info.subresource === '' || info.subresource === 'status')
    && (info.verb === 'update' || info.verb === 'patch');
}

/** Writing a held object's status is refused (its view's status is the engine's). */
export function refuseHeldStatusWrite(info: RequestInfo, user: string | undefined): ApiError {
  return forbidden({ group: info.apiGroup, resource: info.resource, verb: info.verb, name: info.name, subresource: 'status', ...(info.namespace ? { namespace: info.namespace } : {}), ...(user !== undefined ? { user } : {}) },
    'the status of a propagated object is the propagation engine\'s, aggregated from the member clusters');
}

/**
 * The object to send for a write of `live`: held again when `live` is held. An applied configuration is a
 * partial object: its replicas and paused (if it names them) go to the annotations, and it holds the spec too.
 */
export function heldBody(written: KubeObject, live: KubeObject, apply: boolean): KubeObject {
  if (!isHeld(live)) return written;
  const refused = heldFieldsInvalid(written);
  if (refused) throw refused;
  if (!apply) return reholdWrite(written, live);
  const body = hold(written);
  delete body.status; // the host's field: an applied status would make the tenant's manager one of its writers
  return body;
}

/**
 * For a server-side apply (apply-by-dry-run.ts): the applied configuration held again when the live object is
 * held; when there is none, `created` decides (held-at-create.ts: held if a policy already claims it).
 */
export function heldApplyRewrite(info: RequestInfo, user: string | undefined, created?: (applied: KubeObject) => Promise<KubeObject>):
  (applied: KubeObject, live: KubeObject | undefined) => KubeObject | Promise<KubeObject> {
  return (applied, live) => {
    if (!live) return created ? created(applied) : applied;
    if (isHeld(live) && info.subresource === 'status') throw refuseHeldStatusWrite(info, user);
    return heldBody(applied, live, true);
  };
}

export interface HeldWriteInput {
  upstream: Upstream;
  info: RequestInfo;
  user: string | undefined;
  prepared: PreparedRequest & { final: FinalObject };
  /** The isolation guard and admission on the exact object sent; throws to refuse. */
  vet: (final: FinalObject) => Promise<void>;
}

/** An update (PUT) or server-side apply of a held kind: read, hold again if held, pin, send; a conflict it caused is retried. */
export async function writeHeldKind(input: HeldWriteInput): Promise<UpstreamResponse> {
  const { upstream, info, prepared } = input;
  const { final } = prepared;
  const tenantPinned = final.upstream.metadata.resourceVersion !== undefined && final.upstream.metadata.resourceVersion !== '';
  const headers: Record<string, string> = final.apply ? { 'Content-Type': 'application/apply-patch+yaml' } : {};
  const objectPath = info.subresource ? prepared.path.slice(0, -(info.subresource.length + 1)) : prepared.path;
  return retryStaleWrite<UpstreamResponse>(async () => {
    const current = await upstream.request<KubeObject>('GET', objectPath);
    let body = final.upstream;
    if (current.status === 200) {
      const live = current.body;
      if (isHeld(live) && info.subresource === 'status') throw refuseHeldStatusWrite(info, input.user);
      body = heldBody(final.upstream, live, final.apply);
      if (!tenantPinned) body = { ...body, metadata: { ...body.metadata, resourceVersion: live.metadata.resourceVersion ?? '' } };
    } else if (current.status !== 404) {
      return { result: current, pinnedHere: false };
    }
    await input.vet({ ...final, upstream: body });
    const written = await upstream.request(prepared.method, withQuery(prepared.path, prepared.query), body, headers);
    // Only a conflict with the version this pass pinned is ours to retry; the tenant's own pin is the tenant's answer.
    return { result: written, written, pinnedHere: !tenantPinned && current.status === 200 };
  });
}
