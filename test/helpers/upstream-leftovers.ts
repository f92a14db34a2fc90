// What a deleted tenant may have left on an apiserver: every object of every
// listable resource its discovery reports (kubectl api-resources --verbs=list),
// filtered by the tenant's prefix, label, id or name. Shared by the embedded
// e2e (tenant-lifecycle) and the real tier (serve-lifecycle).
import assert from 'node:assert/strict';
import type { RunResult } from '../fixtures/up/warren-up-process.ts';

const TENANT_LABEL = 'tenancy.warren.dev/tenant';

export interface Found { resource: string; namespace?: string; name: string; labels: Record<string, string>; text: string; involvedKind?: string }

type Kubectl = (args: string[], timeoutMs?: number) => Promise<RunResult>;

function ok(r: RunResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

/** Every object of every listable resource the host's discovery reports. */
export async function listEverything(host: Kubectl): Promise<{ resources: string[]; objects: Found[] }> {
  const resources = ok(await host(['api-resources', '--verbs=list', '-o', 'name']), 'api-resources').trim().split('\n');
  const objects: Found[] = [];
  for (const resource of resources) {
    const out = ok(await host(['get', resource, '-A', '-o', 'json'], 60_000), `get ${resource}`);
    // The same Event is listed twice: core/v1 names its object involvedObject, events.k8s.io regarding.
    type Item = { metadata: { name: string; namespace?: string; labels?: Record<string, string> }; involvedObject?: { kind?: string }; regarding?: { kind?: string } };
    for (const item of (JSON.parse(out) as { items: Item[] }).items) {
      objects.push({
        resource, name: item.metadata.name, labels: item.metadata.labels ?? {}, text: JSON.stringify(item),
        ...(item.metadata.namespace ? { namespace: item.metadata.namespace } : {}),
        ...(item.involvedObject?.kind ?? item.regarding?.kind ? { involvedKind: item.involvedObject?.kind ?? item.regarding?.kind } : {}),
      });
    }
  }
  return { resources, objects };
}

/**
 * What of tenant `id` (named `name`) is left: by namespace, name or API group
 * prefix, label, or mention. Events about the Tenant object itself are the
 * platform admin's record, not the tenant's objects: like any Event they outlive
 * their object until the event TTL, on a real apiserver too.
 */
export function leftovers(objects: Found[], id: string, name: string): string[] {
  const prefix = `${id}-`;
  const isEvent = (resource: string): boolean => resource === 'events' || resource === 'events.events.k8s.io';
  return objects.filter((o) => !(isEvent(o.resource) && o.involvedKind === 'Tenant')).filter((o) => o.namespace?.startsWith(prefix) || o.name.startsWith(prefix) || o.name.includes(`.${prefix}`)
    || o.labels[TENANT_LABEL] === id || o.text.includes(id) || o.text.includes(`"${name}"`))
    .map((o) => `${o.resource} ${o.namespace ?? ''}/${o.name}`);
}
