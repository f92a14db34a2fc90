// How many clusters may run a template whole. The tenant's quota counts a
// propagated template once, as the tenant wrote it (ADR 10: "propagation does
// not multiply"), and the engine keeps that promise (session 14, q1):
// - Divided placement gives each cluster a share, and the shares add up to the
//   template: nothing to refuse.
// - Duplicated placement (Karmada's default) gives every cluster the whole
//   template: on k clusters, k times what the quota counted (session 13's red
//   team: 10 members, 10x). For a tenant whose quota limits what pods ask for
//   (pods, cpu or memory; storage, for a StatefulSet's claims), the clusters of the placement are taken by
//   name and a cluster gets its copy only while the pods applied so far stay
//   within the template's: the first one runs it, the others are refused with
//   the reason (Karmada's own FederatedResourceQuota counts a binding's usage
//   per cluster, so a duplicated binding is charged once per cluster).
// - A DaemonSet runs one pod on every node of a member, which no quota counted:
//   refused on members for such a tenant, as the gateway refuses creating one.
// A tenant without such a limit propagates as before.
import type { KubeObject } from '../../types.ts';
import type { TargetCluster } from '../karmada-types.ts';
import { keyOf, podsOf } from '../../tenancy/quota/object-demand.ts';
import { limitsPods, type ResourceLimits } from '../../tenancy/quota/quota-decision.ts';
import { reviseReplicas } from '../workload/index.ts';
import type { MemberRbac } from './member-rbac.ts';
import type { Row } from './member-demand.ts';

export interface Placement {
  targets: readonly TargetCluster[];
  divided: boolean;
  /** Tenant.spec.quota. */
  quota: ResourceLimits | undefined;
}

/** What one cluster of the placement runs before overrides: its share (Divided) or the whole template. */
export function shareOf(pruned: KubeObject, target: TargetCluster | undefined, divided: boolean): KubeObject {
  return divided && target?.replicas !== undefined ? reviseReplicas(pruned, target.replicas) : pruned;
}

/** Why this cluster's copy would run more than the quota counted; undefined when it may run. */
export function placementAbove(row: Row, pruned: KubeObject, placement: Placement, clusterName: string): string | undefined {
  const key = keyOf(row.group, row.resource);
  // Storage multiplies with a StatefulSet's claims only.
  const bounded = limitsPods(placement.quota) || (key === 'apps/statefulsets' && placement.quota?.storage !== undefined);
  if (!bounded) return undefined;
  const counted = podsOf(key, pruned);
  if (counted === undefined) return undefined;
  if (key === 'apps/daemonsets') return 'a DaemonSet runs one pod on every node of the cluster, which the tenant\'s quota cannot count; run the pods as a Deployment or StatefulSet';
  const ordered = [...placement.targets].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let applied = 0;
  for (const target of ordered) {
    applied += podsOf(key, shareOf(pruned, target, placement.divided)) ?? 0;
    if (target.name !== clusterName) continue;
    if (applied <= counted) return undefined;
    const first = ordered[0]?.name ?? '';
    return `the placement runs the whole template (${counted} pods) on each of ${ordered.length} clusters, ${ordered.length}x what the tenant's quota counted; ${first} runs it, and the others are refused: divide the replicas (replicaScheduling: Divided) to spread them`;
  }
  return undefined;
}

export function refusePlacementAbove(row: Row, pruned: KubeObject, placement: Placement, clusterName: string, copy: MemberRbac): MemberRbac {
  if (!copy.ok) return copy;
  const above = placementAbove(row, pruned, placement, clusterName);
  return above ? { ok: false, reason: `not applied to this cluster: ${above}` } : copy;
}
