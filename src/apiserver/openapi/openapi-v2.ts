// GET /openapi/v2: one swagger-2.0 document with every served path and the
// definitions they reach, as kube-apiserver serves it.
import { apiModel, referencedDefinitions, type ApiModel } from './api-model.ts';
import { toSwaggerV2Definition, type CrdSchema } from './crd-definitions.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import type { Schema } from './type-schema.ts';

export const KUBE_VERSION = 'v1.33.0';

const documents = new WeakMap<ApiModel, Schema>();

export function openApiV2(resources: readonly ResourceDef[], crds: readonly CrdSchema[]): Schema {
  const model = apiModel(resources, crds);
  let doc = documents.get(model);
  if (!doc) {
    doc = buildV2(model);
    documents.set(model, doc);
  }
  return doc;
}

function buildV2(model: ApiModel): Schema {
  const paths: Record<string, Schema> = {};
  for (const gvPaths of model.paths.values()) Object.assign(paths, gvPaths);
  const roots: unknown[] = [paths];
  for (const names of model.kinds.values()) for (const n of names) roots.push({ $ref: `#/definitions/${n}` });
  const needed = [...referencedDefinitions(model.definitions, roots)].sort();
  const definitions: Record<string, unknown> = {};
  for (const name of needed) {
    const schema = model.definitions[name];
    if (schema) definitions[name] = model.fromCrds.has(name) ? toSwaggerV2Definition(schema) : schema;
  }
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: KUBE_VERSION },
    paths,
    definitions,
    securityDefinitions: { BearerToken: { description: 'Bearer Token authentication', type: 'apiKey', name: 'authorization', in: 'header' } },
    security: [{ BearerToken: [] }],
  };
}
