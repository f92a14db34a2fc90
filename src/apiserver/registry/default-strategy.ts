// The real per-kind rules, composed: built-in kinds get their defaults,
// validation and schema from validation/ and openapi/; custom resources get
// theirs from the CRD that serves them (compiled once per CRD revision).
import type { KubeObject, StatusCause } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import { definitionNameFor } from '../../core/patch/type-resolver.ts';
import type { Store } from '../store/store.ts';
import { isJsonStore } from '../store/json-store.ts';
import { applyDefaults, hasDefaults, validateCreate, validateUpdate } from '../validation/index.ts';
import { findUnknownFields } from '../openapi/index.ts';
import { applyCrdDefaults } from '../crd/crd-defaults.ts';
import { validateCrd } from '../crd/validate-crd.ts';
import { compileCustomResource, schemaForVersion, type CompiledCustomResource } from '../crd/compile-custom-resource.ts';
import { appliedNullCauses } from '../crd/applied-nulls.ts';
import type { CustomResourceDefinition } from '../crd/crd-types.ts';
import type { Strategy } from './strategy.ts';

const CRD_KEY = 'customresourcedefinitions.apiextensions.k8s.io';
const PARSED_CRD_LIMIT = 256;

function isCrdKind(def: ResourceDef): boolean {
  return def.group === 'apiextensions.k8s.io' && def.resource === 'customresourcedefinitions';
}

export function createDefaultStrategy(store: Store): Strategy {
  // A custom resource write asks for its CRD three times (normalize, unknown fields, validate): parse the
  // stored CRD (several KiB) once per stored text, not per ask. The parsed copy is only read, never handed out.
  const parsed = new Map<string, { json: string; crd: CustomResourceDefinition }>();
  const crdOf = (name: string): CustomResourceDefinition | undefined => {
    const key = { resource: CRD_KEY, namespace: '', name };
    if (!isJsonStore(store)) return store.get(key) as CustomResourceDefinition | undefined;
    const json = store.getJson(key);
    if (json === undefined) {
      parsed.delete(name);
      return undefined;
    }
    const hit = parsed.get(name);
    if (hit?.json === json) return hit.crd;
    const crd = JSON.parse(json) as CustomResourceDefinition;
    parsed.delete(name);
    parsed.set(name, { json, crd });
    // Bounded like the compiled-schema cache: many tenants' CRDs must not each keep a parsed copy here.
    if (parsed.size > PARSED_CRD_LIMIT) parsed.delete(parsed.keys().next().value ?? '');
    return crd;
  };
  const compiled = (def: ResourceDef): CompiledCustomResource | undefined => {
    const crd = crdOf(`${def.resource}.${def.group}`);
    return crd ? compileCustomResource(crd, def.version) : undefined;
  };
  const apiVersion = (def: ResourceDef): string => (def.group ? `${def.group}/${def.version}` : def.version);
  return {
    normalize(def, obj) {
      if (def.custom) {
        const schema = compiled(def);
        return schema ? schema.default(schema.prune(obj)) : obj;
      }
      if (isCrdKind(def)) return applyCrdDefaults(obj as CustomResourceDefinition);
      // Defaults are set in place, deep: copy first, unless the kind has none (a ConfigMap's copy was
      // an eighth of its update, ADR 0026). The registry hands in a top-level object of its own.
      return hasDefaults(def) ? applyDefaults(def, structuredClone(obj)) : applyDefaults(def, obj);
    },
    defaultOnRead(def, obj) {
      if (!def.custom) return obj;
      return compiled(def)?.default(obj) ?? obj;
    },
    unknownFields(def, obj) {
      if (def.custom) return compiled(def)?.unknownFields(obj) ?? [];
      return findUnknownFields(def.group, def.version, def.kind, obj);
    },
    validateApplied(def, applied) {
      if (!def.custom) return [];
      const crd = crdOf(`${def.resource}.${def.group}`);
      const schema = crd ? schemaForVersion(crd, def.version) : undefined;
      return schema ? appliedNullCauses(applied, schema) : [];
    },
    validateCreate(def, obj) {
      const causes: StatusCause[] = validateCreate(def, obj);
      if (def.custom) causes.push(...(compiled(def)?.validate(obj) ?? []));
      if (isCrdKind(def)) causes.push(...validateCrd(obj as CustomResourceDefinition));
      return causes;
    },
    validateUpdate(def, obj: KubeObject, old: KubeObject) {
      const causes: StatusCause[] = validateUpdate(def, obj, old);
      if (def.custom) causes.push(...(compiled(def)?.validate(obj, old) ?? []));
      if (isCrdKind(def)) causes.push(...validateCrd(obj as CustomResourceDefinition, old as CustomResourceDefinition));
      return causes;
    },
    typeName(def) {
      return def.custom ? undefined : definitionNameFor(apiVersion(def), def.kind);
    },
  };
}
