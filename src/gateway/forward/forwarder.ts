// Forwarding a translated resource request upstream, and its answer back.
// prepare() builds the exact upstream request (so the guard can judge it);
// send() performs it and translates the response, stream or error.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, badRequest } from '../../core/api-error.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import type { KubeObject } from '../../core/types.ts';
import type { ForwardedRequest } from '../../core/tenancy/request-translation.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import { toUpstreamObject } from '../../core/tenancy/object-translation.ts';
import { patchKindOf } from '../../http/request-body.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { readRequestObject, readRequestValue } from './request-body.ts';
import { patchByReadModifyWrite } from './patch-by-update.ts';
import { bodyTypeOf, kindHintOf } from './body-type.ts';
import { forcePodSecurity, type PodSecurityLevel } from '../../core/tenancy/pod-security.ts';
import type { ResponsePipe } from './response-pipe.ts';
import type { PreparedRequest } from './prepared-request.ts';
import { admitObject, admitUpstreamObject } from '../admission/admit-request.ts';

export interface Forwarder {
  prepare(req: IncomingMessage, ctx: TenantContext, info: RequestInfo, fwd: ForwardedRequest): Promise<PreparedRequest>;
  send(req: IncomingMessage, res: ServerResponse, ctx: TenantContext, info: RequestInfo, fwd: ForwardedRequest, prepared: PreparedRequest): Promise<void>;
}

const STREAMING_SUBRESOURCES = new Set(['log']);
const UPGRADE_SUBRESOURCES = new Set(['exec', 'attach', 'portforward']);

/** The tenant's Pod Security level, forced on every Namespace it writes. */
export type PodSecurityOf = (tenantId: string) => PodSecurityLevel;

export function createForwarder(upstream: Upstream, pipe: ResponsePipe, podSecurityOf: PodSecurityOf = () => 'baseline'): Forwarder {
  return {
    async prepare(req, ctx, info, fwd) {
      const method = (req.method ?? 'GET').toUpperCase();
      const base = { method, path: fwd.path, query: fwd.query };
      if (UPGRADE_SUBRESOURCES.has(info.subresource)) return { ...base, mode: 'upgrade' };
      if (STREAMING_SUBRESOURCES.has(info.subresource)) return { ...base, mode: 'stream' };
      if (info.verb === 'watch') return { ...base, mode: 'watch' };
      if (info.verb === 'create' || info.verb === 'update') {
        const type = bodyTypeOf(info);
        const obj = await readRequestObject(req, type);
        // kube takes the kind from the path when the body leaves it out; so must the translator.
        if (type && obj.apiVersion === undefined && obj.kind === undefined) {
          obj.apiVersion = type.group ? `${type.group}/${type.version}` : type.version;
          obj.kind = type.kind;
        }
        admitObject(info, obj);
        const upstreamObj = forcePodSecurity(toUpstreamObject(ctx, obj, { namespaced: fwd.namespaced }), podSecurityOf(ctx.id));
        return { ...base, mode: 'json', body: upstreamObj, guardBody: upstreamObj, bodyConsumed: true };
      }
      if (info.verb === 'patch') {
        const type = patchKindOf(req.headers['content-type']);
        if (!type) {
          throw new ApiError('UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json');
        }
        const patch = await readRequestValue(req);
        if (type === 'apply') {
          if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw badRequest('the apply body must be an object');
          const obj = patch as KubeObject;
          obj.metadata ??= {};
          admitObject(info, obj); // the applied configuration, as sent: see admission/karmada-policies.ts
          const upstreamObj = forcePodSecurity(toUpstreamObject(ctx, obj, { namespaced: fwd.namespaced }), podSecurityOf(ctx.id));
          return { ...base, mode: 'json', body: upstreamObj, guardBody: upstreamObj, contentType: 'application/apply-patch+yaml', bodyConsumed: true };
        }
        // Other patches are applied here, to the tenant's view of the object, then written back
        // with a resourceVersion precondition: kube-apiserver does the same internally, and it keeps
        // the tenant from patching what it cannot see (prefixes, the tenant label).
        return { ...base, method: 'PUT', mode: 'patch', body: patch, patchType: type, bodyConsumed: true };
      }
      if (info.verb === 'delete' || info.verb === 'deletecollection') {
        const hasBody = Number(req.headers['content-length'] ?? '0') > 0 || req.headers['transfer-encoding'] !== undefined;
        const options = hasBody ? await readRequestValue(req, { group: 'meta.k8s.io', version: 'v1', kind: 'DeleteOptions' }) : undefined;
        return { ...base, mode: 'json', body: options, bodyConsumed: hasBody };
      }
      return { ...base, mode: 'json' };
    },

    async send(req, res, ctx, info, fwd, prepared) {
      switch (prepared.mode) {
        case 'watch':
          pipe.watch(req, res, ctx, prepared, kindHintOf(info, fwd));
          return;
        case 'stream':
          pipe.stream(req, res, ctx, prepared);
          return;
        case 'upgrade':
          throw new ApiError('BadRequest', `${info.subresource} needs a connection upgrade (SPDY or WebSocket)`);
        case 'patch': {
          const answer = await patchByReadModifyWrite({ upstream, ctx, info, fwd, prepared, finish: (obj) => forcePodSecurity(admitUpstreamObject(ctx, info, obj), podSecurityOf(ctx.id)) });
          pipe.sendTranslated(res, ctx, answer.status, answer.body);
          return;
        }
        default:
          pipe.json(req, res, ctx, prepared, kindHintOf(info, fwd));
      }
    },
  };
}

export function withQuery(path: string, query: URLSearchParams): string {
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
