// Forwarding a translated resource request upstream, and its answer back.
// prepare() builds the exact upstream request (so the guard can judge it);
// send() performs it and translates the response, stream or error.
import { SAFE_PLACEMENT, type PlacementContract } from '../../core/tenancy/pod-placement.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, badRequest } from '../../core/api-error.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import type { KubeObject } from '../../core/types.ts';
import type { ForwardedRequest } from '../../core/tenancy/request-translation.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import { requestKindOf } from '../../core/tenancy/request-kind.ts';
import { patchKindOf, sendsBody } from '../../http/request-body.ts';
import type { Upstream, UpstreamResponse } from '../../kube/upstream.ts';
import { readRequestObject, readRequestValue } from './request-body.ts';
import { patchByReadModifyWrite } from './patch-by-update.ts';
import { applyByDryRun } from './apply-by-dry-run.ts';
import { bodyTypeOf, kindHintOf } from './body-type.ts';
import type { PodSecurityLevel } from '../../core/tenancy/pod-security.ts';
import type { ResponsePipe } from './response-pipe.ts';
import type { PreparedRequest } from './prepared-request.ts';
import { translateWrite, type WriteTarget } from './write-object.ts';
import { refuseTenantLabelEdit } from './tenant-label-edits.ts';
import { heldApplyRewrite, writeHeldKind, writesHeldKind } from './held-writes.ts';
import { isHeldKindScale, readHeldScale, writeHeldScale } from './held-scale.ts';
import { applyCreateHold, holdCreateIfClaimed, type ClaimLookup } from './held-at-create.ts';
import { sendJsonBody } from '../respond.ts';
import { scrubText } from '../../core/tenancy/status-translation.ts';
import { yieldIfLarge } from '../../http/yield-to-loop.ts';
import { createAdmissionChain, isAdmittedVerb, type AdmissionChain, type FinalObject } from '../admission/admission-chain.ts';
import { refuseQuotaViewWrite, sparesQuotaView } from '../quota-view/quota-view-writes.ts';
import { withQuery } from './prepared-request.ts';

/** The isolation guard on the exact object about to be sent (handler.ts's guard()), at the request's path unless told; throws to refuse. */
export type GuardFinal = (upstreamObject: KubeObject, path?: string) => void;

export interface Forwarder {
  /** `res`, when given, bounds the tenant's large bodies to one at a time until it closes (heavy-body-gate.ts). */
  prepare(req: IncomingMessage, ctx: TenantContext, info: RequestInfo, fwd: ForwardedRequest, res?: ServerResponse): Promise<PreparedRequest>;
  send(req: IncomingMessage, res: ServerResponse, ctx: TenantContext, info: RequestInfo, fwd: ForwardedRequest, prepared: PreparedRequest, guardFinal: GuardFinal): Promise<void>;
}

const STREAMING_SUBRESOURCES = new Set(['log']);
const UPGRADE_SUBRESOURCES = new Set(['exec', 'attach', 'portforward']);

/** The tenant's Pod Security level, forced on every Namespace it writes. */
export type PodSecurityOf = (tenantId: string) => PodSecurityLevel;

export interface ForwarderOptions {
  podSecurityOf?: PodSecurityOf;
  /** The tenant's placement contract (ADR 0043): its node selector is merged into every pod spec it writes. Default: SAFE_PLACEMENT. */
  placementOf?: (tenantId: string) => PlacementContract;
  /** Object admission (admission/write-admission.ts); default: none. */
  admission?: AdmissionChain;
  /** Would the engine claim a created workload at once (held-at-create.ts)? Default: never asked (held later by the engine). */
  claims?: ClaimLookup;
  /** Runs once the upstream created a namespace for the tenant, before the tenant hears of it (the quota view, gateway/quota-view). */
  namespaceCreated?: (tenantId: string, upstreamNamespace: string) => Promise<void>;
}

const createsNamespace = (info: RequestInfo): boolean => info.verb === 'create' && info.apiGroup === '' && info.resource === 'namespaces' && !info.subresource;

export function createForwarder(upstream: Upstream, pipe: ResponsePipe, options: ForwarderOptions = {}): Forwarder {
  const podSecurityOf = options.podSecurityOf ?? (() => 'baseline');
  const placementOf = options.placementOf ?? (() => SAFE_PLACEMENT);
  const admission = options.admission ?? createAdmissionChain([]);
  const targetOf = (ctx: TenantContext, info: RequestInfo, fwd: ForwardedRequest): WriteTarget =>
    ({ ctx, info, fwd, kind: requestKindOf(ctx, info), podSecurity: podSecurityOf(ctx.id), placement: placementOf(ctx.id) });

  async function write(req: IncomingMessage, res: ServerResponse, ctx: TenantContext, info: RequestInfo, fwd: ForwardedRequest, asked: PreparedRequest, guardFinal: GuardFinal): Promise<void> {
    // A workload a policy already claims is created held: the host never runs it (ADR 0023).
    const prepared = await holdCreateIfClaimed(options.claims, ctx, info, asked);
    await admission.write({ req, res, ctx, info, fwd }, async (admit) => {
      // The guard first (isolation), then admission, on the same final object, right before it is sent.
      const vet = async (final: FinalObject): Promise<void> => {
        guardFinal(final.upstream);
        await admit(final);
      };
      // A held object's scale is the tenant's replicas annotation on its parent (ADR 0023); not held: the usual way.
      if (isHeldKindScale(info)) {
        const answer = await writeHeldScale({ upstream, ctx, info, prepared, guard: guardFinal, admit });
        if (answer && 'scale' in answer) { sendJsonBody(res, 200, answer.scale); return; }
        if (answer) { pipe.sendTranslated(res, ctx, answer.refused.status, answer.refused.body); return; }
      }
      if (prepared.mode === 'patch' && prepared.write) {
        const answer = await patchByReadModifyWrite({ upstream, target: prepared.write, prepared, vet });
        pipe.sendTranslated(res, ctx, answer.status, answer.body);
        return;
      }
      if (prepared.final?.apply) {
        // The merge happens upstream: the upstream's dry run of it is what is judged (apply-by-dry-run.ts);
        // an apply to a held object is held again before both the dry run and the real apply (ADR 0023).
        const rewrite = writesHeldKind(info) ? heldApplyRewrite(info, ctx.user, applyCreateHold(options.claims, ctx, prepared.final.tenant)) : undefined;
        const answer = await applyByDryRun({ upstream, target: targetOf(ctx, info, fwd), prepared, applied: prepared.final, vet, ...(rewrite ? { rewrite } : {}) });
        sendWarning(res, ctx, answer);
        pipe.sendTranslated(res, ctx, answer.status, answer.body);
        return;
      }
      // Updates of a kind with a held form read the live object first, to keep a held one held.
      if (prepared.final && writesHeldKind(info)) {
        const answer = await writeHeldKind({ upstream, info, user: ctx.user, prepared: { ...prepared, final: prepared.final }, vet });
        sendWarning(res, ctx, answer);
        pipe.sendTranslated(res, ctx, answer.status, answer.body);
        return;
      }
      if (prepared.final) await vet(prepared.final);
      // A namespace comes with what the platform puts in it: sent here, so the tenant's answer waits for that.
      if (prepared.final && options.namespaceCreated && createsNamespace(info)) {
        const answer = await upstream.request<KubeObject>('POST', withQuery(prepared.path, prepared.query), prepared.body);
        const name = answer.body?.metadata?.name;
        if (answer.status >= 200 && answer.status < 300 && name && !prepared.query.has('dryRun')) await options.namespaceCreated(ctx.id, name);
        sendWarning(res, ctx, answer);
        pipe.sendTranslated(res, ctx, answer.status, answer.body);
        return;
      }
      // Serialising a large body for upstream is a step of its own (yield-to-loop.ts).
      await yieldIfLarge(Number(req.headers['content-length'] ?? 0));
      pipe.json(req, res, ctx, prepared, kindHintOf(info, fwd));
    });
  }

  return {
    async prepare(req, ctx, info, fwd) {
      const method = (req.method ?? 'GET').toUpperCase();
      const base = { method, path: fwd.path, query: fwd.query };
      // The quota view is read-only to the tenant (quota-view-writes.ts).
      refuseQuotaViewWrite(info, ctx.user);
      sparesQuotaView(info, base.query);
      if (UPGRADE_SUBRESOURCES.has(info.subresource)) return { ...base, mode: 'upgrade' };
      if (STREAMING_SUBRESOURCES.has(info.subresource)) return { ...base, mode: 'stream' };
      if (info.verb === 'watch') return { ...base, mode: 'watch' };
      if (info.verb === 'create' || info.verb === 'update') {
        // The request decides the kind (request-kind.ts): the body's apiVersion and kind are checked, or filled.
        const target = targetOf(ctx, info, fwd);
        const obj = await readRequestObject(req, bodyTypeOf(info));
        refuseTenantLabelEdit(info, ctx.user, obj);
        refuseQuotaViewWrite(info, ctx.user, obj);
        const final = translateWrite(target, obj, { source: 'body', verb: info.verb });
        return { ...base, mode: 'json', body: final.upstream, guardBody: final.upstream, final: { ...final, apply: false }, bodyConsumed: true };
      }
      if (info.verb === 'patch') {
        const type = patchKindOf(req.headers['content-type']);
        if (!type) {
          throw new ApiError('UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json');
        }
        const target = targetOf(ctx, info, fwd);
        const patch = await readRequestValue(req);
        refuseTenantLabelEdit(info, ctx.user, patch);
        if (type === 'apply') {
          if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw badRequest('the apply body must be an object');
          const obj = patch as KubeObject;
          obj.metadata ??= {};
          // The applied configuration is guarded here; the merged object before it is sent (write()).
          const final = translateWrite(target, obj, { source: 'body', verb: 'apply' });
          return { ...base, mode: 'json', body: final.upstream, guardBody: final.upstream, final: { ...final, apply: true }, contentType: 'application/apply-patch+yaml', bodyConsumed: true };
        }
        // Other patches are applied here, to the tenant's view of the object, then written back
        // with a resourceVersion precondition: kube-apiserver does the same internally, and it keeps
        // the tenant from patching what it cannot see (prefixes, the tenant label).
        return { ...base, method: 'PUT', mode: 'patch', body: patch, patchType: type, bodyConsumed: true, write: target };
      }
      if (info.verb === 'delete' || info.verb === 'deletecollection') {
        const hasBody = sendsBody(req);
        const options = hasBody ? await readRequestValue(req, { group: 'meta.k8s.io', version: 'v1', kind: 'DeleteOptions' }) : undefined;
        return { ...base, mode: 'json', body: options, bodyConsumed: hasBody };
      }
      return { ...base, mode: 'json' };
    },

    async send(req, res, ctx, info, fwd, prepared, guardFinal) {
      switch (prepared.mode) {
        case 'watch':
          pipe.watch(req, res, ctx, prepared, kindHintOf(info, fwd));
          return;
        case 'stream':
          pipe.stream(req, res, ctx, prepared);
          return;
        case 'upgrade':
          throw new ApiError('BadRequest', `${info.subresource} needs a connection upgrade (SPDY or WebSocket)`);
        default:
          if (info.verb === 'get' && isHeldKindScale(info)) {
            const scale = await readHeldScale({ upstream, ctx, info, prepared });
            if (scale) { sendJsonBody(res, 200, scale); return; }
          }
          if (isAdmittedVerb(info)) await write(req, res, ctx, info, fwd, prepared, guardFinal);
          else pipe.json(req, res, ctx, prepared, kindHintOf(info, fwd));
      }
    },
  };
}

/** The proxied path keeps upstream warnings (unknown fields under fieldValidation=Warn): so do the read-then-write paths, scrubbed. */
function sendWarning(res: ServerResponse, ctx: TenantContext, answer: UpstreamResponse): void {
  const warning = answer.headers.warning;
  if (typeof warning === 'string' && warning !== '') res.setHeader('Warning', scrubText(ctx.id, warning, ctx.isTenantId));
}
