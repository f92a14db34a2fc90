// Placement checks: Karmada's webhook (pkg/util/validation ValidatePlacement,
// ValidateClusterAffinity(ies), ValidateSpreadConstraint) plus the enums and
// minimums its CRD schema enforces.
import type { StatusCause } from '../../types.ts';
import { qualifiedNameErrors } from '../../selectors/index.ts';
import { checkEnum, invalid, list, num, rec, required } from './field-errors.ts';
import type { Json } from './field-errors.ts';

/** ValidatePolicyFieldSelector's first complaint, or undefined. */
export function fieldSelectorError(fieldSelector: unknown): string | undefined {
  for (const e of list(rec(fieldSelector).matchExpressions)) {
    const expr = rec(e);
    if (!['provider', 'region', 'zone'].includes(String(expr.key))) return `unsupported key ${JSON.stringify(expr.key ?? '')}, must be provider, region, or zone`;
    if (!['In', 'NotIn'].includes(String(expr.operator))) return `unsupported operator ${JSON.stringify(expr.operator ?? '')}, must be In or NotIn`;
  }
  return undefined;
}

export function clusterAffinityCauses(affinity: unknown, path: string): StatusCause[] {
  if (affinity === undefined || affinity === null) return [];
  const fs = rec(affinity).fieldSelector;
  const err = fieldSelectorError(fs);
  return err ? [invalid(`${path}.fieldSelector`, fs, err)] : [];
}

export function placementCauses(placement: Json, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (placement.clusterAffinity != null && placement.clusterAffinities != null) {
    causes.push(invalid(path, placement, 'clusterAffinities cannot co-exist with clusterAffinity'));
  }
  causes.push(...clusterAffinityCauses(placement.clusterAffinity, `${path}.clusterAffinity`));
  const seen = new Set<string>();
  list(placement.clusterAffinities).forEach((t, i) => {
    const term = rec(t);
    const at = `${path}.clusterAffinities[${i}]`;
    if (typeof term.affinityName !== 'string') {
      causes.push(required(`${at}.affinityName`));
    } else {
      for (const e of qualifiedNameErrors(term.affinityName)) causes.push(invalid(at, term.affinityName, e));
      if (seen.has(term.affinityName)) causes.push(invalid(`${path}.clusterAffinities`, placement.clusterAffinities, 'each affinity term in a policy must have a unique name'));
      seen.add(term.affinityName);
    }
    causes.push(...clusterAffinityCauses(term, at));
  });
  causes.push(...spreadConstraintCauses(list(placement.spreadConstraints), `${path}.spreadConstraints`));
  causes.push(...replicaSchedulingCauses(placement.replicaScheduling, `${path}.replicaScheduling`));
  return causes;
}

function spreadConstraintCauses(constraints: unknown[], path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const byField = new Map<string, boolean>();
  constraints.forEach((c, i) => {
    const sc = rec(c);
    const at = `${path}[${i}]`;
    checkEnum(causes, `${at}.spreadByField`, sc.spreadByField, ['cluster', 'region', 'zone', 'provider']);
    if (sc.spreadByField && sc.spreadByLabel) causes.push(invalid(at, sc, 'spreadByLabel should not co-exist with spreadByField'));
    if (num(sc.minGroups) < 0) causes.push(invalid(at, sc, 'minGroups lower than 0 is not allowed'));
    if (num(sc.maxGroups) < 0) causes.push(invalid(at, sc, 'maxGroups lower than 0 is not allowed'));
    if (num(sc.maxGroups) > 0 && num(sc.maxGroups) < num(sc.minGroups)) causes.push(invalid(at, sc, 'maxGroups lower than minGroups is not allowed'));
    if (typeof sc.spreadByField === 'string' && sc.spreadByField) {
      const reported = byField.get(sc.spreadByField);
      // Reported once per field, however many duplicates follow.
      if (reported === false) {
        causes.push(invalid(path, constraints, `multiple ${sc.spreadByField} spread constraints are not allowed`));
        byField.set(sc.spreadByField, true);
      } else if (reported === undefined) {
        byField.set(sc.spreadByField, false);
      }
    }
  });
  if (byField.size > 0 && !byField.has('cluster')) {
    causes.push(invalid(path, constraints, 'the cluster spread constraint must be enabled in one of the constraints in case of SpreadByField is enabled'));
  }
  return causes;
}

// Schema-level only: Karmada accepts dynamicWeight together with staticWeightList
// (dynamicWeight then wins), so that is not refused here.
function replicaSchedulingCauses(value: unknown, path: string): StatusCause[] {
  if (value === undefined || value === null) return [];
  const rs = rec(value);
  const causes: StatusCause[] = [];
  checkEnum(causes, `${path}.replicaSchedulingType`, rs.replicaSchedulingType, ['Duplicated', 'Divided']);
  checkEnum(causes, `${path}.replicaDivisionPreference`, rs.replicaDivisionPreference, ['Aggregated', 'Weighted']);
  const wp = rec(rs.weightPreference);
  checkEnum(causes, `${path}.weightPreference.dynamicWeight`, wp.dynamicWeight, ['AvailableReplicas']);
  list(wp.staticWeightList).forEach((w, i) => {
    const at = `${path}.weightPreference.staticWeightList[${i}]`;
    const entry = rec(w);
    if (entry.targetCluster === undefined) causes.push(required(`${at}.targetCluster`));
    if (entry.weight === undefined) causes.push(required(`${at}.weight`));
    else if (typeof entry.weight !== 'number' || entry.weight < 1) {
      causes.push(invalid(`${at}.weight`, entry.weight, `${at}.weight in body should be greater than or equal to 1`));
    }
    causes.push(...clusterAffinityCauses(entry.targetCluster, `${at}.targetCluster`));
  });
  causes.push(...replicaLimitCauses(rs.clusterReplicaLimits, `${path}.clusterReplicaLimits`));
  return causes;
}

// Warren's own clusterReplicaLimits: a targetCluster, whole numbers >= 0, min <= max.
// Whether the mins fit the replicas depends on the workload, so the scheduler checks that.
function replicaLimitCauses(value: unknown, path: string): StatusCause[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return [invalid(path, value, `${path} in body must be of type array`)];
  const causes: StatusCause[] = [];
  value.forEach((l, i) => {
    const at = `${path}[${i}]`;
    const entry = rec(l);
    if (entry.targetCluster === undefined) causes.push(required(`${at}.targetCluster`));
    causes.push(...clusterAffinityCauses(entry.targetCluster, `${at}.targetCluster`));
    for (const key of ['minReplicas', 'maxReplicas']) {
      const n = entry[key];
      if (n === undefined || n === null) continue;
      if (typeof n !== 'number' || !Number.isInteger(n)) causes.push(invalid(`${at}.${key}`, n, `${at}.${key} in body must be of type integer`));
      else if (n < 0) causes.push(invalid(`${at}.${key}`, n, `${at}.${key} in body should be greater than or equal to 0`));
    }
    const { minReplicas: min, maxReplicas: max } = entry;
    if (typeof min === 'number' && typeof max === 'number' && min > max) {
      causes.push(invalid(at, entry, 'minReplicas must not be greater than maxReplicas'));
    }
  });
  return causes;
}
