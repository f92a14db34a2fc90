export { dependenciesOf } from './dependencies-of.ts';
export type { Dependency, DependencyKind } from './dependencies-of.ts';
export { podReferences } from './pod-references.ts';
export type { PodReferences } from './pod-references.ts';
