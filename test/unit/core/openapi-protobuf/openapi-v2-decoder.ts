// Test-only decoder for openapi.v2.Document. Its field table is typed out
// again from gnostic's OpenAPIv2.proto, deliberately not imported from the
// encoder, so a wrong field number on either side makes the round trip fail.
// Two steps: protobuf bytes → plain objects keyed by proto field names, then
// those objects → swagger JSON the way gnostic's ToRawInfo would print them.
import { parse } from 'yaml';

type Kind = 'string' | 'bool' | 'int64' | 'double' | string; // other names are message types
type Field = [name: string, kind: Kind, repeated?: 'r'];
type Desc = Record<number, Field>;

const NAMED = (value: Kind): Desc => ({ 1: ['name', 'string'], 2: ['value', value] });
const ENTRIES = (named: Kind): Desc => ({ 1: ['additional_properties', named, 'r'] });
const SIMPLE_TAIL: Field[] = [
  ['type', 'string'], ['format', 'string'], ['items', 'PrimitivesItems'], ['collection_format', 'string'], ['default', 'Any'],
  ['maximum', 'double'], ['exclusive_maximum', 'bool'], ['minimum', 'double'], ['exclusive_minimum', 'bool'],
  ['max_length', 'int64'], ['min_length', 'int64'], ['pattern', 'string'], ['max_items', 'int64'], ['min_items', 'int64'],
  ['unique_items', 'bool'], ['enum', 'Any', 'r'], ['multiple_of', 'double'],
];
function numbered(start: number, fields: Field[]): Desc {
  const out: Desc = {};
  fields.forEach((f, i) => (out[start + i] = f));
  return out;
}
const HEAD: Desc = { 1: ['required', 'bool'], 2: ['in', 'string'], 3: ['description', 'string'], 4: ['name', 'string'] };
const VX: Field = ['vendor_extension', 'NamedAny', 'r'];

export const MESSAGES: Record<string, Desc> = {
  Document: {
    1: ['swagger', 'string'], 2: ['info', 'Info'], 3: ['host', 'string'], 4: ['base_path', 'string'],
    5: ['schemes', 'string', 'r'], 6: ['consumes', 'string', 'r'], 7: ['produces', 'string', 'r'], 8: ['paths', 'Paths'],
    9: ['definitions', 'Definitions'], 10: ['parameters', 'ParameterDefinitions'], 11: ['responses', 'ResponseDefinitions'],
    12: ['security', 'SecurityRequirement', 'r'], 13: ['security_definitions', 'SecurityDefinitions'], 14: ['tags', 'Tag', 'r'],
    15: ['external_docs', 'ExternalDocs'], 16: VX,
  },
  Info: { 1: ['title', 'string'], 2: ['version', 'string'], 3: ['description', 'string'], 4: ['terms_of_service', 'string'], 5: ['contact', 'Contact'], 6: ['license', 'License'], 7: VX },
  Contact: { 1: ['name', 'string'], 2: ['url', 'string'], 3: ['email', 'string'], 4: VX },
  License: { 1: ['name', 'string'], 2: ['url', 'string'], 3: VX },
  ExternalDocs: { 1: ['description', 'string'], 2: ['url', 'string'], 3: VX },
  Tag: { 1: ['name', 'string'], 2: ['description', 'string'], 3: ['external_docs', 'ExternalDocs'], 4: VX },
  Any: { 1: ['value', 'GoogleAny'], 2: ['yaml', 'string'] },
  GoogleAny: { 1: ['type_url', 'string'], 2: ['value', 'string'] },
  NamedAny: NAMED('Any'),
  NamedSchema: NAMED('Schema'),
  NamedPathItem: NAMED('PathItem'),
  NamedResponseValue: NAMED('ResponseValue'),
  NamedResponse: NAMED('Response'),
  NamedParameter: NAMED('Parameter'),
  NamedHeader: NAMED('Header'),
  NamedString: NAMED('string'),
  NamedStringArray: NAMED('StringArray'),
  NamedSecurityDefinitionsItem: NAMED('SecurityDefinitionsItem'),
  StringArray: { 1: ['value', 'string', 'r'] },
  Definitions: ENTRIES('NamedSchema'),
  Properties: ENTRIES('NamedSchema'),
  ParameterDefinitions: ENTRIES('NamedParameter'),
  ResponseDefinitions: ENTRIES('NamedResponse'),
  SecurityDefinitions: ENTRIES('NamedSecurityDefinitionsItem'),
  SecurityRequirement: ENTRIES('NamedStringArray'),
  Headers: ENTRIES('NamedHeader'),
  Examples: ENTRIES('NamedAny'),
  Oauth2Scopes: ENTRIES('NamedString'),
  Paths: { 1: VX, 2: ['path', 'NamedPathItem', 'r'] },
  PathItem: {
    1: ['_ref', 'string'], 2: ['get', 'Operation'], 3: ['put', 'Operation'], 4: ['post', 'Operation'], 5: ['delete', 'Operation'],
    6: ['options', 'Operation'], 7: ['head', 'Operation'], 8: ['patch', 'Operation'], 9: ['parameters', 'ParametersItem', 'r'], 10: VX,
  },
  Operation: {
    1: ['tags', 'string', 'r'], 2: ['summary', 'string'], 3: ['description', 'string'], 4: ['external_docs', 'ExternalDocs'],
    5: ['operation_id', 'string'], 6: ['produces', 'string', 'r'], 7: ['consumes', 'string', 'r'], 8: ['parameters', 'ParametersItem', 'r'],
    9: ['responses', 'Responses'], 10: ['schemes', 'string', 'r'], 11: ['deprecated', 'bool'], 12: ['security', 'SecurityRequirement', 'r'], 13: VX,
  },
  ParametersItem: { 1: ['parameter', 'Parameter'], 2: ['json_reference', 'JsonReference'] },
  JsonReference: { 1: ['_ref', 'string'], 2: ['description', 'string'] },
  Parameter: { 1: ['body_parameter', 'BodyParameter'], 2: ['non_body_parameter', 'NonBodyParameter'] },
  BodyParameter: { 1: ['description', 'string'], 2: ['name', 'string'], 3: ['in', 'string'], 4: ['required', 'bool'], 5: ['schema', 'Schema'], 6: VX },
  NonBodyParameter: {
    1: ['header_parameter_sub_schema', 'HeaderParameterSubSchema'], 2: ['form_data_parameter_sub_schema', 'FormDataParameterSubSchema'],
    3: ['query_parameter_sub_schema', 'QueryParameterSubSchema'], 4: ['path_parameter_sub_schema', 'PathParameterSubSchema'],
  },
  QueryParameterSubSchema: { ...HEAD, 5: ['allow_empty_value', 'bool'], ...numbered(6, SIMPLE_TAIL), 23: VX },
  FormDataParameterSubSchema: { ...HEAD, 5: ['allow_empty_value', 'bool'], ...numbered(6, SIMPLE_TAIL), 23: VX },
  HeaderParameterSubSchema: { ...HEAD, ...numbered(5, SIMPLE_TAIL), 22: VX },
  PathParameterSubSchema: { ...HEAD, ...numbered(5, SIMPLE_TAIL), 22: VX },
  PrimitivesItems: { ...numbered(1, SIMPLE_TAIL), 18: VX },
  Header: { ...numbered(1, SIMPLE_TAIL), 18: ['description', 'string'], 19: VX },
  Responses: { 1: ['response_code', 'NamedResponseValue', 'r'], 2: VX },
  ResponseValue: { 1: ['response', 'Response'], 2: ['json_reference', 'JsonReference'] },
  Response: { 1: ['description', 'string'], 2: ['schema', 'SchemaItem'], 3: ['headers', 'Headers'], 4: ['examples', 'Examples'], 5: VX },
  SchemaItem: { 1: ['schema', 'Schema'], 2: ['file_schema', 'FileSchema'] },
  FileSchema: {
    1: ['format', 'string'], 2: ['title', 'string'], 3: ['description', 'string'], 4: ['default', 'Any'], 5: ['required', 'string', 'r'],
    6: ['type', 'string'], 7: ['read_only', 'bool'], 8: ['external_docs', 'ExternalDocs'], 9: ['example', 'Any'], 10: VX,
  },
  Schema: {
    1: ['_ref', 'string'], 2: ['format', 'string'], 3: ['title', 'string'], 4: ['description', 'string'], 5: ['default', 'Any'],
    6: ['multiple_of', 'double'], 7: ['maximum', 'double'], 8: ['exclusive_maximum', 'bool'], 9: ['minimum', 'double'],
    10: ['exclusive_minimum', 'bool'], 11: ['max_length', 'int64'], 12: ['min_length', 'int64'], 13: ['pattern', 'string'],
    14: ['max_items', 'int64'], 15: ['min_items', 'int64'], 16: ['unique_items', 'bool'], 17: ['max_properties', 'int64'],
    18: ['min_properties', 'int64'], 19: ['required', 'string', 'r'], 20: ['enum', 'Any', 'r'],
    21: ['additional_properties', 'AdditionalPropertiesItem'], 22: ['type', 'TypeItem'], 23: ['items', 'ItemsItem'],
    24: ['all_of', 'Schema', 'r'], 25: ['properties', 'Properties'], 26: ['discriminator', 'string'], 27: ['read_only', 'bool'],
    28: ['xml', 'Xml'], 29: ['external_docs', 'ExternalDocs'], 30: ['example', 'Any'], 31: VX,
  },
  AdditionalPropertiesItem: { 1: ['schema', 'Schema'], 2: ['boolean', 'bool'] },
  TypeItem: { 1: ['value', 'string', 'r'] },
  ItemsItem: { 1: ['schema', 'Schema', 'r'] },
  Xml: { 1: ['name', 'string'], 2: ['namespace', 'string'], 3: ['prefix', 'string'], 4: ['attribute', 'bool'], 5: ['wrapped', 'bool'], 6: VX },
  SecurityDefinitionsItem: {
    1: ['basic_authentication_security', 'BasicAuthenticationSecurity'], 2: ['api_key_security', 'ApiKeySecurity'],
    3: ['oauth2_implicit_security', 'Oauth2ImplicitSecurity'], 4: ['oauth2_password_security', 'Oauth2PasswordSecurity'],
    5: ['oauth2_application_security', 'Oauth2ApplicationSecurity'], 6: ['oauth2_access_code_security', 'Oauth2AccessCodeSecurity'],
  },
  BasicAuthenticationSecurity: { 1: ['type', 'string'], 2: ['description', 'string'], 3: VX },
  ApiKeySecurity: { 1: ['type', 'string'], 2: ['name', 'string'], 3: ['in', 'string'], 4: ['description', 'string'], 5: VX },
  Oauth2ImplicitSecurity: { 1: ['type', 'string'], 2: ['flow', 'string'], 3: ['scopes', 'Oauth2Scopes'], 4: ['authorization_url', 'string'], 5: ['description', 'string'], 6: VX },
  Oauth2PasswordSecurity: { 1: ['type', 'string'], 2: ['flow', 'string'], 3: ['scopes', 'Oauth2Scopes'], 4: ['token_url', 'string'], 5: ['description', 'string'], 6: VX },
  Oauth2ApplicationSecurity: { 1: ['type', 'string'], 2: ['flow', 'string'], 3: ['scopes', 'Oauth2Scopes'], 4: ['token_url', 'string'], 5: ['description', 'string'], 6: VX },
  Oauth2AccessCodeSecurity: {
    1: ['type', 'string'], 2: ['flow', 'string'], 3: ['scopes', 'Oauth2Scopes'], 4: ['authorization_url', 'string'], 5: ['token_url', 'string'], 6: ['description', 'string'], 7: VX,
  },
};

export type Decoded = Record<string, any>;

/** Step 1: wire bytes → object keyed by proto field names. Throws on malformed input or unknown fields. */
export function decodeMessage(bytes: Uint8Array, type: string): Decoded {
  const desc = MESSAGES[type];
  if (!desc) throw new Error(`no descriptor for ${type}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Decoded = {};
  let pos = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (pos >= bytes.length) throw new Error('truncated varint');
      const b = bytes[pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
      if (shift > 63n) throw new Error('varint too long');
    }
  };
  while (pos < bytes.length) {
    const key = Number(varint());
    const field = key >>> 3;
    const wire = key & 7;
    const spec = desc[field];
    if (!spec) throw new Error(`${type}: unknown field ${field}`);
    const [name, kind, repeated] = spec;
    let value: unknown;
    if (kind === 'bool' || kind === 'int64') {
      if (wire !== 0) throw new Error(`${type}.${name}: wire type ${wire}, want 0`);
      const v = varint();
      value = kind === 'bool' ? v !== 0n : Number(BigInt.asIntN(64, v));
    } else if (kind === 'double') {
      if (wire !== 1) throw new Error(`${type}.${name}: wire type ${wire}, want 1`);
      value = view.getFloat64(pos, true);
      pos += 8;
    } else {
      if (wire !== 2) throw new Error(`${type}.${name}: wire type ${wire}, want 2`);
      const len = Number(varint());
      if (pos + len > bytes.length) throw new Error(`${type}.${name}: length past end`);
      const slice = bytes.subarray(pos, pos + len);
      pos += len;
      value = kind === 'string' ? new TextDecoder('utf-8', { fatal: true }).decode(slice) : decodeMessage(slice, kind);
    }
    if (repeated) (out[name] ??= []).push(value);
    else out[name] = value;
  }
  return out;
}

// ---- Step 2: proto objects → swagger JSON ----

const camel = (s: string): string => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const RENAME: Record<string, string> = { _ref: '$ref', base_path: 'basePath' };
/** Fields whose messages are oneof wrappers: the JSON holds the single member. */
const ONEOF = new Set(['ParametersItem', 'Parameter', 'NonBodyParameter', 'ResponseValue', 'SchemaItem', 'SecurityDefinitionsItem']);
/** Fields whose messages are `repeated Named*` maps. */
const MAPS = new Set(['Definitions', 'Properties', 'ParameterDefinitions', 'ResponseDefinitions', 'SecurityDefinitions', 'SecurityRequirement', 'Headers', 'Examples', 'Oauth2Scopes']);

function fieldType(type: string, name: string): string | undefined {
  return Object.values(MESSAGES[type] ?? {}).find((f) => f[0] === name)?.[1];
}

function valueToJson(v: unknown, kind: string): unknown {
  if (kind === 'string' || kind === 'bool' || kind === 'int64' || kind === 'double') return v;
  return messageToJson(v as Decoded, kind);
}

export function messageToJson(m: Decoded, type: string): unknown {
  if (type === 'Any') return parse(m.yaml ?? '');
  if (type === 'StringArray') return m.value ?? [];
  if (type === 'TypeItem') return m.value?.length === 1 ? m.value[0] : (m.value ?? []);
  if (type === 'ItemsItem') return m.schema?.length === 1 ? messageToJson(m.schema[0], 'Schema') : (m.schema ?? []).map((s: Decoded) => messageToJson(s, 'Schema'));
  if (type === 'AdditionalPropertiesItem') return 'schema' in m ? messageToJson(m.schema, 'Schema') : m.boolean;
  if (ONEOF.has(type)) {
    const members = Object.entries(m);
    if (members.length !== 1) throw new Error(`${type}: oneof with ${members.length} members set`);
    const [name, v] = members[0]!;
    return valueToJson(v, fieldType(type, name)!);
  }
  if (MAPS.has(type)) return namedToJson(m.additional_properties ?? [], fieldType(type, 'additional_properties')!);
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(m)) {
    const kind = fieldType(type, name)!;
    // Extensions, paths and response codes sit beside the fixed keys in JSON.
    const inline = name === 'vendor_extension' || (type === 'Paths' && name === 'path') || (type === 'Responses' && name === 'response_code');
    if (inline) Object.assign(out, namedToJson(v, kind));
    else out[RENAME[name] ?? camel(name)] = Array.isArray(v) ? v.map((x) => valueToJson(x, kind)) : valueToJson(v, kind);
  }
  return out;
}

/** repeated Named<T> → {name: T as JSON}. */
function namedToJson(pairs: Decoded[], namedType: string): Record<string, unknown> {
  const valueType = fieldType(namedType, 'value')!;
  const out: Record<string, unknown> = {};
  for (const p of pairs) out[p.name ?? ''] = p.value === undefined ? undefined : valueToJson(p.value, valueType);
  return out;
}

/** bytes → swagger JSON. */
export function decodeOpenApiV2(bytes: Uint8Array): Record<string, unknown> {
  return messageToJson(decodeMessage(bytes, 'Document'), 'Document') as Record<string, unknown>;
}
