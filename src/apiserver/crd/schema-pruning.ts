// Structural pruning: fields the schema does not specify are dropped, unless a
// level says x-kubernetes-preserve-unknown-fields. At the resource root and in
// embedded resources, apiVersion, kind and metadata are always kept (metadata
// is ObjectMeta, handled by the registry). Returns the dropped paths, which
// are the "unknown field" warnings / strict-validation errors.
import { isObject } from '../../core/types.ts';
import type { JSONSchemaProps } from './crd-types.ts';

const RESOURCE_META = new Set(['apiVersion', 'kind', 'metadata']);

export function pruneUnknown(x: unknown, s: JSONSchemaProps, isResourceRoot = true): string[] {
  const dropped: string[] = [];
  walk(x, s, '', isResourceRoot, dropped);
  return dropped.sort();
}

function walk(x: unknown, s: JSONSchemaProps | undefined, path: string, isResource: boolean, dropped: string[]): void {
  if (!s) return;
  if (Array.isArray(x)) {
    const items = s.items && !Array.isArray(s.items) ? s.items : undefined;
    x.forEach((item, i) => walk(item, items, `${path}[${i}]`, items?.['x-kubernetes-embedded-resource'] === true, dropped));
    return;
  }
  if (!isObject(x)) return;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  for (const [k, v] of Object.entries(x)) {
    const childPath = path ? `${path}.${k}` : k;
    if (isResource && RESOURCE_META.has(k) && !s.properties?.[k]) continue;
    if (isResource && k === 'metadata') continue;
    const prop = s.properties?.[k];
    const sub = prop ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    if (sub) {
      walk(v, sub, childPath, sub['x-kubernetes-embedded-resource'] === true, dropped);
    } else if (!preserve && s.additionalProperties !== true) {
      delete x[k];
      dropped.push(childPath);
    }
  }
}
