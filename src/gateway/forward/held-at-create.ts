// Holding at create time (ADR 0023): a workload of a held kind that a policy
// already claims when it is created is created held, so a host that runs
// controllers never makes a ReplicaSet, pod or Job for it. Before, the engine
// held it only after writing its binding, and in between the host ran it (a
// StatefulSet's first pod was made, then removed by the hold).
// The gateway only predicts the engine's claim, with the engine's own rule
// (claimOf, in the tenant's terms) over the policies stored upstream at that
// moment; the engine's judgement stays the final one: a template it finds
// unclaimed and unbound it releases (detect-template.ts), one it claims it
// keeps held. So a wrong prediction (a policy deleted or edited in between)
// costs a moment of hold or a moment of running, never a lasting state.
import type { KubeObject } from '../../core/types.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import { hasHeldResource, hold, holdCreated } from '../../core/propagation/host-hold.ts';
import { claimOf } from '../../core/propagation/binding/claim.ts';
import type { Placement, PropagationPolicy } from '../../core/propagation/karmada-types.ts';
import { toTenantObject } from '../../core/tenancy/object-translation.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import type { Upstream } from '../../kube/upstream.ts';
import type { TenantDirectory } from '../../tenants/tenant-directory.ts';
import type { PreparedRequest } from './prepared-request.ts';

/** Would the engine claim this object (tenant terms, as created) right now? */
export type ClaimLookup = (ctx: TenantContext, view: KubeObject, upstreamNamespace: string) => Promise<boolean>;

const POLICY_API = 'policy.karmada.io/v1alpha1';

export function createClaimLookup(upstream: Upstream, tenants: Pick<TenantDirectory, 'byId'>): ClaimLookup {
  /** The tenant's policies of one kind at `path`, in its terms; none when the upstream cannot list them (the engine holds later, as before). */
  const policiesAt = async (ctx: TenantContext, path: string, kind: string): Promise<PropagationPolicy[]> => {
    const res = await upstream.request<{ items?: PropagationPolicy[] }>('GET', path);
    if (res.status !== 200 || !Array.isArray(res.body?.items)) return [];
    return res.body.items.flatMap((p) => {
      const view = toTenantObject(ctx, { ...p, apiVersion: POLICY_API, kind });
      return view ? [view as PropagationPolicy] : [];
    });
  };
  return async (ctx, view, upstreamNamespace) => {
    const defaultPlacement = tenants.byId(ctx.id)?.defaultPlacement as Placement | undefined;
    const selector = `labelSelector=${encodeURIComponent(`${TENANT_LABEL}=${ctx.id}`)}`;
    const [namespaced, cluster] = await Promise.all([
      policiesAt(ctx, `/apis/${POLICY_API}/namespaces/${encodeURIComponent(upstreamNamespace)}/propagationpolicies?${selector}`, 'PropagationPolicy'),
      policiesAt(ctx, `/apis/${POLICY_API}/clusterpropagationpolicies?${selector}`, 'ClusterPropagationPolicy'),
    ]);
    return claimOf(view, namespaced, cluster, defaultPlacement) !== undefined;
  };
}

/** Is this request a create (POST) of a kind with a held form? Only then is the claim looked up. */
function createsHeldKind(info: RequestInfo, prepared: PreparedRequest): boolean {
  return info.verb === 'create' && info.subresource === '' && prepared.final !== undefined && !prepared.final.apply
    && hasHeldResource(info.apiGroup, info.resource);
}

/** The create to send: held when the engine would claim it at once, else as prepared. */
export async function holdCreateIfClaimed(lookup: ClaimLookup | undefined, ctx: TenantContext, info: RequestInfo, prepared: PreparedRequest): Promise<PreparedRequest> {
  const final = prepared.final;
  if (!lookup || !final || !createsHeldKind(info, prepared)) return prepared;
  if (!await lookup(ctx, final.tenant, final.upstream.metadata.namespace ?? '')) return prepared;
  const held = holdCreated(final.upstream);
  return { ...prepared, body: held, guardBody: held, final: { ...final, upstream: held } };
}

/** For a server-side apply that creates its object (no live one): the applied configuration held when claimed. */
export function applyCreateHold(lookup: ClaimLookup | undefined, ctx: TenantContext, applied: KubeObject | undefined): ((upstreamApplied: KubeObject) => Promise<KubeObject>) | undefined {
  if (!lookup || !applied) return undefined;
  return async (upstreamApplied) => (await lookup(ctx, applied, upstreamApplied.metadata.namespace ?? '') ? hold(upstreamApplied) : upstreamApplied);
}
