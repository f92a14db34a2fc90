// openapi.v2.Paths: every "/..." key as a NamedPathItem (sorted, as kube's
// JSON is), each PathItem with its operations, path-level parameters and
// extensions. kubectl reads these for x-kubernetes-group-version-kind and
// x-kubernetes-action, and for the PATCH operation's query parameters.
import { ProtoWriter } from './proto-writer.ts';
import { NAMED, OPERATION, PATH_ITEM, PATHS } from './openapi-v2-fields.ts';
import { encodeExternalDocs } from './encode-schema.ts';
import { writeParameters } from './encode-parameter.ts';
import { encodeResponses } from './encode-response.ts';
import { writeSecurityRequirements } from './encode-security.ts';
import { writeVendorExtensions } from './yaml-any.ts';
import { bool, isRecord, record, sortedEntries, str, strings, type Json } from './swagger-values.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

export function encodeOperation(op: Json): ProtoWriter {
  const w = new ProtoWriter();
  w.repeatedString(OPERATION.tags, strings(op, 'tags'));
  w.string(OPERATION.summary, str(op, 'summary'));
  w.string(OPERATION.description, str(op, 'description'));
  const docs = record(op, 'externalDocs');
  if (docs) w.message(OPERATION.externalDocs, encodeExternalDocs(docs));
  w.string(OPERATION.operationId, str(op, 'operationId'));
  w.repeatedString(OPERATION.produces, strings(op, 'produces'));
  w.repeatedString(OPERATION.consumes, strings(op, 'consumes'));
  writeParameters(w, OPERATION.parameters, op.parameters);
  const responses = record(op, 'responses');
  if (responses) w.message(OPERATION.responses, encodeResponses(responses));
  w.repeatedString(OPERATION.schemes, strings(op, 'schemes'));
  w.bool(OPERATION.deprecated, bool(op, 'deprecated'));
  writeSecurityRequirements(w, OPERATION.security, op.security);
  writeVendorExtensions(w, OPERATION.vendorExtension, op);
  return w;
}

export function encodePathItem(item: Json): ProtoWriter {
  const w = new ProtoWriter();
  w.string(PATH_ITEM.ref, str(item, '$ref'));
  for (const method of METHODS) {
    const op = record(item, method);
    if (op) w.message(PATH_ITEM[method], encodeOperation(op));
  }
  writeParameters(w, PATH_ITEM.parameters, item.parameters);
  writeVendorExtensions(w, PATH_ITEM.vendorExtension, item);
  return w;
}

export function encodePaths(paths: Json): ProtoWriter {
  const w = new ProtoWriter();
  writeVendorExtensions(w, PATHS.vendorExtension, paths);
  for (const [name, item] of sortedEntries(paths, (k) => k.startsWith('/'))) {
    if (!isRecord(item)) continue;
    const pair = new ProtoWriter();
    pair.string(NAMED.name, name);
    pair.message(NAMED.value, encodePathItem(item));
    w.message(PATHS.path, pair);
  }
  return w;
}
