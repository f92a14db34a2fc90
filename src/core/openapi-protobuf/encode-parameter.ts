// openapi.v2.ParametersItem: a $ref, or a Parameter that is either a body
// parameter (with a Schema) or one of the four non-body sub-schemas, chosen by
// `in` (gnostic tries each and keeps the one whose `in` enum matches).
// PrimitivesItems and Header share the non-body parameters' simple-schema
// fields, so one table-driven writer serves all of them.
import { ProtoWriter } from './proto-writer.ts';
import {
  BODY_PARAMETER, FORM_DATA_PARAMETER, HEADER_PARAMETER, JSON_REFERENCE, NON_BODY_PARAMETER, PARAMETER,
  PARAMETERS_ITEM, PATH_PARAMETER, PRIMITIVES_ITEMS, QUERY_PARAMETER,
} from './openapi-v2-fields.ts';
import { encodeSchema } from './encode-schema.ts';
import { anyMessage, writeVendorExtensions } from './yaml-any.ts';
import { bool, int, isRecord, num, record, str, type Json } from './swagger-values.ts';

type FieldNumbers = Readonly<Record<string, number | undefined>>;

const STRING_FIELDS = new Set(['in', 'description', 'name', 'type', 'format', 'collectionFormat', 'pattern']);
const BOOL_FIELDS = new Set(['required', 'allowEmptyValue', 'exclusiveMaximum', 'exclusiveMinimum', 'uniqueItems']);
const DOUBLE_FIELDS = new Set(['maximum', 'minimum', 'multipleOf']);
const INT_FIELDS = new Set(['maxLength', 'minLength', 'maxItems', 'minItems']);

const ordered = new WeakMap<FieldNumbers, [string, number][]>();
function inFieldOrder(numbers: FieldNumbers): [string, number][] {
  let list = ordered.get(numbers);
  if (!list) {
    list = Object.entries(numbers)
      .filter((e): e is [string, number] => typeof e[1] === 'number')
      .sort((a, b) => a[1] - b[1]);
    ordered.set(numbers, list);
  }
  return list;
}

/** Writes the simple-schema fields of `obj` that `numbers` has, in field-number order. */
export function encodeSimpleSchema(obj: Json, numbers: FieldNumbers): ProtoWriter {
  const w = new ProtoWriter();
  for (const [key, field] of inFieldOrder(numbers)) {
    if (STRING_FIELDS.has(key)) w.string(field, str(obj, key));
    else if (BOOL_FIELDS.has(key)) w.bool(field, bool(obj, key));
    else if (DOUBLE_FIELDS.has(key)) w.double(field, num(obj, key));
    else if (INT_FIELDS.has(key)) w.int64(field, int(obj, key));
    else if (key === 'default' && 'default' in obj) w.message(field, anyMessage(obj.default));
    else if (key === 'enum' && Array.isArray(obj.enum)) for (const v of obj.enum) w.message(field, anyMessage(v));
    else if (key === 'items') {
      const items = record(obj, 'items');
      if (items) w.message(field, encodeSimpleSchema(items, PRIMITIVES_ITEMS));
    } else if (key === 'vendorExtension') writeVendorExtensions(w, field, obj);
  }
  return w;
}

const NON_BODY: Record<string, [number, FieldNumbers]> = {
  header: [NON_BODY_PARAMETER.header, HEADER_PARAMETER],
  formData: [NON_BODY_PARAMETER.formData, FORM_DATA_PARAMETER],
  query: [NON_BODY_PARAMETER.query, QUERY_PARAMETER],
  path: [NON_BODY_PARAMETER.path, PATH_PARAMETER],
};

function encodeBodyParameter(p: Json): ProtoWriter {
  const w = new ProtoWriter();
  w.string(BODY_PARAMETER.description, str(p, 'description'));
  w.string(BODY_PARAMETER.name, str(p, 'name'));
  w.string(BODY_PARAMETER.in, str(p, 'in'));
  w.bool(BODY_PARAMETER.required, bool(p, 'required'));
  const schema = record(p, 'schema');
  if (schema) w.message(BODY_PARAMETER.schema, encodeSchema(schema));
  writeVendorExtensions(w, BODY_PARAMETER.vendorExtension, p);
  return w;
}

/** A Parameter message, or undefined when `in` is not one swagger 2.0 defines. */
export function encodeParameter(p: Json): ProtoWriter | undefined {
  const where = str(p, 'in') ?? '';
  const w = new ProtoWriter();
  if (where === 'body') {
    w.message(PARAMETER.bodyParameter, encodeBodyParameter(p));
    return w;
  }
  const kind = NON_BODY[where];
  if (!kind) return undefined;
  const nonBody = new ProtoWriter();
  nonBody.message(kind[0], encodeSimpleSchema(p, kind[1]));
  w.message(PARAMETER.nonBodyParameter, nonBody);
  return w;
}

/** One ParametersItem; undefined for an entry gnostic could not parse either. */
export function encodeParametersItem(p: unknown): ProtoWriter | undefined {
  if (!isRecord(p)) return undefined;
  const w = new ProtoWriter();
  const ref = str(p, '$ref');
  if (ref !== undefined) {
    const jr = new ProtoWriter();
    jr.string(JSON_REFERENCE.ref, ref);
    jr.string(JSON_REFERENCE.description, str(p, 'description'));
    w.message(PARAMETERS_ITEM.jsonReference, jr);
    return w;
  }
  const param = encodeParameter(p);
  if (!param) return undefined;
  w.message(PARAMETERS_ITEM.parameter, param);
  return w;
}

export function writeParameters(w: ProtoWriter, field: number, list: unknown): void {
  if (!Array.isArray(list)) return;
  for (const p of list) {
    const item = encodeParametersItem(p);
    if (item) w.message(field, item);
  }
}
