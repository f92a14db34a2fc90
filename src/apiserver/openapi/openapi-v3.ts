// GET /openapi/v3 (the index) and /openapi/v3/<api/v1 | apis/g/v> (one
// OpenAPI 3.0 document per group-version). kubectl 1.27+ reads the index, then
// follows serverRelativeURL, which carries ?hash=<sha512 of the document> so
// the client may cache it forever (kube answers Cache-Control immutable there).
import { createHash } from 'node:crypto';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import { apiModel, referencedDefinitions, type ApiModel } from './api-model.ts';
import type { CrdSchema } from './crd-definitions.ts';
import { KUBE_VERSION } from './openapi-v2.ts';
import type { Schema } from './type-schema.ts';

export interface V3Document {
  /** The OpenAPI 3.0 document. */
  doc: Schema;
  /** Serialised once: send these bytes as is. */
  json: string;
  /** Upper-case hex SHA-512 of json, as kube-apiserver computes it. */
  hash: string;
}

const byModel = new WeakMap<ApiModel, Map<string, V3Document>>();

/** "apps/v1" → "apis/apps/v1"; "v1" → "api/v1": the key used in the index. */
export function v3PathOf(gv: string): string {
  return gv.includes('/') ? `apis/${gv}` : `api/${gv}`;
}

function documentsOf(model: ApiModel): Map<string, V3Document> {
  let docs = byModel.get(model);
  if (!docs) {
    docs = new Map();
    for (const gv of model.paths.keys()) {
      const doc = buildGroupVersion(model, gv);
      const json = JSON.stringify(doc);
      docs.set(v3PathOf(gv), { doc, json, hash: createHash('sha512').update(json).digest('hex').toUpperCase() });
    }
    byModel.set(model, docs);
  }
  return docs;
}

/** The index: { paths: { "apis/apps/v1": { serverRelativeURL: "/openapi/v3/apis/apps/v1?hash=..." } } }. */
export function openApiV3Index(resources: readonly ResourceDef[], crds: readonly CrdSchema[]): Schema {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const [path, d] of documentsOf(apiModel(resources, crds))) {
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${d.hash}` };
  }
  return { paths };
}

/**
 * One group-version document, by index key ("apis/apps/v1", "api/v1"); a
 * leading "/openapi/v3/" or "/" is tolerated. Undefined when not served (404).
 */
export function openApiV3GroupVersion(path: string, resources: readonly ResourceDef[], crds: readonly CrdSchema[]): V3Document | undefined {
  const key = path.replace(/^\/?(openapi\/v3\/)?/, '').replace(/\/$/, '');
  return documentsOf(apiModel(resources, crds)).get(key);
}

function buildGroupVersion(model: ApiModel, gv: string): Schema {
  const v2Paths = model.paths.get(gv) ?? {};
  const roots: unknown[] = [v2Paths, ...(model.kinds.get(gv) ?? []).map((n) => ({ $ref: `#/definitions/${n}` }))];
  const schemas: Record<string, unknown> = {};
  for (const name of [...referencedDefinitions(model.definitions, roots)].sort()) {
    const schema = model.definitions[name];
    if (schema) schemas[name] = toV3Schema(schema);
  }
  const paths: Record<string, unknown> = {};
  for (const [p, item] of Object.entries(v2Paths)) paths[p] = toV3PathItem(item);
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: KUBE_VERSION }, paths, components: { schemas } };
}

/** $ref moves to #/components/schemas; a $ref with siblings becomes allOf, as kube publishes it. */
export function toV3Schema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toV3Schema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  let ref: string | undefined;
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') ref = value.replace('#/definitions/', '#/components/schemas/');
    else if (key === 'enum' || key === 'default' || key === 'example' || key === 'x-kubernetes-group-version-kind') out[key] = value;
    else out[key] = toV3Schema(value);
  }
  if (ref === undefined) return out;
  return Object.keys(out).length === 0 ? { $ref: ref } : { allOf: [{ $ref: ref }], ...out };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function toV3PathItem(item: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(item)) {
    if (key === 'parameters') out.parameters = (value as Schema[]).map(toV3Parameter);
    else if (METHODS.includes(key)) out[key] = toV3Operation(value as Schema);
    else out[key] = value;
  }
  return out;
}

function toV3Parameter(p: Schema): Schema {
  const { type, uniqueItems, ...rest } = p;
  return { ...rest, schema: { type, uniqueItems } };
}

function toV3Operation(op: Schema): Schema {
  const { consumes, produces, schemes: _schemes, parameters, responses, ...rest } = op;
  const out: Schema = { ...rest };
  const params = (parameters as Schema[] | undefined) ?? [];
  const body = params.find((p) => p.in === 'body');
  const others = params.filter((p) => p.in !== 'body').map(toV3Parameter);
  if (others.length > 0) out.parameters = others;
  if (body) {
    const types = (consumes as string[] | undefined)?.filter((t) => t !== '*/*') ?? [];
    const content: Record<string, unknown> = {};
    for (const t of types.length > 0 ? types : ['application/json', 'application/yaml']) content[t] = { schema: toV3Schema(body.schema) };
    out.requestBody = { content, required: true };
  }
  const v3Responses: Record<string, unknown> = {};
  for (const [code, r] of Object.entries((responses as Record<string, Schema> | undefined) ?? {})) {
    const entry: Schema = { description: r.description };
    if (r.schema) {
      const content: Record<string, unknown> = {};
      for (const t of (produces as string[] | undefined) ?? ['application/json']) content[t] = { schema: toV3Schema(r.schema) };
      entry.content = content;
    }
    v3Responses[code] = entry;
  }
  out.responses = v3Responses;
  return out;
}
