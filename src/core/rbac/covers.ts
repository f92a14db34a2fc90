// Does one set of rules cover another? kube's validation.Covers
// (k8s.io/component-helpers/auth/rbac/validation): every servant rule is broken
// down into atoms (one group, resource, verb and resource name, or one URL and
// verb), and each atom must be covered by a single owner rule. Coverage is
// literal, not semantic: an owner holding every verb by name does not cover "*",
// and "pods" never covers "pods/log". That is kube's rule, and tenants read kube's docs.
import type { PolicyRule } from './types.ts';

const ALL = '*';

/**
 * Beyond this many atoms a write is refused rather than checked: a rule of a
 * thousand groups, resources, verbs and names each is ten billion atoms, and a
 * hostile tenant must not buy that much CPU with one request. Real roles break
 * down to a few thousand at most.
 */
export const MAX_ATOMS = 100_000;

export type CoverResult =
  | { covered: true }
  | { covered: false; missing: PolicyRule[] }
  | { covered: false; tooLarge: true };

const has = (set: readonly string[] | undefined, value: string): boolean => (set ?? []).includes(value);
const hasAll = (set: readonly string[] | undefined, values: readonly string[] | undefined): boolean =>
  (values ?? []).every((v) => has(set, v));

/** The number of atoms breakdownRule would produce, without producing them. */
export function atomCount(rule: PolicyRule): number {
  const names = Math.max(1, (rule.resourceNames ?? []).length);
  const resourceAtoms = (rule.apiGroups ?? []).length * (rule.resources ?? []).length * rule.verbs.length * names;
  return resourceAtoms + (rule.nonResourceURLs ?? []).length * rule.verbs.length;
}

/** kube's breakdownRule: one atom per (group, resource, verb[, name]) and per (URL, verb). */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const atoms: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        const names = rule.resourceNames ?? [];
        if (names.length === 0) atoms.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        for (const name of names) atoms.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs) atoms.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return atoms;
}

/** "*" or every resource by name; "*\/scale" covers "deployments/scale". */
function resourcesCoverAll(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (has(owner, ALL) || hasAll(owner, wanted)) return true;
  return (wanted ?? []).every((path) => {
    if (has(owner, path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && has(owner, `*/${path.slice(slash + 1)}`);
  });
}

/** "*" covers every path; a trailing "*" is a prefix ("/api/*" covers "/api/v1", not "/api"). */
export function nonResourceURLCovers(owner: string, path: string): boolean {
  if (owner === path) return true;
  return owner.endsWith(ALL) && path.startsWith(owner.replace(/\*+$/, ''));
}

function urlsCoverAll(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  return (wanted ?? []).every((path) => (owner ?? []).some((o) => nonResourceURLCovers(o, path)));
}

/** kube's ruleCovers: does one owner rule cover the servant rule (an atom, or a whole rule at once)? */
export function ruleCovers(owner: PolicyRule, servant: PolicyRule): boolean {
  const verbs = has(owner.verbs, ALL) || hasAll(owner.verbs, servant.verbs);
  const groups = has(owner.apiGroups, ALL) || hasAll(owner.apiGroups, servant.apiGroups);
  const resources = resourcesCoverAll(owner.resources, servant.resources);
  const urls = urlsCoverAll(owner.nonResourceURLs, servant.nonResourceURLs);
  const ownerNames = owner.resourceNames ?? [];
  const servantNames = servant.resourceNames ?? [];
  const names = ownerNames.length === 0 || (servantNames.length > 0 && hasAll(ownerNames, servantNames));
  return verbs && groups && resources && urls && names;
}

/**
 * ruleCovers on a whole rule implies it on each of its atoms, except for the URL
 * atoms of a rule that also names resources: they carry no resourceNames, so an
 * owner restricted to names never covers them.
 */
function coversWhole(owner: PolicyRule, rule: PolicyRule): boolean {
  if ((rule.nonResourceURLs ?? []).length > 0 && (owner.resourceNames ?? []).length > 0) return false;
  return ruleCovers(owner, rule);
}

/**
 * kube's Covers. A servant rule that one owner rule covers whole is not broken down
 * (same answer, see coversWhole), which keeps a cluster-admin's writes cheap whatever
 * their size.
 */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): CoverResult {
  const missing: PolicyRule[] = [];
  let atoms = 0;
  for (const rule of servant) {
    if (owner.some((o) => coversWhole(o, rule))) continue;
    atoms += atomCount(rule);
    if (atoms > MAX_ATOMS) return { covered: false, tooLarge: true };
    for (const atom of breakdownRule(rule)) {
      if (!owner.some((o) => ruleCovers(o, atom))) missing.push(atom);
    }
  }
  return missing.length === 0 ? { covered: true } : { covered: false, missing };
}
