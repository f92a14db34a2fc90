// The hold of a propagated template on the host (ADR 0023): once a policy
// claims it, and before its binding is written (so the binding, its Works and
// the member copies are written once, on the held generation), the template
// is stored upstream in its held form (a
// Deployment paused at 0 replicas, a Job at parallelism 0, ...: held-kinds.ts;
// the tenant's values in annotations), so a
// host that runs controllers does not run it too; once its binding is gone,
// it is released (the tenant's values back, the marks gone) and the host runs
// it like any workload nobody propagates. The tenant's status is the engine's
// aggregate, kept in an annotation: the host's controllers own `.status`.
// Every write is pinned to the version the engine read; a conflict requeues
// the key, which then judges the fresh copy.
import type { KubeObject } from '../../core/types.ts';
import { fromHeld, fullyHeld, hasHeldForm, heldStatusText, hold, isHeld, release, HELD_STATUS_ANNOTATION } from '../../core/propagation/host-hold.ts';
import { jsonEqual } from '../../core/json-equal.ts';
import { statusError } from '../../kube/status-error.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import type { ReconcileResult } from '../runtime/workers.ts';
import { scrubForTenant, type EngineContext } from './engine-context.ts';
import { namespacedPath, type TemplateResource } from './template-resources.ts';
import { ownWrite, templateStatusEchoKey } from './echo-record.ts';
import type { Claim } from '../../core/propagation/binding/claim.ts';
import { ApiError } from '../../core/api-error.ts';

/** Names the engine's writes in managedFields (without it a real kube-apiserver records them as `unknown`). */
export const ENGINE_FIELD_MANAGER = 'warren-propagation';
const RETRY_SOON: ReconcileResult = { requeueAfterMs: 250 };

const pathOf = (resource: TemplateResource, obj: KubeObject): string =>
  `${namespacedPath(resource, obj.metadata.namespace ?? '')}/${encodeURIComponent(obj.metadata.name ?? '')}`;

async function put(ctx: EngineContext, resource: TemplateResource, obj: KubeObject): Promise<ReconcileResult | void> {
  const res = await ctx.upstream.request('PUT', `${pathOf(resource, obj)}?fieldManager=${ENGINE_FIELD_MANAGER}`, obj);
  if (res.status === 200 || res.status === 404) return undefined;
  if (res.status === 409) return RETRY_SOON; // the informer's copy was stale: judge the fresh one
  throw statusError(res.status, res.body);
}

/** A kind with a held form, not held in full yet: ensureHeld would write it. */
export const needsHold = (template: KubeObject): boolean => hasHeldForm(template) && !fullyHeld(template);

/** Holds a template that a policy claims or a binding still propagates (a kind with a held form only). */
export async function ensureHeld(ctx: EngineContext, resource: TemplateResource, template: KubeObject): Promise<ReconcileResult | void> {
  if (!needsHold(template)) return undefined;
  return put(ctx, resource, hold(template));
}

/**
 * Releases a held template whose binding is gone. The informer keeps templates without managedFields, and
 * the release takes the marks out of them too: it is built on a fresh read (once per release, which is rare).
 */
export async function ensureReleased(ctx: EngineContext, resource: TemplateResource, template: KubeObject): Promise<ReconcileResult | void> {
  if (!hasHeldForm(template) || !isHeld(template)) return undefined;
  const fresh = await ctx.upstream.request<KubeObject>('GET', pathOf(resource, template));
  if (fresh.status === 404) return undefined;
  if (fresh.status !== 200) throw statusError(fresh.status, fresh.body);
  // Changed since the informer's copy: judged again on that copy's event (the write would conflict anyway).
  if (fresh.body.metadata.resourceVersion !== template.metadata.resourceVersion) return RETRY_SOON;
  return put(ctx, resource, release(fresh.body));
}

/**
 * The aggregated status of a held template, for the tenant, in its annotation. Not held (yet): nothing is
 * written (the host owns `.status`; the detector's hold wakes the binding again). Returns false for a
 * template of a kind without a held form (the caller writes `/status` as for any template).
 */
export async function writeHeldStatus(ctx: EngineContext, resource: TemplateResource, template: KubeObject,
  build: (view: KubeObject) => Record<string, unknown> | undefined): Promise<boolean> {
  if (!hasHeldForm(template)) return false;
  if (!isHeld(template)) return true;
  const view = fromHeld(template);
  const status = build(view);
  if (status === undefined || jsonEqual(view.status ?? {}, status)) return true;
  // A merge patch of one annotation, pinned: nothing else of the object changes, and a release in between is a conflict.
  const patch = { metadata: { resourceVersion: template.metadata.resourceVersion, annotations: { [HELD_STATUS_ANNOTATION]: heldStatusText(status) } } };
  const key = templateStatusEchoKey(resource, template.metadata.namespace ?? '', template.metadata.name ?? '');
  const res = await ownWrite(ctx.echoes, key, () => ctx.upstream.request('PATCH', `${pathOf(resource, template)}?fieldManager=${ENGINE_FIELD_MANAGER}`, patch, { 'Content-Type': 'application/merge-patch+json' }));
  if (res.status === 200 || res.status === 404) return true;
  // Refused as invalid (the status annotation does not fit beside the tenant's): said on the template, not
  // retried (the same write would be refused again); the next status change tries again.
  if (res.status === 422) {
    await warnRefused(ctx, template, 'AggregateStatusFailed', 'the propagation engine could not record the status of this object', statusError(res.status, res.body));
    return true;
  }
  throw statusError(res.status, res.body); // a conflict retries the binding key on the fresh template
}

/** The tenant id an upstream template carries (the engine only reads templates that carry one). */
const tenantIdOf = (template: KubeObject): string => template.metadata.labels?.[TENANT_LABEL] ?? '';

async function warnRefused(ctx: EngineContext, template: KubeObject, reason: string, what: string, err: ApiError): Promise<void> {
  await ctx.events.record(template, 'Warning', reason, `${what}: ${scrubForTenant(ctx, tenantIdOf(template), err.message)}`);
}

/** Names the claim as Karmada's ApplyPolicyFailed event does, in the tenant's terms. */
function claimText(claim: Claim, tenantNamespace: string): string {
  if (claim.source === 'PropagationPolicy') return `Apply policy(${tenantNamespace}/${claim.policyName ?? ''})`;
  if (claim.source === 'ClusterPropagationPolicy') return `Apply cluster policy(${claim.policyName ?? ''})`;
  return 'Apply the tenant\'s default placement';
}

/**
 * A claimed template's hold and binding writes, each refused for good when the upstream finds what it would
 * write invalid (422): the tenant's annotations leave no room for the hold's marks, or the binding's name
 * (`<name>-<kind>`, Karmada's GenerateBindingName, which does not shorten) passes 253 characters. Retried,
 * such a write fails the same way for ever, and the tenant saw nothing (r2's find, session 11). As Karmada's
 * detector does, a Warning ApplyPolicyFailed on the template says why, in the tenant's terms; unlike it, the
 * key is not retried: the template's or a policy's next change wakes it again. Returns undefined when refused;
 * any other failure is thrown (retried with backoff).
 */
export async function claimWrite<T>(ctx: EngineContext, template: KubeObject, claim: Claim, tenantNamespace: string, write: () => Promise<T>): Promise<T | undefined> {
  try {
    return await write();
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 422) throw err;
    await warnRefused(ctx, template, 'ApplyPolicyFailed', `${claimText(claim, tenantNamespace)} failed`, err);
    return undefined;
  }
}
