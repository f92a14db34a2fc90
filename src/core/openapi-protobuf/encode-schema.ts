// openapi.v2.Schema (and the small messages it reaches) from a swagger-2.0
// schema object, the way gnostic maps JSON keys to fields: `type` and `items`
// accept one value or a list, `additionalProperties` a schema or a boolean,
// free-form values (default, example, enum members, x-*) become Any.yaml.
// Keys the message has no field for (e.g. `nullable`, `anyOf` in a v3-shaped
// CRD schema) are dropped: the swagger builder is meant to strip them already.
import { ProtoWriter } from './proto-writer.ts';
import { ADDITIONAL_PROPERTIES_ITEM, EXTERNAL_DOCS, ITEMS_ITEM_SCHEMA, MAP_ENTRIES, NAMED, SCHEMA, TYPE_ITEM_VALUE, XML } from './openapi-v2-fields.ts';
import { anyMessage, writeVendorExtensions } from './yaml-any.ts';
import { bool, int, isRecord, num, record, sortedEntries, str, strings, type Json } from './swagger-values.ts';

export function encodeSchema(s: Json): ProtoWriter {
  const w = new ProtoWriter();
  w.string(SCHEMA.ref, str(s, '$ref'));
  w.string(SCHEMA.format, str(s, 'format'));
  w.string(SCHEMA.title, str(s, 'title'));
  w.string(SCHEMA.description, str(s, 'description'));
  if ('default' in s) w.message(SCHEMA.default, anyMessage(s.default));
  w.double(SCHEMA.multipleOf, num(s, 'multipleOf'));
  w.double(SCHEMA.maximum, num(s, 'maximum'));
  w.bool(SCHEMA.exclusiveMaximum, bool(s, 'exclusiveMaximum'));
  w.double(SCHEMA.minimum, num(s, 'minimum'));
  w.bool(SCHEMA.exclusiveMinimum, bool(s, 'exclusiveMinimum'));
  w.int64(SCHEMA.maxLength, int(s, 'maxLength'));
  w.int64(SCHEMA.minLength, int(s, 'minLength'));
  w.string(SCHEMA.pattern, str(s, 'pattern'));
  w.int64(SCHEMA.maxItems, int(s, 'maxItems'));
  w.int64(SCHEMA.minItems, int(s, 'minItems'));
  w.bool(SCHEMA.uniqueItems, bool(s, 'uniqueItems'));
  w.int64(SCHEMA.maxProperties, int(s, 'maxProperties'));
  w.int64(SCHEMA.minProperties, int(s, 'minProperties'));
  w.repeatedString(SCHEMA.required, strings(s, 'required'));
  if (Array.isArray(s.enum)) for (const v of s.enum) w.message(SCHEMA.enum, anyMessage(v));
  writeAdditionalProperties(w, s.additionalProperties);
  writeType(w, s.type);
  writeItems(w, s.items);
  if (Array.isArray(s.allOf)) for (const sub of s.allOf) if (isRecord(sub)) w.message(SCHEMA.allOf, encodeSchema(sub));
  const properties = record(s, 'properties');
  if (properties) w.message(SCHEMA.properties, encodeNamedSchemas(properties));
  w.string(SCHEMA.discriminator, str(s, 'discriminator'));
  w.bool(SCHEMA.readOnly, bool(s, 'readOnly'));
  const xml = record(s, 'xml');
  if (xml) w.message(SCHEMA.xml, encodeXml(xml));
  const docs = record(s, 'externalDocs');
  if (docs) w.message(SCHEMA.externalDocs, encodeExternalDocs(docs));
  if ('example' in s) w.message(SCHEMA.example, anyMessage(s.example));
  writeVendorExtensions(w, SCHEMA.vendorExtension, s);
  return w;
}

/** Definitions and Properties: both are `repeated NamedSchema` at field 1. */
export function encodeNamedSchemas(map: Json): ProtoWriter {
  const w = new ProtoWriter();
  for (const [name, schema] of sortedEntries(map)) {
    if (!isRecord(schema)) continue;
    const pair = new ProtoWriter();
    pair.string(NAMED.name, name);
    pair.message(NAMED.value, encodeSchema(schema));
    w.message(MAP_ENTRIES, pair);
  }
  return w;
}

export function encodeExternalDocs(d: Json): ProtoWriter {
  const w = new ProtoWriter();
  w.string(EXTERNAL_DOCS.description, str(d, 'description'));
  w.string(EXTERNAL_DOCS.url, str(d, 'url'));
  writeVendorExtensions(w, EXTERNAL_DOCS.vendorExtension, d);
  return w;
}

function encodeXml(x: Json): ProtoWriter {
  const w = new ProtoWriter();
  w.string(XML.name, str(x, 'name'));
  w.string(XML.namespace, str(x, 'namespace'));
  w.string(XML.prefix, str(x, 'prefix'));
  w.bool(XML.attribute, bool(x, 'attribute'));
  w.bool(XML.wrapped, bool(x, 'wrapped'));
  writeVendorExtensions(w, XML.vendorExtension, x);
  return w;
}

function writeAdditionalProperties(w: ProtoWriter, v: unknown): void {
  if (isRecord(v)) {
    const item = new ProtoWriter();
    item.message(ADDITIONAL_PROPERTIES_ITEM.schema, encodeSchema(v));
    w.message(SCHEMA.additionalProperties, item);
  } else if (typeof v === 'boolean') {
    // A oneof member is written even at its zero value: `false` must survive.
    const item = new ProtoWriter();
    item.oneofBool(ADDITIONAL_PROPERTIES_ITEM.boolean, v);
    w.message(SCHEMA.additionalProperties, item);
  }
}

function writeType(w: ProtoWriter, v: unknown): void {
  const names = typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : undefined;
  if (!names) return;
  const item = new ProtoWriter();
  item.repeatedString(TYPE_ITEM_VALUE, names);
  w.message(SCHEMA.type, item);
}

function writeItems(w: ProtoWriter, v: unknown): void {
  const list = isRecord(v) ? [v] : Array.isArray(v) ? v.filter(isRecord) : undefined;
  if (!list) return;
  const item = new ProtoWriter();
  for (const s of list) item.message(ITEMS_ITEM_SCHEMA, encodeSchema(s));
  w.message(SCHEMA.items, item);
}
