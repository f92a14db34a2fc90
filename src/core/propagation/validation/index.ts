export { validatePropagationPolicy, propagationPolicyCauses } from './propagation-policy.ts';
export { validateOverridePolicy, overridePolicyCauses } from './override-policy.ts';
