// Queue keys: "<tenant>|T|<group>/<resource>|<namespace>|<name>" for a template,
// "<tenant>|B|<namespace>|<name>" for a binding (upstream namespaces; an empty
// namespace for a cluster-scoped template and its ClusterResourceBinding). The
// tenant comes first: the queue is sharded by it, for fairness.
import { resourceId, TEMPLATE_RESOURCES, type TemplateResource } from './template-resources.ts';

export type EngineKey =
  | { type: 'template'; tenant: string; resource: TemplateResource; namespace: string; name: string }
  | { type: 'binding'; tenant: string; namespace: string; name: string };

const BY_ID = new Map(TEMPLATE_RESOURCES.map((r) => [resourceId(r), r]));
const builtin = (id: string): TemplateResource | undefined => BY_ID.get(id);

export function templateKey(tenant: string, resource: TemplateResource, namespace: string, name: string): string {
  return `${tenant}|T|${resourceId(resource)}|${namespace}|${name}`;
}

export function bindingKey(tenant: string, namespace: string, name: string): string {
  return `${tenant}|B|${namespace}|${name}`;
}

/** `resourceById` resolves the row of a template key: the built-in rows by default, the engine's lookup adds custom kinds. */
export function parseKey(key: string, resourceById: (id: string) => TemplateResource | undefined = builtin): EngineKey | undefined {
  const parts = key.split('|');
  if (parts[1] === 'T' && parts.length === 5) {
    const resource = resourceById(parts[2] ?? '');
    if (!resource) return undefined;
    return { type: 'template', tenant: parts[0] ?? '', resource, namespace: parts[3] ?? '', name: parts[4] ?? '' };
  }
  if (parts[1] === 'B' && parts.length === 4) return { type: 'binding', tenant: parts[0] ?? '', namespace: parts[2] ?? '', name: parts[3] ?? '' };
  return undefined;
}

export const tenantOfKey = (key: string): string => key.slice(0, key.indexOf('|'));
