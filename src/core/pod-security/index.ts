// Pod Security Standards (baseline, restricted) as pure checks, and the
// namespace labels that choose them. Used by the embedded apiserver's admission.
export type { Violation, PodCheck } from './baseline-checks.ts';
export { evaluatePod, describeViolations } from './evaluate.ts';
export { readNamespacePolicy, formatLevelVersion, LABEL_PREFIX, MODES } from './namespace-policy.ts';
export type { Level, LevelVersion, Mode, NamespacePolicy, PolicyLabelError } from './namespace-policy.ts';
export { podSpecUpdateIsSignificant } from './significant-update.ts';
