// The scheduler's public surface, for the propagation engine and overrides.
export { schedule } from './schedule.ts';
export type { ScheduleInput, ScheduleResult, ScheduleFailureReason } from './types.ts';
export { availableReplicas, estimateAvailable } from './available-replicas.ts';
export { matchesClusterAffinity } from './cluster-affinity.ts';
export { toleratesTaints, toleratesTaint, findUntoleratedTaint, formatTaint } from './taint-toleration.ts';
export { allocateWebsterSeats } from './webster.ts';
export { parseQuantity } from './quantity.ts';
