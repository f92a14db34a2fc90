// Phase 3 of a binding (Karmada's work status controller): member → Work
// status. The Work says whether its manifest was applied (Applied, with the
// reason) and the copy's health, so `kubectl get works` shows APPLIED per
// cluster. Only health: the reflected status lives in the binding's
// aggregatedStatus, and carrying it here too would rewrite every Work on every
// member status change (one more host write per cluster per change).
import type { KubeObject } from '../../core/types.ts';
import { CONDITION_APPLIED } from '../../core/propagation/karmada-types.ts';
import { interpretHealth } from '../../core/propagation/status/index.ts';
import { splitApiVersion } from '../../core/tenancy/names.ts';
import { setCondition } from '../runtime/conditions.ts';
import type { EngineContext } from './engine-context.ts';
import type { TemplateResource } from './template-resources.ts';
import { writeWorkStatus } from './work-writes.ts';
import type { WorkView } from './work-view.ts';

export interface AppliedState {
  applied: boolean;
  reason: 'AppliedSuccessful' | 'AppliedFailed';
  message: string;
  /** The copy on the member, when there is one to judge the health of. */
  memberObject: KubeObject | undefined;
  /** The Work's manifest (tenant terms): names the manifest status. */
  manifest: KubeObject;
  resource: TemplateResource;
}

export async function writeWorkApplied(ctx: EngineContext, work: WorkView, state: AppliedState): Promise<void> {
  const now = ctx.now();
  const { manifest, memberObject } = state;
  const manifestStatuses = memberObject ? [{
    identifier: { ordinal: 0, ...splitApiVersion(manifest.apiVersion ?? ''), kind: state.resource.kind, ...(manifest.metadata.namespace ? { namespace: manifest.metadata.namespace } : {}), name: manifest.metadata.name ?? '' }, // the manifest's (tenant) group
    health: interpretHealth(memberObject),
  }] : [];
  await writeWorkStatus(ctx, work, (latest) => ({
    conditions: setCondition(latest.status?.conditions, { type: CONDITION_APPLIED, status: state.applied ? 'True' : 'False', reason: state.reason, message: state.message }, { now }),
    manifestStatuses,
  }));
}
