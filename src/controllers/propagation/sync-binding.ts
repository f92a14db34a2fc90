// The executor's pass over one binding, phase by phase as Karmada splits it
// over four controllers: binding → Works (ensure-works.ts), Work → member
// (execute-work.ts), member → Work status (work-applied-status.ts), Work status
// → binding and template status (sync-binding-status.ts). Clusters no longer
// scheduled lose their Work and their copy (remove-works.ts), except clusters
// being evicted by failover, which keep theirs until the new copies are
// healthy (graceful-eviction.ts).
import type { KubeObject } from '../../core/types.ts';
import type { TargetCluster } from '../../core/propagation/karmada-types.ts';
import { aggregatedStatusOf } from '../../core/propagation/binding/binding-status.ts';
import { workName } from '../../core/propagation/detector/index.ts';
import { toTenantNamespace } from '../../core/tenancy/names.ts';
import { judgeBinding } from '../../core/propagation/trust/binding-trust.ts';
import { notAllowedMessage } from '../../core/propagation/trust/allowed-targets.ts';
import type { ReconcileResult } from '../runtime/workers.ts';
import { releaseBinding } from './binding-writes.ts';
import { errorMessage, scrubForTenant, type EngineContext } from './engine-context.ts';
import { bindingOf } from './engine-informers.ts';
import { BINDING_FINALIZER } from './member-labels.ts';
import { syncDependencies } from './dependencies.ts';
import { planBinding, type BindingPlan } from './binding-plan.ts';
import { ensureWorkFor, manifestForCluster } from './ensure-works.ts';
import { executeOnMember, type Outcome } from './execute-work.ts';
import { clusterOfWork, removeFrom, worksInSlots, type RemovalScope } from './remove-works.ts';
import { finishEvictions } from './graceful-eviction.ts';
import { syncBindingStatus, writeTemplateStatus } from './sync-binding-status.ts';
import type { WorkView } from './work-view.ts';

export async function reconcileBinding(ctx: EngineContext, tenantId: string, namespace: string, name: string): Promise<ReconcileResult | void> {
  // namespace '' is a ClusterResourceBinding (a cluster-scoped template's).
  const binding = bindingOf(ctx.informers, namespace, name);
  await syncDependencies(ctx, tenantId, namespace, name, binding);
  if (!binding) return;
  const resource = ctx.informers.resourceOf(binding.spec.resource.apiVersion, binding.spec.resource.kind);
  if (!resource) {
    // A custom kind whose CRD is gone: nothing left to address its copies by, so the binding may go.
    if (binding.metadata.deletionTimestamp) await releaseBinding(ctx, binding, BINDING_FINALIZER);
    return;
  }
  // Nothing upstream is trusted (ADR 19): a binding steers member writes only if all it names is this tenant's.
  const verdict = judgeBinding(tenantId, binding, resource);
  if (!verdict.ok) {
    ctx.log(`propagation: ignoring binding ${namespace ? `${namespace}/` : ''}${name} of tenant ${tenantId}: ${verdict.reason}`);
    if (binding.metadata.deletionTimestamp) await releaseBinding(ctx, binding, BINDING_FINALIZER); // its finalizer is ours; members are not touched
    else await ctx.events.record(binding, 'Warning', 'BindingIgnored', `The propagation engine ignores this binding: ${scrubForTenant(ctx, tenantId, verdict.reason)}`);
    return;
  }
  const scope: RemovalScope = {
    resource, address: verdict.address, uid: binding.metadata.uid ?? '', tenantId,
    workName: workName(resource.kind, verdict.tenantName, namespace ? toTenantNamespace(tenantId, namespace) : undefined),
  };
  const works = worksInSlots(ctx, scope);
  const clusters = new Map([...ctx.informers.clusters.store.values()].map((c) => [c.metadata.name ?? '', c]));

  if (binding.metadata.deletionTimestamp) {
    await removeFrom(ctx, { scope, clusterNames: [...clusters.keys()], works, deleteCopies: binding.spec.preserveResourcesOnDeletion !== true });
    await releaseBinding(ctx, binding, BINDING_FINALIZER);
    return;
  }
  const plan = planBinding(ctx, { binding, resource, tenantId, address: verdict.address, workName: scope.workName, clusters });
  if (!plan) return;

  const outcomes: Outcome[] = await Promise.all(plan.targets.map((target) => syncCluster(ctx, plan, target)));
  for (const t of plan.refused) {
    const text = notAllowedMessage(t.name);
    outcomes.push({ cluster: t.name, applied: false, message: text, permanent: true });
    ctx.log(`propagation: binding ${namespace ? `${namespace}/` : ''}${name} of tenant ${tenantId}: ${text}`);
    await ctx.events.record(binding, 'Warning', 'ClusterNotAllowed', text);
  }
  await removeUnscheduled(ctx, { plan, scope, works });

  const items = aggregatedStatusOf(outcomes);
  const current = await finishEvictions(ctx, { plan, scope, works, items });
  await syncBindingStatus(ctx, { binding, current, items });
  await writeTemplateStatus(ctx, resource, plan.template, items);
  // A refusal (cluster not allowed, cluster-wide grant) does not heal by retrying: a change to the binding or the Tenant wakes it.
  const failed = outcomes.some((o) => !o.applied && !o.permanent) && !plan.suspendedEverywhere;
  const waitingEviction = (current.spec.gracefulEvictionTasks ?? []).length > 0;
  return failed ? { requeueAfterMs: 2_000 } : waitingEviction ? { requeueAfterMs: 1_000 } : undefined;
}

/** One scheduled cluster: its manifest, its Work (phase 1) and, at the same time, its copy on the member (phases 2 and 3). */
async function syncCluster(ctx: EngineContext, plan: BindingPlan, target: TargetCluster): Promise<Outcome> {
  const cluster = plan.clusters.get(target.name);
  if (!cluster) return { cluster: target.name, applied: false, message: `cluster ${target.name} is not registered` };
  let manifest: KubeObject;
  try {
    manifest = manifestForCluster(plan, target, cluster);
  } catch (err) {
    await ctx.events.record(plan.binding, 'Warning', 'ApplyOverridePolicyFailed', `Apply override policy failed on cluster ${target.name}: ${errorMessage(err)}`);
    return { cluster: target.name, applied: false, message: errorMessage(err) };
  }
  const work = ensureWorkFor(ctx, plan, target, manifest);
  work.catch(() => undefined); // awaited on every path of executeOnMember
  return executeOnMember(ctx, { plan, target, cluster, manifest, work });
}

/** Clusters that are neither scheduled (and allowed) nor being evicted lose their Work and their copy. */
async function removeUnscheduled(ctx: EngineContext, input: { plan: BindingPlan; scope: RemovalScope; works: readonly WorkView[] }): Promise<void> {
  const { plan, scope, works } = input;
  const keep = new Set([...plan.targets, ...plan.evicting].map((t) => t.name));
  const gone = [...new Set([...plan.clusters.keys(), ...works.map((w) => clusterOfWork(plan.tenantId, w) ?? '')])].filter((c) => c && !keep.has(c));
  await removeFrom(ctx, { scope, clusterNames: gone, works, deleteCopies: true });
}
