// Per-kind behaviour the registry delegates to: defaulting, pruning, validation
// and type information. Passed in as plain functions so the registry can be
// tested with fakes and the real rules live in their own modules.
import type { StatusCause, KubeObject } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';

export interface Strategy {
  /** Applies defaults (and for custom resources, pruning); returns a new object. */
  normalize(def: ResourceDef, obj: KubeObject): KubeObject;
  /** Paths of fields the schema does not know (".spec.foo"); reported under fieldValidation Strict/Warn, then dropped. */
  unknownFields(def: ResourceDef, obj: KubeObject): string[];
  /** Defaults applied to a stored custom resource as it is read (kube defaults from storage: a default added later shows). */
  defaultOnRead?(def: ResourceDef, obj: KubeObject): KubeObject;
  validateCreate(def: ResourceDef, obj: KubeObject): StatusCause[];
  /** Causes found in a server-side apply configuration itself, before it is merged (custom resources' non-nullable nulls). */
  validateApplied?(def: ResourceDef, applied: unknown): StatusCause[];
  validateUpdate(def: ResourceDef, obj: KubeObject, old: KubeObject): StatusCause[];
  /** OpenAPI definition name for strategic merge and apply ('io.k8s.api.apps.v1.Deployment'), undefined for custom resources. */
  typeName(def: ResourceDef): string | undefined;
}

/** A strategy that accepts everything as is; for unit tests of the registry. */
export const permissiveStrategy: Strategy = {
  normalize: (_def, obj) => obj,
  unknownFields: () => [],
  validateCreate: () => [],
  validateUpdate: () => [],
  typeName: () => undefined,
};
