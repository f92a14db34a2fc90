// The binding's Works and copies that must go: clusters no longer scheduled
// (and allowed), evictions done, the binding deleted. Only what the engine
// wrote for this binding is touched: a Work in one of its slots (creator mark,
// name, tenant, an execution space), a copy read on the member and deleted
// only if it carries this binding's and tenant's marks (member-apply.ts).
import { clusterOfExecutionNamespace } from '../../core/propagation/detector/index.ts';
import { toTenantNamespace } from '../../core/tenancy/names.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import type { MemberAddress } from '../../core/propagation/trust/binding-trust.ts';
import { ownedByBinding } from '../../core/propagation/trust/member-ownership.ts';
import { errorMessage, type EngineContext } from './engine-context.ts';
import { worksOfBinding } from './engine-informers.ts';
import { deleteFromMember } from './member-apply.ts';
import { WORK_CREATOR_ANNOTATION } from './member-labels.ts';
import { appliedKey } from './applied-record.ts';
import type { TemplateResource } from './template-resources.ts';
import { deleteWork } from './work-writes.ts';
import type { WorkView } from './work-view.ts';

/** What the engine may remove for one binding: one address on each member, and the Works in its slots. */
export interface RemovalScope {
  resource: TemplateResource;
  address: MemberAddress;
  uid: string;
  tenantId: string;
  /** The Work's name in every execution space (tenant terms = upstream: Work names are not prefixed). */
  workName: string;
}

/** The Works in the slots the engine writes for this binding: a label naming the binding is no proof. */
export function worksInSlots(ctx: EngineContext, scope: RemovalScope): WorkView[] {
  return worksOfBinding(ctx.informers, scope.uid).filter((w) => isSlotOf(scope, w));
}

/**
 * A Work the engine wrote for this binding: its creator mark (not the permanent-id label, which says nothing
 * about who wrote it), in the tenant's execution space for some cluster, at the name the engine gives it.
 */
export function isSlotOf(scope: Pick<RemovalScope, 'uid' | 'tenantId' | 'workName'>, work: WorkView): boolean {
  return scope.uid !== '' && work.metadata.annotations?.[WORK_CREATOR_ANNOTATION] === scope.uid && work.metadata.name === scope.workName
    && work.metadata.labels?.[TENANT_LABEL] === scope.tenantId && clusterOfWork(scope.tenantId, work) !== undefined;
}

export function clusterOfWork(tenantId: string, work: WorkView): string | undefined {
  const space = toTenantNamespace(tenantId, work.metadata.namespace ?? '');
  return space === undefined ? undefined : clusterOfExecutionNamespace(space);
}

export interface Removal {
  scope: RemovalScope;
  clusterNames: readonly string[];
  works: readonly WorkView[];
  /** Also delete the copies on the members (not when the binding preserves them on deletion). */
  deleteCopies: boolean;
}

/**
 * Deletes the binding's Works for these clusters, and (when asked) its copies there: each copy is read
 * on the member and deleted only if it carries this binding's and tenant's marks (member-apply.ts).
 * Unreachable members are retried later.
 */
export async function removeFrom(ctx: EngineContext, removal: Removal): Promise<void> {
  const { resource, address, tenantId, uid } = removal.scope;
  await Promise.all(removal.clusterNames.map(async (clusterName) => {
    const cluster = ctx.informers.clusters.store.get(clusterName);
    const observed = ctx.members.observed(clusterName, resource, address.namespace, address.name);
    const ours = observed.obj !== undefined && ownedByBinding(tenantId, uid, resource, observed.obj, address);
    const work = removal.works.find((w) => clusterOfWork(tenantId, w) === clusterName);
    if (removal.deleteCopies && cluster && (ours || (!observed.synced && work))) {
      const member = await ctx.members.client(cluster);
      try {
        const result = member ? await deleteFromMember(member, resource, { tenantId, bindingUid: uid, address }) : 'absent';
        if (result === 'not-ours') ctx.log(`propagation: ${resource.kind} ${address.namespace ? `${address.namespace}/` : ''}${address.name} on ${clusterName} is not the copy of binding ${uid}; left alone`);
        ctx.applied.forget(appliedKey(clusterName, address.namespace, resource.kind, address.name));
      } catch (err) {
        ctx.log(`propagation: cannot remove ${resource.kind} ${address.namespace}/${address.name} from ${clusterName} yet: ${errorMessage(err)}`);
      }
    }
    if (work) await deleteWork(ctx, work.metadata.namespace ?? '', work.metadata.name ?? '');
  }));
}
