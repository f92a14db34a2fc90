// Subresources: status (generic), scale (autoscaling/v1 Scale over the
// resource's replica paths), namespaces/finalize, pods/log and
// serviceaccounts/token. Others are listed in discovery but not served here.
import { ApiError, badRequest, conflict, methodNotAllowed, notFound } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import type { ResourceDef, ScaleSubresource } from '../../core/resources/resource-def.ts';
import { decodeBody, patchKindOf, readBody } from '../../http/request-body.ts';
import { negotiateResourceFormat, sendJson } from './respond.ts';
import { applyFieldManager, writeOptions } from './query-options.ts';
import type { ResourceContext } from './resource-handlers.ts';
import type { TokenIssuer } from '../auth/token-issuer.ts';
import { applyJsonPatch } from '../../core/patch/json-patch.ts';
import { applyMergePatch } from '../../core/patch/merge-patch.ts';
import { readPath, writePath } from './json-paths.ts';


export async function handleSubresource(ctx: ResourceContext, tokens: TokenIssuer): Promise<void> {
  const { def, info } = ctx;
  const sub = info.subresource;
  if (sub === 'status' && def.subresources?.status) return handleStatus(ctx);
  if (sub === 'scale' && def.subresources?.scale) return handleScale(ctx, def.subresources.scale);
  if (sub === 'finalize' && def.resource === 'namespaces' && info.verb === 'update') return handleFinalize(ctx);
  if (sub === 'log' && def.resource === 'pods' && def.group === '' && info.verb === 'get') return handlePodLog(ctx);
  if (sub === 'token' && def.resource === 'serviceaccounts' && def.group === '' && info.verb === 'create') return handleToken(ctx, tokens);
  if (STREAMS.has(sub) && def.resource === 'pods' && def.group === '') return refusePodStream(ctx);
  if ((def.subresources?.other ?? []).includes(sub)) {
    throw new ApiError('MethodNotAllowed', `the server does not allow this method on the requested resource`);
  }
  throw new ApiError('NotFound', 'the server could not find the requested resource');
}

function namespaceOf(ctx: ResourceContext): string {
  return ctx.def.namespaced ? ctx.info.namespace : '';
}

async function handleStatus(ctx: ResourceContext): Promise<void> {
  const { registry, def, info } = ctx;
  const ns = namespaceOf(ctx);
  const ua = ctx.req.headers['user-agent'];
  if (info.verb === 'get') {
    sendJson(ctx.res, 200, registry.get(def, ns, info.name));
    return;
  }
  const options = writeOptions(ctx.query, ua, 'status');
  if (info.verb === 'update') {
    applyFieldManager(options, ua, false);
    const body = decodeBody(await readBody(ctx.req), ctx.req.headers['content-type'], def);
    sendStatusAnswer(ctx, registry.update(def, ns, info.name, body as KubeObject, options));
    return;
  }
  if (info.verb === 'patch') {
    const type = patchKindOf(ctx.req.headers['content-type']);
    if (!type) throw new ApiError('UnsupportedMediaType', 'the body of the request was in an unknown format');
    applyFieldManager(options, ua, type === 'apply');
    const body = decodeBody(await readBody(ctx.req), ctx.req.headers['content-type']);
    sendStatusAnswer(ctx, registry.patch(def, ns, info.name, type, body, options));
    return;
  }
  throw methodNotAllowed();
}

/** A status write's answer; metadata only when asked (`as=PartialObjectMetadata`), as kube-apiserver 1.20 answers it. */
function sendStatusAnswer(ctx: ResourceContext, obj: KubeObject): void {
  if (negotiateResourceFormat(ctx.req.headers.accept) === 'partial-metadata') sendJson(ctx.res, 200, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata });
  else sendJson(ctx.res, 200, obj);
}

function toScale(def: ResourceDef, obj: KubeObject, paths: ScaleSubresource): KubeObject {
  const selector = paths.labelSelectorPath ? readPath(obj, paths.labelSelectorPath) : undefined;
  const status: Record<string, unknown> = { replicas: Number(readPath(obj, paths.statusReplicasPath) ?? 0) };
  if (typeof selector === 'string') status.selector = selector;
  else if (selector && typeof selector === 'object') status.selector = selectorString(selector as Record<string, unknown>);
  else {
    const specSelector = readPath(obj, '.spec.selector');
    if (specSelector && typeof specSelector === 'object') status.selector = selectorString(specSelector as Record<string, unknown>);
  }
  const specReplicas = readPath(obj, paths.specReplicasPath);
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: obj.metadata.name, namespace: obj.metadata.namespace, uid: obj.metadata.uid,
      resourceVersion: obj.metadata.resourceVersion, creationTimestamp: obj.metadata.creationTimestamp,
    },
    spec: { replicas: typeof specReplicas === 'number' ? specReplicas : def.custom ? 0 : 1 },
    status,
  };
}

function selectorString(selector: Record<string, unknown>): string {
  const matchLabels = (selector.matchLabels ?? {}) as Record<string, string>;
  const parts = Object.keys(matchLabels).sort().map((k) => `${k}=${matchLabels[k]}`);
  for (const expr of (selector.matchExpressions ?? []) as Array<{ key: string; operator: string; values?: string[] }>) {
    if (expr.operator === 'In') parts.push(`${expr.key} in (${(expr.values ?? []).join(',')})`);
    else if (expr.operator === 'NotIn') parts.push(`${expr.key} notin (${(expr.values ?? []).join(',')})`);
    else if (expr.operator === 'Exists') parts.push(expr.key);
    else if (expr.operator === 'DoesNotExist') parts.push(`!${expr.key}`);
  }
  return parts.join(',');
}

async function handleScale(ctx: ResourceContext, paths: ScaleSubresource): Promise<void> {
  const { registry, def, info } = ctx;
  const ns = namespaceOf(ctx);
  const current = getForScale(ctx, ns);
  const scale = toScale(def, current, paths);
  if (info.verb === 'get') {
    sendJson(ctx.res, 200, scale);
    return;
  }
  let desired: KubeObject;
  const body = decodeBody(await readBody(ctx.req), ctx.req.headers['content-type'], { group: 'autoscaling', version: 'v1', kind: 'Scale' });
  if (info.verb === 'update') desired = body as KubeObject;
  else if (info.verb === 'patch') {
    const type = patchKindOf(ctx.req.headers['content-type']);
    if (type === 'json') desired = applyJsonPatch(scale, body);
    else if (type === 'merge' || type === 'strategic') desired = applyMergePatch(scale, body);
    else throw new ApiError('UnsupportedMediaType', 'the body of the request was in an unknown format');
  } else throw methodNotAllowed();
  const wanted = desired.metadata?.resourceVersion;
  if (wanted && wanted !== current.metadata.resourceVersion) {
    throw conflict({ group: def.group, resource: def.resource, name: info.name }, 'the object has been modified; please apply your changes to the latest version and try again');
  }
  const replicas = (desired.spec as { replicas?: unknown } | undefined)?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas)) throw badRequest('spec.replicas must be an integer');
  if (replicas < 0) {
    throw new ApiError('Invalid', `Scale.autoscaling "${info.name}" is invalid: spec.replicas: Invalid value: ${replicas}: must be greater than or equal to 0`, {
      name: info.name, group: 'autoscaling', kind: 'Scale', causes: [{ type: 'FieldValueInvalid', field: 'spec.replicas', message: `Invalid value: ${replicas}: must be greater than or equal to 0` }],
    });
  }
  const options = writeOptions(ctx.query, ctx.req.headers['user-agent'], '');
  applyFieldManager(options, ctx.req.headers['user-agent'], false);
  const next = writePath(current, paths.specReplicasPath, replicas);
  const updated = registry.update(def, ns, info.name, { ...next, metadata: { ...next.metadata, resourceVersion: current.metadata.resourceVersion } }, options);
  sendJson(ctx.res, 200, toScale(def, updated, paths));
}

/**
 * A GET of a missing object's scale names the scale resource, as kube's scale
 * registries do (`deployments/scale.apps "x" not found`; a replication controller's
 * scale lives in autoscaling); writes name the main resource, since they fail in
 * the main registry. Custom resources' scale reads the main resource.
 */
function getForScale(ctx: ResourceContext, ns: string): KubeObject {
  const { registry, def, info } = ctx;
  try {
    return registry.get(def, ns, info.name);
  } catch (err) {
    if (info.verb !== 'get' || def.custom || !(err instanceof ApiError && err.reason === 'NotFound')) throw err;
    const group = def.group === '' ? 'autoscaling' : def.group;
    throw notFound({ group, resource: `${def.resource}/scale`, name: info.name });
  }
}

async function handleFinalize(ctx: ResourceContext): Promise<void> {
  const { registry, def, info } = ctx;
  const body = decodeBody(await readBody(ctx.req), ctx.req.headers['content-type'], ctx.def) as KubeObject;
  const finalizers = ((body.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []);
  const current = registry.get(def, '', info.name);
  const next = { ...current, spec: { ...((current.spec as object | undefined) ?? {}), finalizers } };
  sendJson(ctx.res, 200, registry.finalizeNamespace(next));
}

/** Streams a kubelet would serve; nothing runs behind a pod here. */
const STREAMS = new Set(['exec', 'attach', 'portforward']);

const STREAM_WORDS: Record<string, string> = { exec: 'exec into', attach: 'attach to', portforward: 'forward a port of' };

/**
 * exec, attach and port-forward (issue 14 item 8): the user gets why, in words, rather than a 405 or a
 * hanging upgrade. A pod not on a node gets kube-apiserver's own answer; a pod on a node runs in no
 * container runtime: the workload simulator only reports it running.
 */
function refusePodStream(ctx: ResourceContext): void {
  const pod = ctx.registry.get(ctx.def, ctx.info.namespace, ctx.info.name);
  if (!(pod.spec as { nodeName?: string } | undefined)?.nodeName) throw badRequest(`pod ${ctx.info.name} does not have a host assigned`);
  throw badRequest(`pod ${ctx.info.name} is simulated: no container runs on this Kubernetes-compatible server, so there is nothing to ${STREAM_WORDS[ctx.info.subresource] ?? 'connect to'}`);
}

/** What a running pod's log says when the simulator recorded nothing: that no container wrote it, not an empty silence. */
function simulatedLogLines(name: string): string[] {
  return [`pod ${name} is simulated: no container runs on this Kubernetes-compatible server, so there is no container output`];
}

async function handlePodLog(ctx: ResourceContext): Promise<void> {
  const pod = ctx.registry.get(ctx.def, ctx.info.namespace, ctx.info.name);
  const spec = pod.spec as { containers?: Array<{ name: string }> } | undefined;
  const containers = (spec?.containers ?? []).map((c) => c.name);
  const container = ctx.query.get('container') ?? '';
  if (container && !containers.includes(container)) {
    throw badRequest(`container ${container} is not valid for pod ${ctx.info.name}`);
  }
  if (!container && containers.length > 1) {
    throw badRequest(`a container name must be specified for pod ${ctx.info.name}, choose one of: [${containers.join(' ')}]`);
  }
  // As kube-apiserver: a pod not yet bound to a node has no kubelet to ask, and its log is empty.
  if (!(pod.spec as { nodeName?: string } | undefined)?.nodeName) {
    ctx.res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private', 'Content-Length': 0 });
    ctx.res.end();
    return;
  }
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  if (phase === 'Pending' || phase === undefined) {
    throw badRequest(`container "${container || containers[0] || ''}" in pod "${ctx.info.name}" is waiting to start: ContainerCreating`);
  }
  // No container runs here: the log is what the workload simulator says happened.
  const recorded = (pod.metadata.annotations ?? {})['warren.dev/simulated-log'];
  const lines = recorded === undefined ? simulatedLogLines(ctx.info.name) : recorded.split('\n').filter(Boolean);
  const tail = Number(ctx.query.get('tailLines') ?? '-1');
  const shown = tail >= 0 ? lines.slice(Math.max(0, lines.length - tail)) : lines;
  ctx.res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' });
  ctx.res.end(shown.map((l) => `${l}\n`).join(''));
}

async function handleToken(ctx: ResourceContext, tokens: TokenIssuer): Promise<void> {
  const sa = ctx.registry.get(ctx.def, ctx.info.namespace, ctx.info.name);
  const body = decodeBody(await readBody(ctx.req), ctx.req.headers['content-type'], { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' }) as KubeObject;
  const spec = (body.spec ?? {}) as { audiences?: string[]; expirationSeconds?: number };
  const expirationSeconds = spec.expirationSeconds ?? 3600;
  if (expirationSeconds < 600) {
    throw new ApiError('Invalid', `TokenRequest.authentication.k8s.io "${ctx.info.name}" is invalid: spec.expirationSeconds: Invalid value: ${expirationSeconds}: may not specify a duration less than 10 minutes`, {
      name: ctx.info.name, group: 'authentication.k8s.io', kind: 'TokenRequest',
      causes: [{ type: 'FieldValueInvalid', field: 'spec.expirationSeconds', message: `Invalid value: ${expirationSeconds}: may not specify a duration less than 10 minutes` }],
    });
  }
  const issued = await tokens.issueServiceAccountToken({
    namespace: ctx.info.namespace, name: ctx.info.name, uid: sa.metadata.uid ?? '',
    audiences: spec.audiences && spec.audiences.length > 0 ? spec.audiences : undefined, expirationSeconds,
  });
  sendJson(ctx.res, 201, {
    kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1',
    metadata: { name: ctx.info.name, namespace: ctx.info.namespace, creationTimestamp: null },
    spec: { audiences: issued.audiences, expirationSeconds, boundObjectRef: null },
    status: { token: issued.token, expirationTimestamp: issued.expirationTimestamp },
  });
}
