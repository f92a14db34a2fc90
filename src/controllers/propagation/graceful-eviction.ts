// Failover's last step (Karmada's graceful eviction controller): a cluster
// being evicted keeps its copy until every new copy is healthy, or until the
// timeout; then its Work and copy go, and its task leaves the binding.
import type { AggregatedStatusItem, ResourceBinding } from '../../core/propagation/karmada-types.ts';
import type { EngineContext } from './engine-context.ts';
import type { BindingPlan } from './binding-plan.ts';
import { updateBindingSpec } from './binding-writes.ts';
import { removeFrom, type RemovalScope } from './remove-works.ts';
import type { WorkView } from './work-view.ts';

export interface EvictionInput {
  plan: BindingPlan;
  scope: RemovalScope;
  works: readonly WorkView[];
  items: readonly AggregatedStatusItem[];
}

/** Finishes the eviction tasks that are done; returns the binding as left (its spec rewritten if any finished). */
export async function finishEvictions(ctx: EngineContext, input: EvictionInput): Promise<ResourceBinding> {
  const { plan: { binding, targets }, items } = input;
  const tasks = binding.spec.gracefulEvictionTasks ?? [];
  if (tasks.length === 0) return binding;
  const healthy = items.length > 0 && items.every((i) => i.applied && i.health === 'Healthy');
  const expired = (t: { creationTimestamp?: string }): boolean => Date.parse(t.creationTimestamp ?? '') + ctx.settings.gracefulEvictionTimeoutMs <= ctx.now().getTime();
  const done = tasks.filter((t) => healthy || expired(t) || targets.some((c) => c.name === t.fromCluster));
  if (done.length === 0) return binding;
  const clusterNames = done.map((t) => t.fromCluster).filter((c) => !targets.some((x) => x.name === c));
  await removeFrom(ctx, { scope: input.scope, clusterNames, works: input.works, deleteCopies: true });
  const rest = tasks.filter((t) => !done.includes(t));
  const { gracefulEvictionTasks: _dropped, ...spec } = binding.spec;
  const current = await updateBindingSpec(ctx, binding, rest.length > 0 ? { ...spec, gracefulEvictionTasks: rest } : spec);
  for (const t of done) await ctx.events.record(binding, 'Normal', 'EvictWorkloadFromClusterSucceed', `Evicted workload from cluster ${t.fromCluster}`);
  return current;
}
