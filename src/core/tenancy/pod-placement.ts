// Where a tenant's pods may run: the placement contract (ADR 0043). Taints keep
// pods off nodes (the control plane, nodes the platform dedicates to someone),
// and a pod gets past a taint only by tolerating it; a nodeSelector or node
// affinity only narrows where a pod may go, it never passes a taint. So the
// boundary is two rules on every pod spec, kube's PodTolerationRestriction and
// PodNodeSelector admission plugins made per tenant:
//  - tolerations: each must be covered by one the contract allows (kube's
//    "is superset" rule: same key, or an allowed empty-key Exists; same effect,
//    or an allowed empty effect; an allowed NoExecute with tolerationSeconds
//    covers only as long or shorter; Exists covers any value, Equal only its
//    own). Always allowed: what kube's DefaultTolerationSeconds adds to every
//    pod (not-ready and unreachable, NoExecute): it only says how long a pod
//    stays on a node that fails. An empty list allows nothing else (kube's
//    plugin reads an empty whitelist as "no limit": here it is the safe default);
//  - nodeSelector: the contract's pairs are merged into every pod spec; a
//    tenant value for one of its keys that differs is refused.
// Pure: the gateway (translation forces, admission checks) and the engine's
// member copies share it. The pod specs of every kind come from
// reserved-references.ts's table, the one walker of pod templates.
import { isObject } from '../types.ts';
import { OPTIONAL_POD_SPEC, POD_SPEC_PATHS, at, type ReservedReference } from './reserved-references.ts';

type Obj = Record<string, unknown>;

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface PlacementContract {
  /** Labels every pod of the tenant selects: merged into each pod spec; a different value for one of these keys is refused. */
  nodeSelector: Readonly<Record<string, string>>;
  /** Tolerations the tenant may use, beyond kube's own not-ready/unreachable NoExecute ones. */
  tolerations: readonly Toleration[];
}

/** The contract with nothing configured: no forced selector, no taint tolerated but kube's own. */
export const SAFE_PLACEMENT: PlacementContract = Object.freeze({ nodeSelector: Object.freeze({}), tolerations: Object.freeze([]) });

/** The taints DefaultTolerationSeconds tolerates on every pod (NoExecute, for 300 s): kube adds them, so they stay usable. */
export const KUBE_OWN_TOLERATION_KEYS: readonly string[] = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];

const TOLERATION_WHY = 'is not allowed: this tenant may tolerate only the taints its platform allows (ask the platform admin to add it to the Tenant\'s spec.placement.tolerations)';
const SELECTOR_WHY = 'conflicts with the node selector the platform sets for this tenant';
const MISSING_WHY = 'must be in the node selector: the platform places this tenant\'s pods on nodes labelled so';

const operatorOf = (t: Toleration): string => t.operator || 'Equal';
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A toleration as kube reads it: absent strings are empty, an absent operator is Equal. */
function normalize(raw: Obj): Toleration {
  const t: Toleration = { key: text(raw.key), operator: operatorOf({ operator: text(raw.operator) }), value: text(raw.value), effect: text(raw.effect) };
  if (typeof raw.tolerationSeconds === 'number') t.tolerationSeconds = raw.tolerationSeconds;
  return t;
}

/** Does `allowed` tolerate everything `asked` does (kube's tolerations.isSuperset)? Both normalized. */
export function covers(allowed: Toleration, asked: Toleration): boolean {
  const key = allowed.key ?? '';
  if (asked.key !== key && (key !== '' || allowed.operator !== 'Exists')) return false;
  if (asked.effect !== allowed.effect && (allowed.effect ?? '') !== '') return false;
  if (allowed.effect === 'NoExecute' && allowed.tolerationSeconds !== undefined) {
    if (asked.tolerationSeconds === undefined || asked.tolerationSeconds > allowed.tolerationSeconds) return false;
  }
  if (allowed.operator === 'Exists') return true;
  return allowed.operator === 'Equal' && asked.operator === 'Equal' && asked.value === (allowed.value ?? '');
}

const isKubeOwn = (t: Toleration): boolean => KUBE_OWN_TOLERATION_KEYS.includes(t.key ?? '') && t.effect === 'NoExecute'
  && (t.operator === 'Exists' || (t.operator === 'Equal' && t.value === ''));

/** May a tenant under this contract use this toleration (any JSON value, as a body holds it)? */
export function isToleratedByContract(raw: unknown, contract: PlacementContract): boolean {
  if (!isObject(raw)) return false;
  const asked = normalize(raw);
  return isKubeOwn(asked) || contract.tolerations.some((allowed) => covers(normalize(allowed as Obj), asked));
}

/** The pod spec this object holds (`<group>/<Kind>` key), with its path; undefined for other kinds. */
function podSpecOf(key: string, body: Obj): { path: readonly string[]; spec: unknown } | undefined {
  const path = POD_SPEC_PATHS[key];
  return path ? { path, spec: at(body, ...path) } : undefined;
}

/** A tenant nodeSelector value that differs from the contract's, or a nodeSelector that is not a map. */
function selectorConflict(field: string, selector: unknown, forced: Readonly<Record<string, string>>): ReservedReference | undefined {
  if (selector === undefined || selector === null) return undefined;
  if (!isObject(selector)) return { field, value: JSON.stringify(selector), why: 'must be a map of node labels' };
  for (const [k, v] of Object.entries(forced)) {
    if (k in selector && selector[k] !== v) return { field, value: `${k}=${String(selector[k])}`, why: `${SELECTOR_WHY} (${k}=${v})` };
  }
  return undefined;
}

/**
 * Merges the contract's node selector into the pod spec of this object, in place (PodNodeSelector's merge);
 * returns the conflict instead when the tenant's selector names one of its keys with another value. Kinds
 * without a pod spec, and a contract without a selector, are left as they are.
 */
export function forceNodeSelector(key: string, body: unknown, contract: PlacementContract): ReservedReference | undefined {
  if (!isObject(body) || Object.keys(contract.nodeSelector).length === 0) return undefined;
  const found = podSpecOf(key, body);
  if (!found || (OPTIONAL_POD_SPEC.has(key) && !isObject(found.spec))) return undefined;
  const field = [...found.path, 'nodeSelector'].join('.');
  const conflict = selectorConflict(field, isObject(found.spec) ? found.spec.nodeSelector : undefined, contract.nodeSelector);
  if (conflict) return conflict;
  let parent: Obj = body;
  for (const step of found.path) {
    const next = parent[step];
    if (next !== undefined && next !== null && !isObject(next)) return undefined; // not a pod spec: the upstream refuses the shape
    parent = isObject(next) ? next : (parent[step] = {});
  }
  parent.nodeSelector = { ...(isObject(parent.nodeSelector) ? parent.nodeSelector : {}), ...contract.nodeSelector };
  return undefined;
}

/**
 * What the pod spec of this object asks beyond its contract: each toleration not allowed (its JSON as the
 * value, so a stored one is recognised wherever it sits), a forced selector pair missing or different.
 */
export function placementViolations(key: string, body: unknown, contract: PlacementContract): ReservedReference[] {
  if (!isObject(body)) return [];
  const found = podSpecOf(key, body);
  if (!found || !isObject(found.spec)) return [];
  const field = (name: string): string => [...found.path, name].join('.');
  const tolerations = Array.isArray(found.spec.tolerations) ? found.spec.tolerations : [];
  const refused: ReservedReference[] = tolerations.filter((t) => !isToleratedByContract(t, contract))
    .map((t) => ({ field: field('tolerations'), value: JSON.stringify(t), why: TOLERATION_WHY }));
  const selector = found.spec.nodeSelector;
  const conflict = selectorConflict(field('nodeSelector'), selector, contract.nodeSelector);
  if (conflict) return [...refused, conflict];
  for (const [k, v] of Object.entries(contract.nodeSelector)) {
    if (!isObject(selector) || selector[k] !== v) refused.push({ field: field('nodeSelector'), value: `${k}=${v}`, why: MISSING_WHY });
  }
  return refused;
}

/** A Tenant's spec.placement, as written (each field optional). */
export interface PlacementSpec {
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
}

/**
 * The contract a tenant is held to: each field of its own spec.placement replaces the platform's default
 * for that field (as a namespace's annotations replace the cluster-wide settings of kube's two plugins).
 */
export function placementContractOf(spec: PlacementSpec | undefined, platform: PlacementContract = SAFE_PLACEMENT): PlacementContract {
  return {
    nodeSelector: spec?.nodeSelector ?? platform.nodeSelector,
    tolerations: spec?.tolerations ?? platform.tolerations,
  };
}
