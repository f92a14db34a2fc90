// Phase 4 of a binding (Karmada's binding status controller): Work status →
// binding and template status. The binding's aggregatedStatus and its
// FullyApplied condition from what happened on each cluster, then the
// template's own status summed over the members.
import type { KubeObject } from '../../core/types.ts';
import type { AggregatedStatusItem, ResourceBinding } from '../../core/propagation/karmada-types.ts';
import { fullyAppliedCondition } from '../../core/propagation/binding/binding-status.ts';
import { aggregateStatus } from '../../core/propagation/status/index.ts';
import { jsonEqual } from '../../core/json-equal.ts';
import { rfc3339, setCondition } from '../runtime/conditions.ts';
import type { EngineContext } from './engine-context.ts';
import { bindingOf } from './engine-informers.ts';
import { ensureBindingStatus } from './binding-writes.ts';
import { templateStatusEchoKey } from './echo-record.ts';
import { ensureStatus } from './status-writes.ts';
import { writeHeldStatus } from './template-hold.ts';
import { namespacedPath, type TemplateResource } from './template-resources.ts';

export interface BindingStatusInput {
  /** The binding as this pass read it. */
  binding: ResourceBinding;
  /** The binding as this pass left it (a spec rewritten by a finished eviction), or the same. */
  current: ResourceBinding;
  items: AggregatedStatusItem[];
}

/** Writes aggregatedStatus and FullyApplied, and records SyncWorkSucceed when FullyApplied turns True. */
export async function syncBindingStatus(ctx: EngineContext, input: BindingStatusInput): Promise<void> {
  const { binding, current, items } = input;
  // Built on the latest copy: the detector's Scheduled condition may have landed since this pass read the binding.
  let before: string | undefined;
  // The informer's copy only moves forward: unless this pass rewrote the spec, it is the freshest base (no 409 to retry).
  const base = current === binding ? bindingOf(ctx.informers, binding.metadata.namespace ?? '', binding.metadata.name ?? '') ?? current : current;
  const written = await ensureBindingStatus(ctx, base, (latest) => {
    // A spec changed meanwhile (new placement, new replicas) was not what these outcomes applied: its own pass will judge it.
    if (latest.metadata.generation !== current.metadata.generation) return undefined;
    before = JSON.stringify(latest.status?.conditions?.find((c) => c.type === 'FullyApplied')?.status);
    const status = { ...(latest.status ?? {}), aggregatedStatus: items };
    status.conditions = setCondition(status.conditions, fullyAppliedCondition(items), { now: ctx.now(), ...(latest.metadata.generation !== undefined ? { generation: latest.metadata.generation } : {}) });
    return status;
  });
  const after = JSON.stringify(written.status?.conditions?.find((c) => c.type === 'FullyApplied')?.status);
  if (before !== after && after === '"True"') await ctx.events.record(written, 'Normal', 'SyncWorkSucceed', 'Sync work of resourceBinding successful.');
}

/** The template's status summed over the members (kinds with a status only). */
export async function writeTemplateStatus(ctx: EngineContext, resource: TemplateResource, template: KubeObject, items: AggregatedStatusItem[]): Promise<void> {
  if (!resource.hasStatus) return;
  const now = rfc3339(ctx.now()); // new conditions' times (Job, Deployment); unchanged ones keep theirs
  // A kind with a held form: the tenant's status is an annotation (ADR 0023), the host's controllers own `.status`.
  if (await writeHeldStatus(ctx, resource, template, (view) => aggregateStatus(view, items, { now }))) return;
  const status = aggregateStatus(template, items, { now });
  if (status === undefined || jsonEqual(template.status ?? {}, status)) return;
  const [ns, name] = [template.metadata.namespace ?? '', template.metadata.name ?? ''];
  // Retried on a conflict: the previous pass's write of this status may not be in the informer yet.
  await ensureStatus(ctx, {
    path: `${namespacedPath(resource, ns)}/${encodeURIComponent(name)}`, echoKey: templateStatusEchoKey(resource, ns, name), current: template, missingOk: true,
    cached: () => ctx.informers.templates.get(resource)?.store.get(`${ns}/${name}`),
    build: (latest) => aggregateStatus(latest, items, { now }) ?? latest.status ?? {},
  });
}
