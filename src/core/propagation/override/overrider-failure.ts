// An overrider that cannot apply throws an OverriderFailure naming the field of
// the policy at fault; applyOverrides turns it into a 422 about that policy, in
// the tenant's own terms (no member or upstream names in it).
import { invalid } from '../../api-error.ts';
import type { ApiError } from '../../api-error.ts';

export class OverriderFailure extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.name = 'OverriderFailure';
    this.field = field;
  }
}

export function overrideFailed(policy: { name: string; namespaced: boolean }, failure: OverriderFailure): ApiError {
  const kind = policy.namespaced ? 'OverridePolicy' : 'ClusterOverridePolicy';
  return invalid({ group: 'policy.karmada.io', kind, name: policy.name }, [
    { type: 'FieldValueInvalid', field: failure.field, message: failure.message },
  ]);
}
