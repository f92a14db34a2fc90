// Names the tenant prefix touches, checked as the tenant wrote them. Upstream
// validates `<id>-<name>`, which is wrong twice: the prefix takes 7 of kube's
// characters (a 250-character name the tenant may write on kube is refused
// upstream, under kube's limit, with the prefixed name in the message), and it
// hides a bad start (`-shop`, `.`, a generateName `-x` are valid once
// prefixed). So each prefixed kind is checked here with kube's own rule for it,
// at kube's limit minus the prefix, before the upstream sees it.
import { invalid, type ApiError } from '../api-error.ts';
import type { StatusCause } from '../types.ts';
import { dns1123LabelErrors, dns1123SubdomainErrors } from '../selectors/label-syntax.ts';
import { TENANT_ID_LENGTH } from './tenant-id.ts';

const PREFIX = TENANT_ID_LENGTH + 1;
/** Kube's rule for a kind's metadata.name (apimachinery's NameIs*, path.ValidatePathSegmentName). */
export type NameRule = 'label' | 'subdomain' | 'path-segment';

const LIMITS: Record<Exclude<NameRule, 'path-segment'>, number> = { label: 63 - PREFIX, subdomain: 253 - PREFIX };

/** The tenant's budget under a rule (undefined: kube sets no length for it). */
export function nameBudget(rule: NameRule): number | undefined {
  return rule === 'path-segment' ? undefined : LIMITS[rule];
}

/** kube's masking of generateName's trailing '-' (a prefix may end with one). */
const maskTrailingDash = (name: string): string => (name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name);

/** Problems with one value under a rule, in kube's words: a name at the tenant's budget, a generateName (shape, kube's own length) as kube judges it. */
export function nameProblems(rule: NameRule, value: string, generate = false): string[] {
  if (rule === 'path-segment') {
    if (generate) return [];
    const out: string[] = [];
    if (value === '.' || value === '..') out.push(`may not be '${value}'`);
    for (const c of ['/', '%']) if (value.includes(c)) out.push(`may not contain '${c}'`);
    return out;
  }
  if (generate) return rule === 'label' ? dns1123LabelErrors(maskTrailingDash(value)) : dns1123SubdomainErrors(maskTrailingDash(value));
  const shape = (rule === 'label' ? dns1123LabelErrors(value) : dns1123SubdomainErrors(value)).filter((e) => !e.startsWith('must be no more than'));
  const budget = LIMITS[rule];
  return value.length > budget ? [`must be no more than ${budget} characters`, ...shape] : shape;
}

/**
 * generateName as kube takes it: up to kube's own limit, and kube's name
 * generator cuts the base to fit anyway, so a long one is cut to the budget
 * here (the prefix must fit) rather than refused.
 */
export function fitGenerateName(rule: NameRule, generateName: string): string {
  const budget = nameBudget(rule);
  return budget === undefined ? generateName : generateName.slice(0, budget);
}

export interface PrefixedNameTarget {
  kind: string;
  group: string;
  name?: unknown;
  generateName?: unknown;
}

/** 422 in tenant terms for a prefixed name or generateName kube would refuse from the tenant; else null. Empty values are the upstream's to judge. */
export function checkPrefixedName(rule: NameRule, target: PrefixedNameTarget): ApiError | null {
  const causes: StatusCause[] = [];
  for (const [field, generate] of [['name', false], ['generateName', true]] as const) {
    const value = target[field];
    if (typeof value !== 'string' || value === '') continue;
    for (const problem of nameProblems(rule, value, generate)) {
      causes.push({ type: 'FieldValueInvalid', field: `metadata.${field}`, message: `Invalid value: ${JSON.stringify(value)}: ${problem}` });
    }
  }
  if (causes.length === 0) return null;
  const name = typeof target.name === 'string' ? target.name : typeof target.generateName === 'string' ? target.generateName : '';
  return invalid({ kind: target.kind, ...(target.group ? { group: target.group } : {}), name }, causes);
}

/**
 * The rule kube applies to a prefixed kind's name: Namespaces are labels,
 * RBAC names path segments, everything else that is prefixed (CRDs' `plural.group`,
 * Karmada's cluster policies, a tenant's cluster-scoped custom resources) subdomains.
 */
export function nameRuleOf(group: string, kind: string): NameRule {
  if (group === '' && kind === 'Namespace') return 'label';
  if (group === 'rbac.authorization.k8s.io' && (kind === 'ClusterRole' || kind === 'ClusterRoleBinding')) return 'path-segment';
  return 'subdomain';
}
