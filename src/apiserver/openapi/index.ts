// OpenAPI of the embedded apiserver (/openapi/v2, /openapi/v3) and the
// schema checks that field validation (fieldValidation=Strict|Warn) needs.
export { openApiV2, KUBE_VERSION } from './openapi-v2.ts';
export { openApiV3Index, openApiV3GroupVersion, v3PathOf, type V3Document } from './openapi-v3.ts';
export type { CrdSchema } from './crd-definitions.ts';
export { builtinDefinitions } from './builtin-definitions.ts';
export { definitionNameOfKind } from './definition-names.ts';
export { findUnknownFields, strictDecodingError, unknownFieldWarnings } from './unknown-fields.ts';
