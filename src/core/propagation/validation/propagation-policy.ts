// (Cluster)PropagationPolicy validation: what Karmada's CRD schema and its
// validating webhook (ValidatePropagationSpec) refuse, and nothing more. A
// policy that selects nothing or names a cluster that does not exist is fine.
import { invalid as invalidError } from '../../api-error.ts';
import type { ApiError } from '../../api-error.ts';
import type { StatusCause } from '../../types.ts';
import { checkEnum, invalid, list, rec, required } from './field-errors.ts';
import type { Json } from './field-errors.ts';
import { placementCauses } from './placement.ts';

export function resourceSelectorCauses(selectors: unknown, path: string, minItems: number): StatusCause[] {
  const causes: StatusCause[] = [];
  if (selectors === undefined || selectors === null) {
    if (minItems > 0) causes.push(required(path));
    return causes;
  }
  const items = list(selectors);
  if (items.length < minItems) causes.push(invalid(path, items.length, `${path} in body should have at least ${minItems} items`));
  items.forEach((s, i) => {
    const sel = rec(s);
    if (typeof sel.apiVersion !== 'string' || sel.apiVersion === '') causes.push(required(`${path}[${i}].apiVersion`));
    if (typeof sel.kind !== 'string' || sel.kind === '') causes.push(required(`${path}[${i}].kind`));
  });
  return causes;
}

export function propagationPolicyCauses(obj: unknown): StatusCause[] {
  const spec = rec(rec(obj).spec);
  const causes: StatusCause[] = [...resourceSelectorCauses(spec.resourceSelectors, 'spec.resourceSelectors', 1)];
  causes.push(...placementCauses(rec(spec.placement), 'spec.placement'));
  checkEnum(causes, 'spec.conflictResolution', spec.conflictResolution, ['Abort', 'Overwrite']);
  checkEnum(causes, 'spec.preemption', spec.preemption, ['Always', 'Never']);
  const failover = rec(spec.failover);
  const application = failover.application;
  if (application != null && spec.propagateDeps !== true) {
    causes.push(invalid('spec.propagateDeps', spec.propagateDeps === true, 'application failover is set, propagateDeps must be true'));
  }
  causes.push(...applicationFailoverCauses(application, 'spec.failover.application'));
  if (spec.preemption === 'Always') {
    list(spec.resourceSelectors).forEach((s, i) => {
      const name = rec(s).name;
      if (typeof name !== 'string' || name === '') {
        causes.push(invalid(`spec.resourceSelectors[${i}].name`, '', 'name cannot be empty if preemption is Always, the empty name may cause unexpected resources preemption'));
      }
    });
  }
  const suspension = rec(spec.suspension);
  if (suspension.dispatching === true && list(rec(suspension.dispatchingOnClusters).clusterNames).length > 0) {
    // Karmada's own path doubles the segment ("spec.suspension.suspension"); kept for identical output.
    causes.push(invalid('spec.suspension.suspension', suspension, 'suspension dispatching cannot co-exist with dispatchingOnClusters.clusterNames'));
  }
  return causes;
}

function applicationFailoverCauses(value: unknown, path: string): StatusCause[] {
  if (value === undefined || value === null) return [];
  const app = rec(value);
  const causes: StatusCause[] = [];
  const toleration = rec(app.decisionConditions).tolerationSeconds;
  if (typeof toleration === 'number' && toleration < 0) causes.push(invalid(`${path}.decisionConditions.tolerationSeconds`, toleration, 'must be greater than or equal to 0'));
  // Karmada ≤ 1.11 spells the mode "Graciously", later "Gracefully"; both mean the same.
  const graceful = app.purgeMode === 'Graciously' || app.purgeMode === 'Gracefully';
  const grace = app.gracePeriodSeconds;
  if (!graceful && grace != null) causes.push(invalid(`${path}.gracePeriodSeconds`, grace, 'only takes effect when purgeMode is graciously'));
  if (graceful && grace == null) causes.push(invalid(`${path}.gracePeriodSeconds`, null, 'should not be empty when purgeMode is graciously'));
  if (typeof grace === 'number' && grace <= 0) causes.push(invalid(`${path}.gracePeriodSeconds`, grace, 'must be greater than 0'));
  return causes;
}

/** 422 Invalid for a (Cluster)PropagationPolicy Karmada would refuse, or undefined when it is accepted. */
export function validatePropagationPolicy(obj: unknown): ApiError | undefined {
  const causes = propagationPolicyCauses(obj);
  if (causes.length === 0) return undefined;
  return invalidError({ group: 'policy.karmada.io', kind: kindOf(obj, 'PropagationPolicy'), ...nameOf(obj) }, causes);
}

export function kindOf(obj: unknown, fallback: string): string {
  const kind = rec(obj).kind;
  return typeof kind === 'string' && kind ? kind : fallback;
}

export function nameOf(obj: unknown): { name?: string } {
  const name = rec(rec(obj).metadata).name;
  return typeof name === 'string' ? { name } : {};
}

export type { Json };
