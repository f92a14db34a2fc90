// Why a workload does not run (issue 14 item 8): the embedded host of
// `warren up` runs no workload controllers (ADR 0023), so a Deployment that no
// policy propagates is stored and never runs, and nothing told the tenant so.
// On such a host the detector records a Warning on the workload itself
// (`kubectl describe`, `kubectl get events`), naming the way out. A host that
// runs controllers runs the workload itself: nothing is recorded there.
import type { KubeObject } from '../../core/types.ts';
import type { EngineContext } from './engine-context.ts';
import type { TemplateResource } from './template-resources.ts';

export const REASON_NOT_PROPAGATED = 'NotPropagated';
const WORKLOADS = new Set(['apps/Deployment', 'apps/StatefulSet', 'apps/DaemonSet', 'batch/Job', 'batch/CronJob']);

export function notPropagatedMessage(kind: string): string {
  return `No PropagationPolicy selects this ${kind}, and this virtual cluster runs no workloads itself: it will not run until a PropagationPolicy (or ClusterPropagationPolicy) places it on member clusters`;
}

/** Records why an unclaimed workload does not run, on a host without workload controllers; the recorder folds repeats into a count. */
export async function noteNotPropagated(ctx: EngineContext, resource: TemplateResource, template: KubeObject): Promise<void> {
  if (ctx.settings.hostRunsWorkloads || resource.custom || !WORKLOADS.has(`${resource.group}/${resource.kind}`)) return;
  await ctx.events.record(template, 'Warning', REASON_NOT_PROPAGATED, notPropagatedMessage(resource.kind));
}
