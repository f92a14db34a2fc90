export { replicasOf, reviseReplicas } from './replicas.ts';
export type { TemplateReplicas } from './replicas.ts';
export { podRequests } from './resource-requests.ts';
export { podSpecOf, podSpecPointer, allContainers } from './pod-template.ts';
export type { ContainerLike } from './pod-template.ts';
