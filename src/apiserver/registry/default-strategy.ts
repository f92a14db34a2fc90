// The real per-kind rules, composed: built-in kinds get their defaults,
// validation and schema from validation/ and openapi/; custom resources get
// theirs from the CRD that serves them (compiled once per CRD revision).
import type { KubeObject, StatusCause } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import { definitionNameFor } from '../../core/patch/type-resolver.ts';
import type { Store } from '../store/store.ts';
import { applyDefaults, validateCreate, validateUpdate } from '../validation/index.ts';
import { findUnknownFields } from '../openapi/index.ts';
import { applyCrdDefaults } from '../crd/crd-defaults.ts';
import { validateCrd } from '../crd/validate-crd.ts';
import { compileCustomResource, type CompiledCustomResource } from '../crd/compile-custom-resource.ts';
import type { CustomResourceDefinition } from '../crd/crd-types.ts';
import type { Strategy } from './strategy.ts';

const CRD_KEY = 'customresourcedefinitions.apiextensions.k8s.io';

function isCrdKind(def: ResourceDef): boolean {
  return def.group === 'apiextensions.k8s.io' && def.resource === 'customresourcedefinitions';
}

export function createDefaultStrategy(store: Store): Strategy {
  const compiled = (def: ResourceDef): CompiledCustomResource | undefined => {
    const crd = store.get({ resource: CRD_KEY, namespace: '', name: `${def.resource}.${def.group}` }) as CustomResourceDefinition | undefined;
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
      return applyDefaults(def, structuredClone(obj));
    },
    unknownFields(def, obj) {
      if (def.custom) return compiled(def)?.unknownFields(obj) ?? [];
      return findUnknownFields(def.group, def.version, def.kind, obj);
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
