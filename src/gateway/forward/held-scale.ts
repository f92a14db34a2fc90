// The scale subresource of a held object (ADR 0023; Deployments,
// StatefulSets, ReplicaSets, ReplicationControllers). Upstream, the scale of a
// held object is its held replicas (0), and writing it would set the held
// field and run the template on the host. So for a held object the gateway
// answers the scale itself, from the tenant's view (its replicas, the engine's
// status), and a scale write (kubectl scale: a merge patch; older clients a PUT)
// sets the tenant's replicas annotation on the parent, pinned to the version it
// read. An object that is not held goes the usual way (the callers fall through).
import { ApiError, conflict } from '../../core/api-error.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import type { KubeObject } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import { isHeld, setHeldReplicas } from '../../core/propagation/host-hold.ts';
import { heldKindOfResource } from '../../core/propagation/held-kinds.ts';
import { toTenantObject } from '../../core/tenancy/object-translation.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import { selectorString } from '../../core/table/cell-format.ts';
import type { Upstream, UpstreamResponse } from '../../kube/upstream.ts';
import type { FinalObject } from '../admission/admission-chain.ts';
import { applyPatch } from './patch-by-update.ts';
import { type PreparedRequest, withQuery } from './prepared-request.ts';
import { retryStaleWrite } from './retry-stale-write.ts';

export function isHeldKindScale(info: RequestInfo): boolean {
  return info.subresource === 'scale' && info.name !== '' && heldKindOfResource(info.apiGroup, info.resource)?.scale === true;
}

/** A ReplicationController's selector is a plain map (labels.SelectorFromSet), the others' a LabelSelector. */
function scaleSelector(view: KubeObject, selector: unknown): string {
  if (view.kind !== 'ReplicationController') return selectorString(selector);
  return Object.entries(isObject(selector) ? selector : {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${String(v)}`).join(',');
}

/** autoscaling/v1 Scale of a tenant view, as kube's scale subresource builds it. */
export function scaleOf(view: KubeObject): KubeObject {
  const spec = isObject(view.spec) ? view.spec : {};
  const status = isObject(view.status) ? view.status : {};
  const replicas = typeof spec.replicas === 'number' ? spec.replicas : 0;
  const { name, namespace, uid, resourceVersion, creationTimestamp } = view.metadata;
  return {
    kind: 'Scale', apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    // autoscaling/v1 ScaleSpec.replicas is omitempty; ScaleStatus.replicas is not.
    spec: replicas !== 0 ? { replicas } : {},
    status: { replicas: typeof status.replicas === 'number' ? status.replicas : 0, selector: scaleSelector(view, spec.selector) },
  };
}

export interface HeldScaleInput {
  upstream: Upstream;
  ctx: TenantContext;
  info: RequestInfo;
  prepared: PreparedRequest;
}

const parentPath = (prepared: PreparedRequest): string => prepared.path.replace(/\/scale$/, '');

/** The held parent, or undefined (not held, or not readable: the usual path answers). */
async function heldParent(input: HeldScaleInput): Promise<KubeObject | undefined> {
  const res = await input.upstream.request<KubeObject>('GET', parentPath(input.prepared));
  return res.status === 200 && isHeld(res.body) ? res.body : undefined;
}

function view(ctx: TenantContext, obj: KubeObject, info: RequestInfo): KubeObject {
  const shown = toTenantObject(ctx, structuredClone(obj));
  if (!shown) throw new ApiError('NotFound', `${info.resource} "${info.name}" not found`, { name: info.name, kind: info.resource });
  return shown;
}

/** GET of a held object's scale: the Scale in tenant terms, or undefined when it is not held. */
export async function readHeldScale(input: HeldScaleInput): Promise<KubeObject | undefined> {
  const live = await heldParent(input);
  return live ? scaleOf(view(input.ctx, live, input.info)) : undefined;
}

function replicasOf(info: RequestInfo, scale: KubeObject): number {
  const spec = isObject(scale.spec) ? scale.spec : {};
  const replicas = spec.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas)) throw new ApiError('BadRequest', 'spec.replicas must be an integer');
  if (replicas < 0 || replicas > 2147483647) {
    const why = replicas < 0 ? 'must be greater than or equal to 0' : 'must be less than or equal to 2147483647';
    throw new ApiError('Invalid', `Scale.autoscaling "${info.name}" is invalid: spec.replicas: Invalid value: ${replicas}: ${why}`, {
      name: info.name, group: 'autoscaling', kind: 'Scale', causes: [{ type: 'FieldValueInvalid', field: 'spec.replicas', message: `Invalid value: ${replicas}: ${why}` }],
    });
  }
  return replicas;
}

export interface HeldScaleWrite extends HeldScaleInput {
  /** The guard on the parent object about to be written, at its own path. */
  guard: (upstreamObject: KubeObject, path: string) => void;
  /** Admission of the scale (quota reads its replicas). */
  admit: (final: FinalObject) => Promise<void>;
}

/** The Scale written (tenant terms), or the upstream's refusal (upstream terms, to translate). */
export type HeldScaleAnswer = { scale: KubeObject } | { refused: UpstreamResponse };

/** PUT or PATCH of a held object's scale; undefined when it is not held. */
export async function writeHeldScale(input: HeldScaleWrite): Promise<HeldScaleAnswer | undefined> {
  const { ctx, info, prepared, upstream } = input;
  return retryStaleWrite<HeldScaleAnswer | undefined>(async () => {
    const live = await heldParent(input);
    if (!live) return { result: undefined, pinnedHere: false };
    const current = scaleOf(view(ctx, live, info));
    const wanted = prepared.mode === 'patch'
      ? applyPatch(prepared.patchType ?? 'merge', structuredClone(current), prepared.body, 'io.k8s.api.autoscaling.v1.Scale')
      : structuredClone(prepared.final?.tenant ?? current);
    const pinned = wanted.metadata?.resourceVersion;
    // A patch of the view carries the live version; a PUT carries what the client read (or nothing).
    const clientPinned = prepared.mode !== 'patch' && pinned !== undefined && pinned !== '';
    if (pinned && pinned !== live.metadata.resourceVersion) {
      throw conflict({ group: info.apiGroup, resource: info.resource, name: info.name }, 'the object has been modified; please apply your changes to the latest version and try again');
    }
    const replicas = replicasOf(info, wanted);
    const next = setHeldReplicas(live, replicas);
    input.guard(next, parentPath(prepared));
    await input.admit({ tenant: wanted, upstream: { ...wanted, metadata: { ...wanted.metadata, namespace: live.metadata.namespace ?? '' }, spec: { replicas } }, apply: false });
    const written = await upstream.request<KubeObject>('PUT', withQuery(parentPath(prepared), prepared.query), next);
    if (written.status === 200) return { result: { scale: scaleOf(view(ctx, written.body, info)) }, pinnedHere: false };
    return { result: { refused: written }, written, pinnedHere: !clientPinned };
  });
}
