// The select phase (Karmada's SelectBestClusters): which feasible clusters to use.
// Candidates arrive sorted by score desc, then available replicas desc, then name.
//   - No constraints, or Divided+Weighted by static weights: every feasible cluster.
//   - A region constraint: pick regions with selectGroups (count between the region
//     min/max, holding at least the cluster minGroups clusters), take each region's best
//     cluster, then fill up to the cluster maxGroups with the remaining clusters of those
//     regions by score, available replicas, name. Without a cluster constraint that is one
//     cluster per region, as in Karmada.
//   - A cluster constraint alone: fewer feasible clusters than minGroups fails; otherwise
//     the best maxGroups. Unless the strategy is Duplicated (or absent), their available
//     replicas must cover the replicas: from the lowest-ranked pick up, a pick is swapped
//     for the remaining cluster with the most available replicas until the sum suffices.
// Deviation: a missing maxGroups means "no upper bound" (Karmada reads 0 and selects
// nothing, which its webhook normally prevents). provider/zone constraints only filter.
import type { Cluster, Placement, SpreadConstraint } from '../karmada-types.ts';
import { selectGroups, type Group } from './select-groups.ts';
import { fail, type ClusterDetail, type Step } from './types.ts';

function ignoresSpreadConstraints(placement: Placement): boolean {
  const s = placement.replicaScheduling;
  return s?.replicaSchedulingType === 'Divided' && s.replicaDivisionPreference === 'Weighted'
    && (!s.weightPreference || ((s.weightPreference.staticWeightList ?? []).length > 0 && !s.weightPreference.dynamicWeight));
}

function ignoresAvailableResource(placement: Placement): boolean {
  const s = placement.replicaScheduling;
  return !s || (s.replicaSchedulingType ?? 'Duplicated') === 'Duplicated';
}

const upper = (c: SpreadConstraint | undefined, otherwise: number): number => c?.maxGroups ?? otherwise;

function byRegion(candidates: ClusterDetail[], region: SpreadConstraint, cluster: SpreadConstraint | undefined): Step<Cluster[]> {
  const regions = new Map<string, ClusterDetail[]>();
  for (const c of candidates) {
    const name = c.cluster.spec.region;
    if (name) regions.set(name, [...(regions.get(name) ?? []), c]);
  }
  if (regions.size < (region.minGroups ?? 0)) {
    return fail('SchedulerError', 'the number of feasible region is less than spreadConstraint.MinGroups');
  }
  const groups: Group[] = [...regions].map(([name, members]) => ({ name, value: members.length, weight: members[0]?.score ?? 0 }));
  const chosen = selectGroups(groups, region.minGroups ?? 0, upper(region, groups.length), cluster?.minGroups ?? 0);
  if (chosen.length === 0) {
    return fail('SchedulerError', 'the number of clusters is less than the cluster spreadConstraint.MinGroups');
  }
  const picked: ClusterDetail[] = [];
  const rest: ClusterDetail[] = [];
  for (const g of chosen) {
    const [first, ...others] = regions.get(g.name) ?? [];
    if (first) picked.push(first);
    rest.push(...others);
  }
  const want = Math.min(picked.length + rest.length, cluster ? upper(cluster, Infinity) : 0);
  rest.sort((a, b) => b.score - a.score || b.available - a.available || (a.name < b.name ? -1 : 1));
  picked.push(...rest.slice(0, Math.max(0, want - picked.length)));
  return { ok: true, value: picked.map((c) => c.cluster) };
}

function byCluster(candidates: ClusterDetail[], constraint: SpreadConstraint, needReplicas: number | undefined): Step<Cluster[]> {
  if (candidates.length < (constraint.minGroups ?? 0)) {
    return fail('SchedulerError', 'the number of feasible clusters is less than spreadConstraint.MinGroups');
  }
  const want = Math.min(upper(constraint, candidates.length), candidates.length);
  const picked = candidates.slice(0, want);
  if (needReplicas !== undefined) {
    const rest = candidates.slice(want);
    const enough = (): boolean => picked.reduce((s, c) => s + c.available, 0) >= needReplicas;
    for (let i = picked.length - 1; i >= 0 && !enough(); i--) {
      let best = -1;
      let most = (picked[i] as ClusterDetail).available;
      rest.forEach((c, j) => { if (c.available > most) { most = c.available; best = j; } });
      if (best < 0) continue;
      const swapped = picked[i] as ClusterDetail;
      picked[i] = rest[best] as ClusterDetail;
      rest[best] = swapped;
    }
    if (!enough()) return fail('SchedulerError', `no enough resource when selecting ${want} clusters`);
  }
  return { ok: true, value: picked.map((c) => c.cluster) };
}

export function selectClusters(candidates: ClusterDetail[], placement: Placement, replicas: number): Step<Cluster[]> {
  const constraints = placement.spreadConstraints ?? [];
  if (constraints.length === 0 || ignoresSpreadConstraints(placement)) {
    return { ok: true, value: candidates.map((c) => c.cluster) };
  }
  const region = constraints.find((c) => c.spreadByField === 'region');
  const cluster = constraints.find((c) => c.spreadByField === 'cluster');
  if (region) return byRegion(candidates, region, cluster);
  if (cluster) return byCluster(candidates, cluster, ignoresAvailableResource(placement) ? undefined : replicas);
  return fail('SchedulerError', 'just support cluster and region spread constraint');
}
