// One CRD version's schema, compiled once into the four operations the
// registry needs for custom resources: validate, default, prune and list the
// fields pruning would drop. Cached per CRD uid + resourceVersion + version,
// so a CRD update recompiles and an unchanged CRD never does.
// x-kubernetes-validations (CEL) rules are NOT evaluated.
import { ApiError } from '../../core/api-error.ts';
import type { KubeObject, StatusCause } from '../../core/types.ts';
import type { CustomResourceDefinition, JSONSchemaProps } from './crd-types.ts';
import { validateEmbeddedResources } from './embedded-resource.ts';
import { applyDefaults, pruneNonNullableNulls } from './schema-defaulting.ts';
import { validateListTypes } from './schema-list-types.ts';
import { pruneUnknown } from './schema-pruning.ts';
import { compileSchemaValidator } from './schema-validator.ts';

export interface CompiledCustomResource {
  /** Schema causes; `old` is accepted for ratcheting/CEL transition rules, not used yet. */
  validate(obj: KubeObject, old?: KubeObject): StatusCause[];
  /** A defaulted copy (non-nullable nulls without default dropped, then defaults applied). */
  default(obj: KubeObject): KubeObject;
  /** A copy without the fields the schema does not specify. */
  prune(obj: KubeObject): KubeObject;
  /** Paths pruning would drop, e.g. "spec.foo", "spec.items[0].bar" (sorted). */
  unknownFields(obj: KubeObject): string[];
}

/** Accepts anything at all: for versions without a schema (never valid in v1, but be safe). */
const PERMISSIVE: JSONSchemaProps = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

const cache = new Map<string, CompiledCustomResource>();
const CACHE_LIMIT = 500;

export function schemaForVersion(crd: CustomResourceDefinition, version: string): JSONSchemaProps | undefined {
  const v = (crd.spec.versions ?? []).find((x) => x.name === version);
  if (!v) throw new ApiError('NotFound', `version "${version}" is not defined in CustomResourceDefinition "${crd.metadata.name ?? ''}"`);
  return v.schema?.openAPIV3Schema;
}

export function compileCustomResource(crd: CustomResourceDefinition, version: string): CompiledCustomResource {
  const cacheKey = `${crd.metadata.uid ?? crd.metadata.name ?? ''}/${crd.metadata.resourceVersion ?? ''}/${version}`;
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  const compiled = compileSchema(schemaForVersion(crd, version) ?? PERMISSIVE);
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(cacheKey, compiled);
  return compiled;
}

/** Compiles a root schema directly (no CRD, no cache); exported for tests and defaults checks. */
export function compileSchema(schema: JSONSchemaProps): CompiledCustomResource {
  const check = compileSchemaValidator(schema, true);
  return {
    validate(obj) {
      // Only the object's own fields: apiVersion/kind/metadata are the registry's.
      const body: Record<string, unknown> = { ...obj };
      delete body.apiVersion;
      delete body.kind;
      if (body.metadata !== undefined) body.metadata = pickNames(obj.metadata);
      return [...check(body), ...validateListTypes(body, schema), ...validateEmbeddedResources(stripMeta(body), schema)];
    },
    default(obj) {
      const copy = structuredClone(obj);
      pruneNonNullableNulls(copy, schema);
      applyDefaults(copy, schema);
      return copy;
    },
    prune(obj) {
      const copy = structuredClone(obj);
      pruneUnknown(copy, schema, true);
      return copy;
    },
    unknownFields(obj) {
      return pruneUnknown(structuredClone(obj), schema, true);
    },
  };
}

function pickNames(meta: KubeObject['metadata']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (meta?.name !== undefined) out.name = meta.name;
  if (meta?.generateName !== undefined) out.generateName = meta.generateName;
  return out;
}

/** The root is not an embedded resource check target: its type meta is set by the server. */
function stripMeta(body: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...body };
  delete rest.metadata;
  return rest;
}
