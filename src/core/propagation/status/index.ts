export { reflectStatus, RESOURCE_TEMPLATE_GENERATION_ANNOTATION } from './reflect-status.ts';
export { interpretHealth } from './interpret-health.ts';
export { aggregateStatus } from './aggregate-status.ts';
export type { AggregateOptions } from './aggregate-status.ts';
