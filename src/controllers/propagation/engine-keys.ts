// Queue keys: "<tenant>|T|<group>/<resource>|<namespace>|<name>" for a template,
// "<tenant>|B|<namespace>|<name>" for a binding (upstream namespaces). The
// tenant comes first: the queue is sharded by it, for fairness.
import { TEMPLATE_RESOURCES, type TemplateResource } from './template-resources.ts';

export type EngineKey =
  | { type: 'template'; tenant: string; resource: TemplateResource; namespace: string; name: string }
  | { type: 'binding'; tenant: string; namespace: string; name: string };

const resourceId = (r: TemplateResource): string => `${r.group}/${r.resource}`;
const BY_ID = new Map(TEMPLATE_RESOURCES.map((r) => [resourceId(r), r]));

export function templateKey(tenant: string, resource: TemplateResource, namespace: string, name: string): string {
  return `${tenant}|T|${resourceId(resource)}|${namespace}|${name}`;
}

export function bindingKey(tenant: string, namespace: string, name: string): string {
  return `${tenant}|B|${namespace}|${name}`;
}

export function parseKey(key: string): EngineKey | undefined {
  const parts = key.split('|');
  if (parts[1] === 'T' && parts.length === 5) {
    const resource = BY_ID.get(parts[2] ?? '');
    if (!resource) return undefined;
    return { type: 'template', tenant: parts[0] ?? '', resource, namespace: parts[3] ?? '', name: parts[4] ?? '' };
  }
  if (parts[1] === 'B' && parts.length === 4) return { type: 'binding', tenant: parts[0] ?? '', namespace: parts[2] ?? '', name: parts[3] ?? '' };
  return undefined;
}

export const tenantOfKey = (key: string): string => key.slice(0, key.indexOf('|'));
