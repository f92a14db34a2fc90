// Discovery documents, built from the catalog on each request (they are small):
// the legacy /api and /apis forms and the aggregated form (apidiscovery.k8s.io
// v2 and v2beta1) that kubectl 1.27+ asks for first.
import { createHash } from 'node:crypto';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import type { ResourceCatalog } from '../registry/catalog.ts';

const SUBRESOURCE_VERBS: Record<string, string[]> = {
  status: ['get', 'patch', 'update'],
  scale: ['get', 'patch', 'update'],
  log: ['get'],
  exec: ['create', 'get'],
  attach: ['create', 'get'],
  portforward: ['create', 'get'],
  proxy: ['create', 'delete', 'get', 'patch', 'update'],
  token: ['create'],
  binding: ['create'],
  eviction: ['create'],
  ephemeralcontainers: ['get', 'patch', 'update'],
  finalize: ['update'],
};

function storageVersionHash(def: ResourceDef): string {
  return createHash('sha256').update(`${def.group}/${def.version}/${def.kind}`).digest('base64').slice(0, 11);
}

function subresourcesOf(def: ResourceDef): string[] {
  const subs: string[] = [];
  if (def.subresources?.status) subs.push('status');
  if (def.subresources?.scale) subs.push('scale');
  subs.push(...(def.subresources?.other ?? []));
  return subs;
}

function subresourceKind(def: ResourceDef, sub: string): { group?: string; version?: string; kind: string } {
  if (sub === 'scale') return { group: 'autoscaling', version: 'v1', kind: 'Scale' };
  if (sub === 'token') return { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' };
  if (sub === 'eviction') return { group: 'policy', version: 'v1', kind: 'Eviction' };
  if (sub === 'binding') return { kind: 'Binding' };
  if (sub === 'log' || sub === 'exec' || sub === 'attach' || sub === 'portforward' || sub === 'proxy') {
    const kinds: Record<string, string> = { log: 'Pod', exec: 'PodExecOptions', attach: 'PodAttachOptions', portforward: 'PodPortForwardOptions', proxy: `${def.kind}ProxyOptions` };
    return { kind: kinds[sub] ?? def.kind };
  }
  return { kind: def.kind };
}

export function apiVersions(serverAddress: string): object {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function groupEntry(catalog: ResourceCatalog, name: string): object | undefined {
  const info = catalog.groups().find((g) => g.name === name);
  if (!info || name === '') return undefined;
  const versions = info.versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
  return { name, versions, preferredVersion: versions[0] };
}

export function apiGroupList(catalog: ResourceCatalog): object {
  const groups = catalog.groups().filter((g) => g.name !== '').map((g) => groupEntry(catalog, g.name));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

export function apiGroup(catalog: ResourceCatalog, name: string): object | undefined {
  const entry = groupEntry(catalog, name);
  return entry ? { kind: 'APIGroup', apiVersion: 'v1', ...entry } : undefined;
}

export function apiResourceList(catalog: ResourceCatalog, group: string, version: string): object | undefined {
  const defs = catalog.resourcesIn(group, version);
  if (defs.length === 0) return undefined;
  const resources: object[] = [];
  for (const def of defs) {
    const entry: Record<string, unknown> = { name: def.resource, singularName: def.singular, namespaced: def.namespaced, kind: def.kind, verbs: def.verbs };
    if (def.shortNames) entry.shortNames = def.shortNames;
    if (def.categories) entry.categories = def.categories;
    entry.storageVersionHash = storageVersionHash(def);
    resources.push(entry);
    for (const sub of subresourcesOf(def)) {
      const kind = subresourceKind(def, sub);
      resources.push({ name: `${def.resource}/${sub}`, singularName: '', namespaced: def.namespaced, ...kind, verbs: SUBRESOURCE_VERBS[sub] ?? ['get'] });
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources };
}

/** apidiscovery.k8s.io APIGroupDiscoveryList for either /api (core) or /apis (every named group). */
export function aggregatedDiscovery(catalog: ResourceCatalog, core: boolean, apiVersion: string): object {
  const items = catalog.groups().filter((g) => (core ? g.name === '' : g.name !== '')).map((g) => ({
    metadata: g.name ? { name: g.name, creationTimestamp: null } : { creationTimestamp: null },
    versions: g.versions.map((version) => ({
      version,
      resources: catalog.resourcesIn(g.name, version).map((def) => {
        const entry: Record<string, unknown> = {
          resource: def.resource,
          responseKind: { group: def.group, version: def.version, kind: def.kind },
          scope: def.namespaced ? 'Namespaced' : 'Cluster',
          singularResource: def.singular,
          verbs: def.verbs,
        };
        if (def.shortNames) entry.shortNames = def.shortNames;
        if (def.categories) entry.categories = def.categories;
        const subs = subresourcesOf(def);
        if (subs.length > 0) {
          entry.subresources = subs.map((sub) => {
            const kind = subresourceKind(def, sub);
            return { subresource: sub, responseKind: { group: kind.group ?? '', version: kind.version ?? def.version, kind: kind.kind }, verbs: SUBRESOURCE_VERBS[sub] ?? ['get'] };
          });
        }
        return entry;
      }),
      freshness: 'Current',
    })),
  }));
  return { kind: 'APIGroupDiscoveryList', apiVersion, metadata: {}, items };
}

/** The aggregated-discovery version the client accepts, if any (v2 preferred). */
export function aggregatedDiscoveryVersion(accept: string | undefined): string | undefined {
  if (!accept) return undefined;
  for (const part of accept.split(',')) {
    if (!part.includes('as=APIGroupDiscoveryList') || !part.includes('g=apidiscovery.k8s.io')) continue;
    if (/v=v2(;|$|\s)/.test(part) || part.trim().endsWith('v=v2')) return 'v2';
    if (part.includes('v=v2beta1')) return 'v2beta1';
  }
  return undefined;
}
