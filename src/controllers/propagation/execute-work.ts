// Phase 2 of a binding (Karmada's execution controller): Work → member. The
// Work's manifest goes to the member in the member's terms (the tenant prefix,
// the engine's marks) by server-side apply, unless dispatching is suspended,
// the member is not ready or cannot be reached, or the manifest may not go
// there (a cluster-wide grant, ADR 20; a name outside the tenant's space). The
// Work then records what happened (phase 3, work-applied-status.ts). The Work
// write runs while the member is applied to: the host and the member work at once.
import { createHash } from 'node:crypto';
import type { KubeObject } from '../../core/types.ts';
import type { Cluster, TargetCluster } from '../../core/propagation/karmada-types.ts';
import type { ClusterOutcome } from '../../core/propagation/binding/binding-status.ts';
import { memberManifest } from '../../core/propagation/binding/build-work.ts';
import { RESOURCE_TEMPLATE_GENERATION_ANNOTATION } from '../../core/propagation/status/reflect-status.ts';
import { executionNamespace } from '../../core/propagation/detector/index.ts';
import { podSecurityLabels } from '../../core/tenancy/pod-security.ts';
import { inTenantSpace } from '../../core/propagation/trust/member-ownership.ts';
import { scopeRbacForMember, type MemberRbac } from '../../core/propagation/trust/member-rbac.ts';
import { refuseReservedReferences } from '../../core/propagation/trust/member-references.ts';
import { refuseDemandAbove } from '../../core/propagation/trust/member-demand.ts';
import { holdToPlacement } from '../../core/propagation/trust/member-placement.ts';
import { placementContractOf, SAFE_PLACEMENT, type PlacementContract } from '../../core/tenancy/pod-placement.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { errorMessage, scrubForTenant, type EngineContext } from './engine-context.ts';
import { suspendedFor, type BindingPlan } from './binding-plan.ts';
import { applyToMember, ConflictError, deleteFromMember, ensureMemberNamespace, forgetMemberNamespace } from './member-apply.ts';
import { WORK_NAME_ANNOTATION, WORK_NAMESPACE_ANNOTATION } from './member-labels.ts';
import { isNamespaceRow } from './template-resources.ts';
import { memberEchoKey } from './echo-record.ts';
import { writeWorkApplied } from './work-applied-status.ts';
import type { WorkView } from './work-view.ts';
import { appliedKey } from './applied-record.ts';

/** A refusal (`permanent`) is not retried on a timer: it heals only when the binding or the Tenant changes. */
export type Outcome = ClusterOutcome & { permanent?: boolean };

export interface Execution {
  plan: BindingPlan;
  target: TargetCluster;
  cluster: Cluster;
  /** The manifest, tenant terms (what the Work holds). */
  manifest: KubeObject;
  /** The Work write for this cluster, under way; awaited on every path. */
  work: Promise<WorkView>;
}

export async function executeOnMember(ctx: EngineContext, run: Execution): Promise<Outcome> {
  const { plan, target, cluster, manifest } = run;
  const { resource, tenantId, namespace } = plan;
  const outcome = (applied: boolean, message?: string, memberObject?: KubeObject): Outcome =>
    ({ cluster: target.name, applied, ...(message ? { message } : {}), ...(memberObject ? { memberObject } : {}) });
  const recordOnWork = async (applied: boolean, message: string, memberObject: KubeObject | undefined): Promise<void> =>
    writeWorkApplied(ctx, await run.work, { applied, reason: applied ? 'AppliedSuccessful' : 'AppliedFailed', message, memberObject, manifest, resource });
  const observed = ctx.members.observed(target.name, resource, namespace, plan.binding.spec.resource.name);
  if (suspendedFor(plan, target.name)) {
    await run.work;
    return outcome(observed.obj !== undefined, 'dispatching is suspended', observed.obj);
  }
  if (cluster.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'False')) {
    // The Work says so too (kubectl get works shows APPLIED False): a member that cannot be reached is a failure the tenant should see there.
    const text = `cluster ${target.name} is not ready`;
    await recordOnWork(false, text, observed.obj);
    return outcome(false, text, observed.obj);
  }
  const member = await ctx.members.client(cluster);
  if (!member) {
    await run.work;
    return outcome(false, `no credentials for cluster ${target.name}`, observed.obj);
  }
  await ctx.members.watch(cluster, resource);
  const scoped = memberCopyFor(plan, target.name, manifest, ctx.settings.placement);
  if (!scoped.ok) {
    // A cluster-wide grant is refused on members (ADR 20): the Work says why, nothing is applied, and a copy an
    // earlier engine applied goes (only if it carries this binding's marks).
    await deleteFromMember(member, resource, { tenantId, bindingUid: plan.uid, address: plan.address })
      .catch((err: unknown) => ctx.log(`propagation: cannot remove ${resource.kind} ${plan.address.name} from ${target.name} yet: ${errorMessage(err)}`));
    await recordOnWork(false, scoped.reason, undefined);
    return { ...outcome(false, scoped.reason), permanent: true };
  }
  if (!inTenantSpace(tenantId, resource, scoped.obj, plan.address)) {
    // The template's own translation put it elsewhere than the binding's address: never write there.
    await run.work;
    return { ...outcome(false, 'the object does not translate to the tenant\'s space on the member'), permanent: true };
  }
  const applied = await applyIfChanged(ctx, { plan, target, member, memberObj: scoped.obj, observed });
  if (applied.failure !== undefined) {
    await recordOnWork(false, applied.failure, undefined);
    return outcome(false, applied.failure, observed.obj);
  }
  await recordOnWork(true, 'Manifest has been successfully applied', applied.current);
  return outcome(true, undefined, applied.current);
}

/**
 * What the member gets for this cluster: the manifest in the member's terms with the engine's marks over
 * whatever the template says under those keys, a Namespace with the tenant's Pod Security labels, cluster-wide
 * RBAC scoped or refused (ADR 20), a reserved priority class or a claim's volume refused (member-references.ts), the tenant's
 * placement contract held (member-placement.ts, ADR 0043: the platform's default unless the Tenant says), a copy asking for more than its
 * template refused (member-demand.ts). Pure: the steering property test judges exactly this.
 */
export function memberCopyFor(plan: Pick<BindingPlan, 'tctx' | 'resource' | 'marks' | 'tenant' | 'workName' | 'pruned'>, clusterName: string, manifest: KubeObject, platform: PlacementContract = SAFE_PLACEMENT): MemberRbac {
  const podSecurity = plan.tenant.spec?.podSecurity ?? 'baseline';
  const labels = isNamespaceRow(plan.resource) ? { ...plan.marks.labels, ...podSecurityLabels(podSecurity) } : plan.marks.labels;
  // The template generation as pruneTemplate stamped it (the engine's value): an override's goes with the other engine keys.
  const generation = plan.pruned.metadata.annotations?.[RESOURCE_TEMPLATE_GENERATION_ANNOTATION];
  const annotations = {
    ...plan.marks.annotations, [WORK_NAME_ANNOTATION]: plan.workName, [WORK_NAMESPACE_ANNOTATION]: executionNamespace(clusterName),
    ...(generation !== undefined ? { [RESOURCE_TEMPLATE_GENERATION_ANNOTATION]: generation } : {}),
  };
  const copy = holdToPlacement(refuseReservedReferences(scopeRbacForMember(memberManifest(plan.tctx, manifest, { labels, annotations }))),
    placementContractOf(plan.tenant.spec?.placement, platform));
  return refuseDemandAbove(plan.resource, plan.pruned, copy);
}

interface ApplyInput {
  plan: BindingPlan;
  target: TargetCluster;
  member: Upstream;
  memberObj: KubeObject;
  observed: { synced: boolean; obj: KubeObject | undefined };
}

/** Applies unless the same manifest was applied and the copy is still its result (applied-record.ts). */
async function applyIfChanged(ctx: EngineContext, input: ApplyInput): Promise<{ current: KubeObject | undefined; failure?: string }> {
  const { plan, target, member, memberObj, observed } = input;
  const { resource, tenantId, namespace } = plan;
  const name = plan.binding.spec.resource.name;
  const key = appliedKey(target.name, namespace, resource.kind, name);
  const hash = createHash('sha1').update(JSON.stringify(memberObj)).digest('hex');
  if (ctx.applied.unchanged(key, hash, observed.synced ? observed.obj : undefined)) return { current: observed.obj };
  try {
    if (namespace) await ensureMemberNamespace(member, namespace, tenantId, plan.tenant.spec?.podSecurity ?? 'baseline');
    const echoKey = memberEchoKey(target.name, resource, namespace, name);
    let result: KubeObject | undefined;
    ctx.echoes.begin(echoKey);
    try {
      // A member namespace `<id>-<ns>` is the tenant's by its name: one the engine made implicitly is taken over.
      result = await applyToMember(member, resource, memberObj, { tenantId, existing: observed.synced ? observed.obj : 'unknown', overwrite: plan.binding.spec.conflictResolution === 'Overwrite' });
    } finally {
      ctx.echoes.end(echoKey, result); // the member's event for this apply wakes nothing
    }
    ctx.applied.record(key, hash, result);
    return { current: result };
  } catch (err) {
    if (err instanceof Error && /not ?found/i.test(err.message)) forgetMemberNamespace(member, namespace);
    // The member speaks in upstream names; the tenant reads this, so the prefix goes.
    return { current: observed.obj, failure: scrubForTenant(ctx, tenantId, err instanceof ConflictError ? err.message : `failed to apply on cluster ${target.name}: ${errorMessage(err)}`) };
  }
}
