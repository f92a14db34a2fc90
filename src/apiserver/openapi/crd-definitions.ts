// Definitions of custom resources, as kube-apiserver publishes a CRD version:
// its openAPIV3Schema with apiVersion, kind and metadata (ObjectMeta) filled
// in, the GVK extension, and a "<Kind>List" definition beside it. Only one
// tenant's CRDs should ever be passed in: the caller decides whose schemas a
// client may see (KubeZoo leaked every tenant's CRDs here).
import { definitionNameOfKind, META_PKG } from './definition-names.ts';
import { refSchema, type Schema } from './type-schema.ts';

export interface CrdSchema {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  listKind?: string;
  /** spec.versions[].schema.openAPIV3Schema; absent or {} means "anything". */
  schema?: Record<string, unknown>;
}

const API_VERSION_DOC = 'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const KIND_DOC = 'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const METADATA_DOC = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

export function crdListKind(crd: CrdSchema): string {
  return crd.listKind ?? `${crd.kind}List`;
}

/** The kind's definition and its list's definition, keyed by definition name. */
export function crdDefinitions(crd: CrdSchema): Record<string, Schema> {
  const name = definitionNameOfKind(crd.group, crd.version, crd.kind);
  const listKind = crdListKind(crd);
  const own = (crd.schema ?? {}) as Schema;
  const properties = { ...((own.properties as Record<string, Schema> | undefined) ?? {}) };
  properties.apiVersion = { description: API_VERSION_DOC, type: 'string' };
  properties.kind = { description: KIND_DOC, type: 'string' };
  properties.metadata = { ...refSchema(`${META_PKG}.ObjectMeta`), description: METADATA_DOC };
  const kindSchema: Schema = { ...own, type: 'object', properties, 'x-kubernetes-group-version-kind': [{ group: crd.group, kind: crd.kind, version: crd.version }] };
  const listSchema: Schema = {
    description: `${listKind} is a list of ${crd.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { description: API_VERSION_DOC, type: 'string' },
      items: { description: `List of ${crd.plural}. More info: https://git.k8s.io/community/contributors/devel/api-conventions.md`, type: 'array', items: refSchema(name) },
      kind: { description: KIND_DOC, type: 'string' },
      metadata: { ...refSchema(`${META_PKG}.ListMeta`), description: "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds" },
    },
    'x-kubernetes-group-version-kind': [{ group: crd.group, kind: listKind, version: crd.version }],
  };
  return { [name]: kindSchema, [definitionNameOfKind(crd.group, crd.version, listKind)]: listSchema };
}

/**
 * A CRD definition as /openapi/v2 publishes it. A kind whose root preserves unknown fields is
 * published as `{type: object}` and its GVK, nothing else (seen on a real 1.20): kubectl's
 * client-side validation treats v2 properties as closed, so any property listed, even
 * apiVersion, kind and metadata, would make it refuse the fields the schema lets through.
 */
export function toSwaggerV2Definition(schema: Record<string, unknown>): unknown {
  if (schema['x-kubernetes-preserve-unknown-fields'] === true) {
    const gvk = schema['x-kubernetes-group-version-kind'];
    return { type: 'object', ...(gvk ? { 'x-kubernetes-group-version-kind': gvk } : {}) };
  }
  return toSwaggerV2Schema(schema);
}

/**
 * Swagger 2.0 cannot say what OpenAPI v3 can; kube drops these when it
 * publishes a CRD in /openapi/v2 (nullable, oneOf/anyOf/not, CEL rules), and
 * an int-or-string field loses its type. A field that preserves unknown fields
 * loses its type, properties and items (a real 1.20 keeps its description and
 * the extension), for the same reason as the root above.
 */
export function toSwaggerV2Schema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toSwaggerV2Schema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED_IN_V2.has(key)) continue;
    if (VERBATIM.has(key)) out[key] = value;
    else if (key === 'properties' && value && typeof value === 'object') {
      // Keys here are field names, not keywords: a field may be called "not".
      out[key] = Object.fromEntries(Object.entries(value).map(([field, sub]) => [field, toSwaggerV2Schema(sub)]));
    } else out[key] = toSwaggerV2Schema(value);
  }
  if (out['x-kubernetes-int-or-string'] === true) delete out.type;
  if (out['x-kubernetes-preserve-unknown-fields'] === true) {
    delete out.type;
    delete out.properties;
    delete out.items;
  }
  return out;
}

const DROPPED_IN_V2 = new Set(['nullable', 'oneOf', 'anyOf', 'not', 'x-kubernetes-validations']);
const VERBATIM = new Set(['enum', 'default', 'example', 'x-kubernetes-group-version-kind', 'required', 'x-kubernetes-list-map-keys']);
