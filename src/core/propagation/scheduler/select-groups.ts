// Karmada's group selection for region spreading (spreadconstraint/select_groups.go):
// choose between min and max groups whose cluster counts add up to at least `target`
// (the cluster constraint's minGroups), preferring the highest total score.
//   1. Groups are ordered by cluster count ascending, then score descending, then name.
//   2. A depth-first search records every path (combination) that first reaches the target
//      within [min, max] groups; longer paths are pruned at max.
//   3. Paths are ranked by total score, then total clusters, then discovery order; if a
//      later-ranked path is a strict prefix of the current best (both with groups sorted by
//      score, then name), the shorter one wins: fewer regions for the same leaders.

export interface Group {
  name: string;
  /** Clusters in the group. */
  value: number;
  /** The group's score: its best cluster's. */
  weight: number;
}

interface Path {
  id: number;
  groups: Group[];
  weight: number;
  value: number;
}

const byWeightThenName = (a: Group, b: Group): number =>
  a.weight !== b.weight ? b.weight - a.weight : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

function isStrictPrefix(of: Path, sub: Path): boolean {
  if (sub.groups.length >= of.groups.length) return false;
  return sub.groups.every((g, i) => of.groups[i]?.name === g.name);
}

function feasiblePaths(groups: Group[], min: number, max: number, target: number): Path[] {
  const sorted = [...groups].sort((a, b) => a.value - b.value || b.weight - a.weight || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const paths: Path[] = [];
  const current: Group[] = [];
  const visit = (sum: number, begin: number): void => {
    if (sum >= target && current.length >= min && current.length <= max) {
      const chosen = [...current].sort(byWeightThenName);
      paths.push({
        id: paths.length, groups: chosen,
        weight: chosen.reduce((s, g) => s + g.weight, 0), value: chosen.reduce((s, g) => s + g.value, 0),
      });
      return;
    }
    if (current.length >= max) return;
    for (let i = begin; i < sorted.length; i++) {
      const g = sorted[i] as Group;
      current.push(g);
      visit(sum + g.value, i + 1);
      current.pop();
    }
  };
  visit(0, 0);
  return paths;
}

/** The best groups, or [] when no combination satisfies the constraints. */
export function selectGroups(groups: Group[], min: number, max: number, target: number): Group[] {
  if (groups.length === 0) return [];
  const paths = feasiblePaths(groups, min, max, target);
  if (paths.length === 0) return [];
  paths.sort((a, b) => b.weight - a.weight || b.value - a.value || a.id - b.id);
  let best = paths[0] as Path;
  for (const path of paths.slice(1)) if (isStrictPrefix(best, path)) best = path;
  return best.groups;
}
