// Aggregated ClusterRoles, as kube's clusterrole-aggregation controller fills
// them: a ClusterRole with an aggregationRule gets, as its rules, the union of
// the rules of every other ClusterRole its selectors match — selectors in order,
// matched roles sorted by name, duplicate rules dropped (first one kept).
//
// The controller reacts to every change, so chains settle (admin selects edit,
// which selects view). We compute that settled state directly: aggregated roles
// start empty and are recomputed until nothing changes. Starting empty rather than
// from stored rules means stale rules never survive, whatever the store holds.
import { fromLabelSelectorObject, matchesLabels, type LabelRequirement } from '../selectors/index.ts';
import type { ClusterRole, PolicyRule } from './types.ts';

/** equality.Semantic.DeepEqual on rules: absent and empty lists are equal, order inside a list matters. */
export function ruleKey(rule: PolicyRule): string {
  return JSON.stringify([rule.verbs, rule.apiGroups ?? [], rule.resources ?? [], rule.resourceNames ?? [], rule.nonResourceURLs ?? []]);
}

/**
 * Returns new ClusterRole objects (inputs are not mutated) with aggregated rules filled.
 * A role whose selectors do not parse keeps its stored rules, as the controller
 * errors out on it and writes nothing.
 */
export function aggregateClusterRoles(clusterRoles: readonly ClusterRole[]): ClusterRole[] {
  const byName = [...clusterRoles].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
  const rules = new Map<string, PolicyRule[]>(clusterRoles.map((r) => [r.metadata.name, r.rules ?? []]));
  const selectors = new Map<string, LabelRequirement[][]>();
  for (const role of clusterRoles) {
    if (!role.aggregationRule) continue;
    const parsed = parseSelectors(role);
    if (!parsed) continue;
    selectors.set(role.metadata.name, parsed);
    rules.set(role.metadata.name, []);
  }

  // Each pass can only add rules (inputs only grow), so this settles; the bound is a backstop.
  const maxPasses = selectors.size + 2;
  for (let pass = 0; pass < maxPasses; pass++) {
    let changed = false;
    for (const [name, sels] of selectors) {
      const next = unionOfSelected(name, sels, byName, rules);
      const current = rules.get(name) ?? [];
      if (next.length !== current.length || next.some((r, i) => ruleKey(r) !== ruleKey(current[i] ?? { verbs: [] }))) {
        rules.set(name, next);
        changed = true;
      }
    }
    if (!changed) break;
  }

  return clusterRoles.map((role) => (selectors.has(role.metadata.name) ? { ...role, rules: (rules.get(role.metadata.name) ?? []).map(copyRule) } : role));
}

function parseSelectors(role: ClusterRole): LabelRequirement[][] | undefined {
  const out: LabelRequirement[][] = [];
  try {
    for (const s of role.aggregationRule?.clusterRoleSelectors ?? []) out.push(fromLabelSelectorObject(s) ?? []);
  } catch {
    return undefined;
  }
  return out;
}

function unionOfSelected(
  self: string, selectors: readonly LabelRequirement[][], byName: readonly ClusterRole[], rules: ReadonlyMap<string, PolicyRule[]>,
): PolicyRule[] {
  const out: PolicyRule[] = [];
  const seen = new Set<string>();
  for (const selector of selectors) {
    for (const candidate of byName) {
      if (candidate.metadata.name === self || !matchesLabels(selector, candidate.metadata.labels)) continue;
      for (const rule of rules.get(candidate.metadata.name) ?? []) {
        const key = ruleKey(rule);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(rule);
      }
    }
  }
  return out;
}

function copyRule(rule: PolicyRule): PolicyRule {
  const out: PolicyRule = { verbs: [...rule.verbs] };
  if (rule.apiGroups) out.apiGroups = [...rule.apiGroups];
  if (rule.resources) out.resources = [...rule.resources];
  if (rule.resourceNames) out.resourceNames = [...rule.resourceNames];
  if (rule.nonResourceURLs) out.nonResourceURLs = [...rule.nonResourceURLs];
  return out;
}
