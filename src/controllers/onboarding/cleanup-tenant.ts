// Phase 9: a Tenant being deleted. Everything of the tenant upstream goes:
// its namespaces (awaited until gone: their contents go with them), every
// cluster-scoped object of any resource the upstream serves that carries the
// tenant label, the tenant's name-prefixed ClusterRoles and bindings, CRDs of
// its `<id>-` groups, and its kubeconfig Secret. Resources come from the
// upstream's discovery, so kinds added later (CRDs of other platforms) are
// covered without a list here.
import { TENANT_LABEL, tenantPrefix } from '../../core/tenancy/tenant-id.ts';
import { isObject, type KubeObject } from '../../core/types.ts';
import { TENANT_GROUP } from '../../tenants/tenant-crd.ts';
import type { ObjectClient } from '../../kube/object-client.ts';
import { NAMESPACES_PATH } from './reconcile-namespaces.ts';
import { SECRETS_PATH, kubeconfigSecretName } from '../../tenants/kubeconfig-secret.ts';

interface ApiResource {
  name: string;
  namespaced: boolean;
  verbs?: string[];
}

/** Collection paths of every cluster-scoped resource that can be listed and deleted (preferred versions). */
export async function clusterScopedCollections(client: ObjectClient): Promise<string[]> {
  const versions: string[] = [];
  const core = await client.read('/api');
  for (const v of (isObject(core) && Array.isArray(core.versions) ? core.versions : []) as string[]) versions.push(`/api/${v}`);
  const apis = await client.read('/apis');
  for (const g of (isObject(apis) && Array.isArray(apis.groups) ? apis.groups : []) as { name: string; preferredVersion?: { groupVersion: string } }[]) {
    if (g.preferredVersion) versions.push(`/apis/${g.preferredVersion.groupVersion}`);
  }
  const paths: string[] = [];
  for (const base of versions) {
    let list: unknown;
    try {
      list = await client.read(base);
    } catch {
      continue; // a group version that just went away (a CRD being deleted)
    }
    const resources = (isObject(list) && Array.isArray(list.resources) ? list.resources : []) as ApiResource[];
    for (const r of resources) {
      if (r.namespaced || r.name.includes('/')) continue;
      if (!r.verbs?.includes('list') || !r.verbs.includes('delete')) continue;
      paths.push(`${base}/${r.name}`);
    }
  }
  return paths;
}

/** Is this cluster-scoped upstream object the tenant's? */
export function belongsToTenant(id: string, collectionPath: string, obj: KubeObject): boolean {
  if (obj.metadata.labels?.[TENANT_LABEL] === id) return true;
  const name = obj.metadata.name ?? '';
  const prefix = tenantPrefix(id);
  // Name prefix only where the gateway prefixes names: other resources' names
  // are not ours to interpret (an upstream ClusterRole "system-..." is not tenant "system"'s).
  if (/\/(namespaces|clusterroles|clusterrolebindings)$/.test(collectionPath)) return name.startsWith(prefix);
  if (collectionPath.endsWith('/customresourcedefinitions')) {
    const group = isObject(obj.spec) ? obj.spec.group : undefined;
    return typeof group === 'string' && group.startsWith(prefix);
  }
  return false;
}

export interface CleanupResult {
  /** Objects still there (namespaces terminating, finalizers pending). Zero means done. */
  remaining: number;
}

export async function cleanupTenant(client: ObjectClient, id: string, tenantName: string): Promise<CleanupResult> {
  let remaining = 0;
  for (const path of await clusterScopedCollections(client)) {
    // The Tenant objects themselves are the platform's, not the tenant's.
    if (path.includes(`/apis/${TENANT_GROUP}/`)) continue;
    let items: KubeObject[];
    try {
      items = await client.list(path);
    } catch {
      continue; // a resource that cannot be listed (gone meanwhile, or not really listable)
    }
    for (const obj of items) {
      if (!belongsToTenant(id, path, obj)) continue;
      remaining++;
      if (!obj.metadata.deletionTimestamp) await client.remove(`${path}/${obj.metadata.name ?? ''}`);
    }
  }
  const secret = `${SECRETS_PATH}/${kubeconfigSecretName(tenantName)}`;
  if (await client.get(secret)) {
    await client.remove(secret);
  }
  // Namespaces are listed above like any cluster-scoped resource; if discovery
  // missed them (a real upstream always serves them), look once more.
  if (remaining === 0) {
    const left = (await client.list(NAMESPACES_PATH)).filter((ns) => belongsToTenant(id, NAMESPACES_PATH, ns));
    remaining += left.length;
    for (const ns of left) if (!ns.metadata.deletionTimestamp) await client.remove(`${NAMESPACES_PATH}/${ns.metadata.name ?? ''}`);
  }
  return { remaining };
}
