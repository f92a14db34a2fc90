// The swagger-2.0 document as the protobuf message openapi.v2.Document: what
// kube-apiserver serves on GET /openapi/v2 for
// Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf, and what
// client-go's discovery (so kubectl apply, create -f, explain) decodes.
// Pure function of the document, so callers cache it next to the JSON.
import { ProtoWriter } from './proto-writer.ts';
import { CONTACT, DOCUMENT, INFO, LICENSE, MAP_ENTRIES, NAMED, TAG } from './openapi-v2-fields.ts';
import { encodeExternalDocs, encodeNamedSchemas } from './encode-schema.ts';
import { encodeParameter } from './encode-parameter.ts';
import { encodeResponseDefinitions } from './encode-response.ts';
import { encodePaths } from './encode-paths.ts';
import { encodeSecurityDefinitions, writeSecurityRequirements } from './encode-security.ts';
import { writeVendorExtensions } from './yaml-any.ts';
import { isRecord, record, sortedEntries, str, strings, type Json } from './swagger-values.ts';

function encodeInfo(info: Json): ProtoWriter {
  const w = new ProtoWriter();
  w.string(INFO.title, str(info, 'title'));
  w.string(INFO.version, str(info, 'version'));
  w.string(INFO.description, str(info, 'description'));
  w.string(INFO.termsOfService, str(info, 'termsOfService'));
  const contact = record(info, 'contact');
  if (contact) {
    const c = new ProtoWriter();
    c.string(CONTACT.name, str(contact, 'name'));
    c.string(CONTACT.url, str(contact, 'url'));
    c.string(CONTACT.email, str(contact, 'email'));
    writeVendorExtensions(c, CONTACT.vendorExtension, contact);
    w.message(INFO.contact, c);
  }
  const license = record(info, 'license');
  if (license) {
    const l = new ProtoWriter();
    l.string(LICENSE.name, str(license, 'name'));
    l.string(LICENSE.url, str(license, 'url'));
    writeVendorExtensions(l, LICENSE.vendorExtension, license);
    w.message(INFO.license, l);
  }
  writeVendorExtensions(w, INFO.vendorExtension, info);
  return w;
}

function encodeParameterDefinitions(map: Json): ProtoWriter {
  const w = new ProtoWriter();
  for (const [name, p] of sortedEntries(map)) {
    const param = isRecord(p) ? encodeParameter(p) : undefined;
    if (!param) continue;
    const pair = new ProtoWriter();
    pair.string(NAMED.name, name);
    pair.message(NAMED.value, param);
    w.message(MAP_ENTRIES, pair);
  }
  return w;
}

function encodeTag(tag: Json): ProtoWriter {
  const w = new ProtoWriter();
  w.string(TAG.name, str(tag, 'name'));
  w.string(TAG.description, str(tag, 'description'));
  const docs = record(tag, 'externalDocs');
  if (docs) w.message(TAG.externalDocs, encodeExternalDocs(docs));
  writeVendorExtensions(w, TAG.vendorExtension, tag);
  return w;
}

/** Serialized openapi.v2.Document of a swagger-2.0 document (JSON-shaped). */
export function encodeOpenApiV2Protobuf(swagger: Record<string, unknown>): Uint8Array {
  const w = new ProtoWriter();
  w.string(DOCUMENT.swagger, str(swagger, 'swagger'));
  const info = record(swagger, 'info');
  if (info) w.message(DOCUMENT.info, encodeInfo(info));
  w.string(DOCUMENT.host, str(swagger, 'host'));
  w.string(DOCUMENT.basePath, str(swagger, 'basePath'));
  w.repeatedString(DOCUMENT.schemes, strings(swagger, 'schemes'));
  w.repeatedString(DOCUMENT.consumes, strings(swagger, 'consumes'));
  w.repeatedString(DOCUMENT.produces, strings(swagger, 'produces'));
  const paths = record(swagger, 'paths');
  if (paths) w.message(DOCUMENT.paths, encodePaths(paths));
  const definitions = record(swagger, 'definitions');
  if (definitions) w.message(DOCUMENT.definitions, encodeNamedSchemas(definitions));
  const parameters = record(swagger, 'parameters');
  if (parameters) w.message(DOCUMENT.parameters, encodeParameterDefinitions(parameters));
  const responses = record(swagger, 'responses');
  if (responses) w.message(DOCUMENT.responses, encodeResponseDefinitions(responses));
  writeSecurityRequirements(w, DOCUMENT.security, swagger.security);
  const securityDefinitions = record(swagger, 'securityDefinitions');
  if (securityDefinitions) w.message(DOCUMENT.securityDefinitions, encodeSecurityDefinitions(securityDefinitions));
  if (Array.isArray(swagger.tags)) for (const t of swagger.tags) if (isRecord(t)) w.message(DOCUMENT.tags, encodeTag(t));
  const docs = record(swagger, 'externalDocs');
  if (docs) w.message(DOCUMENT.externalDocs, encodeExternalDocs(docs));
  writeVendorExtensions(w, DOCUMENT.vendorExtension, swagger);
  return w.finish();
}
