// The one model both OpenAPI documents are cut from: every definition (built-in
// kinds tagged with their GVK, plus CRD kinds) and the swagger paths of each
// served group-version. Rebuilt only when the inputs change.
import { groupVersion, type ResourceDef } from '../../core/resources/resource-def.ts';
import { builtinDefinitions, type Definitions } from './builtin-definitions.ts';
import { crdDefinitions, crdListKind, type CrdSchema } from './crd-definitions.ts';
import { definitionNameOfKind } from './definition-names.ts';
import { PATH_DEFINITIONS, resourcePaths } from './resource-paths.ts';
import type { Schema } from './type-schema.ts';

export interface ApiModel {
  definitions: Definitions;
  /** Swagger paths per group-version ("v1", "apps/v1"), in first-seen order. */
  paths: Map<string, Record<string, Schema>>;
  /** Definition names of the kinds served in each group-version. */
  kinds: Map<string, string[]>;
  /** Definitions that come from CRD schemas (OpenAPI v3 dialect; v2 needs them converted). */
  fromCrds: Set<string>;
}

const GVK = 'x-kubernetes-group-version-kind';
const CRD_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

let lastKey: string | undefined;
let lastModel: ApiModel | undefined;

/** Same inputs (by value) give the same model object, so callers can cache on identity. */
export function apiModel(resources: readonly ResourceDef[], crds: readonly CrdSchema[]): ApiModel {
  const key = JSON.stringify([resources.map((r) => [r.group, r.version, r.kind, r.listKind, r.resource, r.namespaced, r.verbs]), crds]);
  if (key !== lastKey || !lastModel) {
    lastModel = buildModel(resources, crds);
    lastKey = key;
  }
  return lastModel;
}

function tagged(schema: Schema, group: string, version: string, kind: string): Schema {
  const existing = (schema[GVK] as unknown[] | undefined) ?? [];
  const entry = { group, kind, version };
  if (existing.some((e) => JSON.stringify(e) === JSON.stringify(entry))) return schema;
  return { ...schema, [GVK]: [...existing, entry] };
}

/**
 * A kind served at a version the client library has no model for (an emulated
 * release's batch/v1beta1 CronJob, ADR 0035): the model of the same kind at
 * another version of its group, which has the same fields, untagged so that
 * only the version served is listed.
 */
function borrowedSchema(definitions: Definitions, group: string, version: string, kind: string): Schema | undefined {
  const own = definitionNameOfKind(group, version, kind);
  const pkg = own.slice(0, own.length - `${version}.${kind}`.length); // "io.k8s.api.batch."
  for (const [name, schema] of Object.entries(definitions)) {
    if (name.startsWith(pkg) && name.endsWith(`.${kind}`) && !name.slice(pkg.length, -kind.length - 1).includes('.')) {
      const { [GVK]: _tags, ...untagged } = schema;
      return untagged;
    }
  }
  return undefined;
}

function buildModel(resources: readonly ResourceDef[], crds: readonly CrdSchema[]): ApiModel {
  const definitions: Definitions = { ...builtinDefinitions(), ...PATH_DEFINITIONS };
  const paths = new Map<string, Record<string, Schema>>();
  const kinds = new Map<string, string[]>();
  const fromCrds = new Set<string>();
  const add = (gv: string, definition: string, more: Record<string, Schema>): void => {
    paths.set(gv, { ...(paths.get(gv) ?? {}), ...more });
    const list = kinds.get(gv) ?? [];
    if (!list.includes(definition)) list.push(definition);
    kinds.set(gv, list);
  };

  for (const r of resources) {
    const name = definitionNameOfKind(r.group, r.version, r.kind);
    const schema = definitions[name] ?? borrowedSchema(definitions, r.group, r.version, r.kind);
    if (!schema) continue; // a kind the installed client does not know: serve it without schema
    definitions[name] = tagged(schema, r.group, r.version, r.kind);
    const listName = definitionNameOfKind(r.group, r.version, r.listKind);
    const listSchema = definitions[listName] ?? borrowedSchema(definitions, r.group, r.version, r.listKind);
    if (listSchema) definitions[listName] = tagged(listSchema, r.group, r.version, r.listKind);
    add(groupVersion(r), name, resourcePaths({ ...r, definition: name, ...(listSchema ? { listDefinition: listName } : {}) }));
  }
  for (const crd of crds) {
    const own = crdDefinitions(crd);
    Object.assign(definitions, own);
    for (const n of Object.keys(own)) fromCrds.add(n);
    const name = definitionNameOfKind(crd.group, crd.version, crd.kind);
    const listDefinition = definitionNameOfKind(crd.group, crd.version, crdListKind(crd));
    add(groupVersion(crd), name, resourcePaths({ ...crd, resource: crd.plural, verbs: CRD_VERBS, definition: name, listDefinition, custom: true }));
  }
  return { definitions, paths, kinds, fromCrds };
}

/** Names of the definitions reachable through $ref from the given roots. */
export function referencedDefinitions(definitions: Definitions, roots: Iterable<unknown>): Set<string> {
  const seen = new Set<string>();
  const stack: unknown[] = [...roots];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/definitions/')) {
          const name = value.slice('#/definitions/'.length);
          if (!seen.has(name)) {
            seen.add(name);
            stack.push(definitions[name]);
          }
        } else if (value && typeof value === 'object') stack.push(value);
      }
    }
  }
  return seen;
}
