export { matchPolicy, highestPriority } from './match-policy.ts';
export type { MatchedPolicy } from './match-policy.ts';
export {
  selectorPriority, selectorsPriority,
  PRIORITY_MISMATCH, PRIORITY_MATCH_ALL, PRIORITY_MATCH_LABEL_SELECTOR, PRIORITY_MATCH_NAME,
} from './resource-match.ts';
export type { ImplicitPriority } from './resource-match.ts';
export {
  bindingName, clusterBindingName, workName, executionNamespace, clusterOfExecutionNamespace,
  EXECUTION_SPACE_PREFIX, fnv32a, safeEncodeString,
} from './names.ts';
