// Field numbers of the protobuf messages of package openapi.v2 (gnostic's
// OpenAPIv2.proto, the schema client-go decodes /openapi/v2 with). These are
// wire-format facts: changing one breaks every kubectl that reads us.
// Only the messages a Kubernetes swagger document can reach are listed.

export const DOCUMENT = {
  swagger: 1, info: 2, host: 3, basePath: 4, schemes: 5, consumes: 6, produces: 7, paths: 8,
  definitions: 9, parameters: 10, responses: 11, security: 12, securityDefinitions: 13, tags: 14,
  externalDocs: 15, vendorExtension: 16,
} as const;

export const INFO = { title: 1, version: 2, description: 3, termsOfService: 4, contact: 5, license: 6, vendorExtension: 7 } as const;
export const CONTACT = { name: 1, url: 2, email: 3, vendorExtension: 4 } as const;
export const LICENSE = { name: 1, url: 2, vendorExtension: 3 } as const;
export const EXTERNAL_DOCS = { description: 1, url: 2, vendorExtension: 3 } as const;
export const TAG = { name: 1, description: 2, externalDocs: 3, vendorExtension: 4 } as const;

/** Any: the value as YAML text (gnostic never fills the google.protobuf.Any). */
export const ANY = { value: 1, yaml: 2 } as const;
/** NamedAny, NamedSchema, NamedPathItem, NamedResponseValue, ...: all are {name, value}. */
export const NAMED = { name: 1, value: 2 } as const;
/** Definitions, Properties, ParameterDefinitions, ResponseDefinitions, SecurityDefinitions, SecurityRequirement, Headers, Examples, Oauth2Scopes. */
export const MAP_ENTRIES = 1;
export const STRING_ARRAY_VALUE = 1;

export const PATHS = { vendorExtension: 1, path: 2 } as const;
export const PATH_ITEM = { ref: 1, get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8, parameters: 9, vendorExtension: 10 } as const;

export const OPERATION = {
  tags: 1, summary: 2, description: 3, externalDocs: 4, operationId: 5, produces: 6, consumes: 7,
  parameters: 8, responses: 9, schemes: 10, deprecated: 11, security: 12, vendorExtension: 13,
} as const;

export const PARAMETERS_ITEM = { parameter: 1, jsonReference: 2 } as const;
export const JSON_REFERENCE = { ref: 1, description: 2 } as const;
export const PARAMETER = { bodyParameter: 1, nonBodyParameter: 2 } as const;
export const BODY_PARAMETER = { description: 1, name: 2, in: 3, required: 4, schema: 5, vendorExtension: 6 } as const;
/** NonBodyParameter's oneof, keyed by the parameter's `in`. */
export const NON_BODY_PARAMETER = { header: 1, formData: 2, query: 3, path: 4 } as const;

/**
 * The four non-body sub-schemas share their tail but not their head: query and
 * formData have allow_empty_value at 5, which shifts everything after it by one.
 */
const SUB_SCHEMA_TAIL = [
  'type', 'format', 'items', 'collectionFormat', 'default', 'maximum', 'exclusiveMaximum', 'minimum',
  'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'enum',
  'multipleOf', 'vendorExtension',
] as const;
export type SubSchemaField = 'required' | 'in' | 'description' | 'name' | 'allowEmptyValue' | (typeof SUB_SCHEMA_TAIL)[number];

function subSchema(withAllowEmpty: boolean): Partial<Record<SubSchemaField, number>> {
  const out: Partial<Record<SubSchemaField, number>> = { required: 1, in: 2, description: 3, name: 4 };
  let next = 5;
  if (withAllowEmpty) out.allowEmptyValue = next++;
  for (const f of SUB_SCHEMA_TAIL) out[f] = next++;
  return out;
}

export const QUERY_PARAMETER = subSchema(true);
export const FORM_DATA_PARAMETER = subSchema(true);
export const HEADER_PARAMETER = subSchema(false);
export const PATH_PARAMETER = subSchema(false);

export const PRIMITIVES_ITEMS = {
  type: 1, format: 2, items: 3, collectionFormat: 4, default: 5, maximum: 6, exclusiveMaximum: 7, minimum: 8,
  exclusiveMinimum: 9, maxLength: 10, minLength: 11, pattern: 12, maxItems: 13, minItems: 14, uniqueItems: 15,
  enum: 16, multipleOf: 17, vendorExtension: 18,
} as const;
/** Header (a response header) has the PrimitivesItems layout plus description at 18, extensions at 19. */
export const HEADER = { ...PRIMITIVES_ITEMS, description: 18, vendorExtension: 19 } as const;

export const RESPONSES = { responseCode: 1, vendorExtension: 2 } as const;
export const RESPONSE_VALUE = { response: 1, jsonReference: 2 } as const;
export const RESPONSE = { description: 1, schema: 2, headers: 3, examples: 4, vendorExtension: 5 } as const;
export const SCHEMA_ITEM = { schema: 1, fileSchema: 2 } as const;
export const FILE_SCHEMA = {
  format: 1, title: 2, description: 3, default: 4, required: 5, type: 6, readOnly: 7, externalDocs: 8, example: 9, vendorExtension: 10,
} as const;

export const SCHEMA = {
  ref: 1, format: 2, title: 3, description: 4, default: 5, multipleOf: 6, maximum: 7, exclusiveMaximum: 8,
  minimum: 9, exclusiveMinimum: 10, maxLength: 11, minLength: 12, pattern: 13, maxItems: 14, minItems: 15,
  uniqueItems: 16, maxProperties: 17, minProperties: 18, required: 19, enum: 20, additionalProperties: 21,
  type: 22, items: 23, allOf: 24, properties: 25, discriminator: 26, readOnly: 27, xml: 28, externalDocs: 29,
  example: 30, vendorExtension: 31,
} as const;
export const ADDITIONAL_PROPERTIES_ITEM = { schema: 1, boolean: 2 } as const;
export const TYPE_ITEM_VALUE = 1;
export const ITEMS_ITEM_SCHEMA = 1;
export const XML = { name: 1, namespace: 2, prefix: 3, attribute: 4, wrapped: 5, vendorExtension: 6 } as const;

/** SecurityDefinitionsItem's oneof: basic, apiKey, then oauth2 by flow. */
export const SECURITY_DEFINITIONS_ITEM = {
  basic: 1, apiKey: 2, implicit: 3, password: 4, application: 5, accessCode: 6,
} as const;
export const BASIC_SECURITY = { type: 1, description: 2, vendorExtension: 3 } as const;
export const API_KEY_SECURITY = { type: 1, name: 2, in: 3, description: 4, vendorExtension: 5 } as const;
/** The four Oauth2*Security messages differ in which URLs they carry, so each gets its own numbers. */
export const OAUTH2_SECURITY = {
  implicit: { type: 1, flow: 2, scopes: 3, authorizationUrl: 4, description: 5, vendorExtension: 6 },
  password: { type: 1, flow: 2, scopes: 3, tokenUrl: 4, description: 5, vendorExtension: 6 },
  application: { type: 1, flow: 2, scopes: 3, tokenUrl: 4, description: 5, vendorExtension: 6 },
  accessCode: { type: 1, flow: 2, scopes: 3, authorizationUrl: 4, tokenUrl: 5, description: 6, vendorExtension: 7 },
} as const;
