// Builds the swagger-2.0 "definitions" of every built-in type from the models
// of the installed @kubernetes/client-node, once per process (about 2,000 small
// file reads; see the timing test). Descriptions, required fields and types come
// from the client; patch strategies from core/patch; names from definition-names.
import { PATCH_STRATEGIES } from '../../core/patch/patch-strategies.ts';
import type { FieldStrategy } from '../../core/patch/patch-strategies.ts';
import { apiPrefixes, definitionNameIn, fixedDefinitionName, packageOfApiPrefix, QUANTITY, splitClassName } from './definition-names.ts';
import { readApiModelNames, readModel, type Model } from './model-source.ts';
import { QUANTITY_FIELDS, SPECIAL_DEFINITIONS } from './special-definitions.ts';
import { refSchema, referencedClasses, typeSchema, type Schema } from './type-schema.ts';

export type Definitions = Record<string, Schema>;

let cached: Definitions | undefined;

/** Every built-in definition; built on first use and shared afterwards (treat as read-only). */
export function builtinDefinitions(): Definitions {
  cached ??= buildDefinitions();
  return cached;
}

/**
 * Assigns each model class its definition name. The client's class names drop
 * the Go package, so a class takes the package of the first API group (core
 * first) whose served kinds reach it; classes named by rule keep that name.
 */
function assignNames(): { names: Map<string, string>; models: Map<string, Model> } {
  const names = new Map<string, string>();
  const models = new Map<string, Model>();
  const apis = readApiModelNames();
  const order = apiPrefixes();
  const apiKeys = [...apis.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  function rank(key: string): number {
    const i = order.findIndex((p) => splitClassName(`${key}X`)?.prefix === p);
    return i < 0 ? order.length : i;
  }
  for (const key of apiKeys) {
    const prefix = splitClassName(`${key}X`)?.prefix ?? '';
    const pkg = packageOfApiPrefix(prefix);
    if (!pkg) continue;
    const queue = [...(apis.get(key) ?? [])];
    while (queue.length > 0) {
      const className = queue.shift() as string;
      if (names.has(className)) continue;
      const name = fixedDefinitionName(className) ?? definitionNameIn(pkg, className);
      if (!name) continue;
      names.set(className, name);
      const model = readModel(className);
      if (!model) continue;
      models.set(className, model);
      for (const p of model.properties) queue.push(...referencedClasses(p.type));
    }
  }
  return { names, models };
}

function buildDefinitions(): Definitions {
  const { names, models } = assignNames();
  const refOf = (className: string): string | undefined => names.get(className) ?? fixedDefinitionName(className);
  const definitions: Definitions = { ...SPECIAL_DEFINITIONS };
  for (const [className, model] of models) {
    const name = names.get(className);
    if (name && !definitions[name]) definitions[name] = modelSchema(name, model, refOf);
  }
  return definitions;
}

function modelSchema(name: string, model: Model, refOf: (c: string) => string | undefined): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  const strategies = PATCH_STRATEGIES[name] ?? {};
  const quantities = new Set(QUANTITY_FIELDS[name] ?? []);
  for (const p of model.properties) {
    let schema = typeSchema(p.type, p.format, refOf);
    if (quantities.has(p.name)) schema = withQuantity(schema);
    if (p.description) schema = { description: p.description, ...schema };
    const strategy = strategies[p.name];
    if (strategy) schema = { ...schema, ...patchExtensions(strategy, schema) };
    properties[p.name] = schema;
    if (p.required) required.push(p.name);
  }
  const out: Schema = {};
  if (model.description) out.description = model.description;
  out.type = 'object';
  if (required.length > 0) out.required = required;
  out.properties = properties;
  return out;
}

function withQuantity(schema: Schema): Schema {
  if (schema.type === 'object') return { ...schema, additionalProperties: refSchema(QUANTITY) };
  return refSchema(QUANTITY);
}

/** The extensions kube publishes from patchStrategy/patchMergeKey and listType tags. */
function patchExtensions(strategy: FieldStrategy, schema: Schema): Schema {
  const ext: Schema = { 'x-kubernetes-patch-strategy': strategy.strategy };
  if (strategy.mergeKey) ext['x-kubernetes-patch-merge-key'] = strategy.mergeKey;
  if (schema.type === 'array' && strategy.strategy.includes('merge')) {
    if (strategy.mergeKey) {
      ext['x-kubernetes-list-type'] = 'map';
      ext['x-kubernetes-list-map-keys'] = strategy.listMapKeys ?? [strategy.mergeKey];
    } else {
      ext['x-kubernetes-list-type'] = 'set';
    }
  }
  return ext;
}
