// openapi.v2.Responses of an operation ("200", "default", x-*) and the
// top-level ResponseDefinitions. A response is a Response or a $ref; its
// schema is a Schema, or a FileSchema when `type: file`.
import { ProtoWriter } from './proto-writer.ts';
import { FILE_SCHEMA, HEADER, JSON_REFERENCE, MAP_ENTRIES, NAMED, RESPONSE, RESPONSE_VALUE, RESPONSES, SCHEMA_ITEM } from './openapi-v2-fields.ts';
import { encodeExternalDocs, encodeSchema } from './encode-schema.ts';
import { encodeSimpleSchema } from './encode-parameter.ts';
import { anyMessage, isVendorExtension, writeVendorExtensions } from './yaml-any.ts';
import { bool, isRecord, record, sortedEntries, str, strings, type Json } from './swagger-values.ts';

const RESPONSE_CODE = /^([0-9]{3}|default)$/;

function encodeFileSchema(s: Json): ProtoWriter {
  const w = new ProtoWriter();
  w.string(FILE_SCHEMA.format, str(s, 'format'));
  w.string(FILE_SCHEMA.title, str(s, 'title'));
  w.string(FILE_SCHEMA.description, str(s, 'description'));
  if ('default' in s) w.message(FILE_SCHEMA.default, anyMessage(s.default));
  w.repeatedString(FILE_SCHEMA.required, strings(s, 'required'));
  w.string(FILE_SCHEMA.type, str(s, 'type'));
  w.bool(FILE_SCHEMA.readOnly, bool(s, 'readOnly'));
  const docs = record(s, 'externalDocs');
  if (docs) w.message(FILE_SCHEMA.externalDocs, encodeExternalDocs(docs));
  if ('example' in s) w.message(FILE_SCHEMA.example, anyMessage(s.example));
  writeVendorExtensions(w, FILE_SCHEMA.vendorExtension, s);
  return w;
}

/** Writes `{name: value}` pairs as repeated Named* messages at MAP_ENTRIES. */
function namedMap(map: Json, encode: (v: Json) => ProtoWriter): ProtoWriter {
  const w = new ProtoWriter();
  for (const [name, v] of sortedEntries(map)) {
    if (!isRecord(v)) continue;
    const pair = new ProtoWriter();
    pair.string(NAMED.name, name);
    pair.message(NAMED.value, encode(v));
    w.message(MAP_ENTRIES, pair);
  }
  return w;
}

export function encodeResponse(r: Json): ProtoWriter {
  const w = new ProtoWriter();
  w.string(RESPONSE.description, str(r, 'description'));
  const schema = record(r, 'schema');
  if (schema) {
    const item = new ProtoWriter();
    if (schema.type === 'file') item.message(SCHEMA_ITEM.fileSchema, encodeFileSchema(schema));
    else item.message(SCHEMA_ITEM.schema, encodeSchema(schema));
    w.message(RESPONSE.schema, item);
  }
  const headers = record(r, 'headers');
  if (headers) w.message(RESPONSE.headers, namedMap(headers, (h) => encodeSimpleSchema(h, HEADER)));
  const examples = record(r, 'examples');
  if (examples) {
    const ex = new ProtoWriter();
    for (const [name, v] of sortedEntries(examples)) {
      const pair = new ProtoWriter();
      pair.string(NAMED.name, name);
      pair.message(NAMED.value, anyMessage(v));
      ex.message(MAP_ENTRIES, pair);
    }
    w.message(RESPONSE.examples, ex);
  }
  writeVendorExtensions(w, RESPONSE.vendorExtension, r);
  return w;
}

function encodeResponseValue(r: Json): ProtoWriter {
  const w = new ProtoWriter();
  const ref = str(r, '$ref');
  if (ref !== undefined) {
    const jr = new ProtoWriter();
    jr.string(JSON_REFERENCE.ref, ref);
    jr.string(JSON_REFERENCE.description, str(r, 'description'));
    w.message(RESPONSE_VALUE.jsonReference, jr);
  } else {
    w.message(RESPONSE_VALUE.response, encodeResponse(r));
  }
  return w;
}

/** An operation's `responses` object. */
export function encodeResponses(responses: Json): ProtoWriter {
  const w = new ProtoWriter();
  for (const [code, r] of sortedEntries(responses, (k) => RESPONSE_CODE.test(k))) {
    if (!isRecord(r)) continue;
    const pair = new ProtoWriter();
    pair.string(NAMED.name, code);
    pair.message(NAMED.value, encodeResponseValue(r));
    w.message(RESPONSES.responseCode, pair);
  }
  writeVendorExtensions(w, RESPONSES.vendorExtension, responses);
  return w;
}

/** The document's top-level `responses` (ResponseDefinitions). */
export function encodeResponseDefinitions(map: Json): ProtoWriter {
  return namedMap(Object.fromEntries(sortedEntries(map, (k) => !isVendorExtension(k))), encodeResponse);
}
