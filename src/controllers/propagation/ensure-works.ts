// Phase 1 of a binding (Karmada's binding controller): binding → Works. For one
// scheduled cluster, the manifest it gets (its share of replicas, then its
// overrides) and the Work recording it, in the tenant's execution space for
// that cluster. The Work is only written when it differs (work-writes.ts).
import type { KubeObject } from '../../core/types.ts';
import type { Cluster, TargetCluster } from '../../core/propagation/karmada-types.ts';
import { buildWork, manifestFor } from '../../core/propagation/binding/build-work.ts';
import { executionNamespace } from '../../core/propagation/detector/index.ts';
import { toUpstreamNamespace } from '../../core/tenancy/names.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import type { EngineContext } from './engine-context.ts';
import { suspendedFor, type BindingPlan } from './binding-plan.ts';
import { WORK_CREATOR_ANNOTATION } from './member-labels.ts';
import { ensureExecutionSpace, ensureWork } from './work-writes.ts';
import type { WorkView } from './work-view.ts';

/** The manifest for this cluster, in the tenant's terms; throws (ApiError) when an override cannot apply. */
export function manifestForCluster(plan: BindingPlan, target: TargetCluster, cluster: Cluster): KubeObject {
  return manifestFor(plan.pruned, target, cluster, plan.divided, plan.overrides, plan.clusterOverrides).manifest;
}

/** Creates or updates the binding's Work for this cluster; returns the Work's view. */
export async function ensureWorkFor(ctx: EngineContext, plan: BindingPlan, target: TargetCluster, manifest: KubeObject): Promise<WorkView> {
  const upstreamSpace = toUpstreamNamespace(plan.tenantId, executionNamespace(target.name));
  await ensureExecutionSpace(ctx.upstream, upstreamSpace, plan.tenantId);
  // The creator mark: Works are read-only to tenants (ADR 19), so only the engine writes this annotation.
  const workMarks = { tenantLabel: { [TENANT_LABEL]: plan.tenantId }, labels: plan.marks.labels, annotations: { ...plan.marks.annotations, [WORK_CREATOR_ANNOTATION]: plan.uid } };
  return ensureWork(ctx, buildWork(plan.workName, upstreamSpace, manifest, workMarks, {
    suspendDispatching: suspendedFor(plan, target.name), preserveResourcesOnDeletion: plan.binding.spec.preserveResourcesOnDeletion === true,
  }));
}
