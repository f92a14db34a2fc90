// A tenant's view of Karmada member Clusters, as pure functions: it sees
// exactly the Clusters its Tenant allows (TenantInfo.clusters), read-only, and
// nothing of the others: not in a list, a table, a watch, nor a GET (404 as if
// they did not exist). The credential reference is hidden: spec.secretRef (and
// the impersonator's) name a Secret in the platform's namespace, and the
// last-applied annotation and managedFields could repeat it.
import { isObject } from '../../core/types.ts';

export const CLUSTER_GROUP = 'cluster.karmada.io';
export const CLUSTER_RESOURCE = 'clusters';

const HIDDEN_SPEC = ['secretRef', 'impersonatorSecretRef', 'proxyHeader'];
const HIDDEN_ANNOTATIONS = ['kubectl.kubernetes.io/last-applied-configuration'];

export function isClusterRequest(info: { apiGroup: string; resource: string }): boolean {
  return info.apiGroup === CLUSTER_GROUP && info.resource === CLUSTER_RESOURCE;
}

/** A copy without what a tenant must not see (works on Clusters and on PartialObjectMetadata). */
export function toTenantCluster<T extends Record<string, unknown>>(obj: T): T {
  const copy = structuredClone(obj) as Record<string, unknown>;
  if (isObject(copy.spec)) for (const key of HIDDEN_SPEC) delete copy.spec[key];
  if (isObject(copy.metadata)) {
    delete copy.metadata.managedFields;
    if (isObject(copy.metadata.annotations)) {
      for (const key of HIDDEN_ANNOTATIONS) delete copy.metadata.annotations[key];
      if (Object.keys(copy.metadata.annotations).length === 0) delete copy.metadata.annotations;
    }
  }
  return copy as T;
}

function nameOf(obj: unknown): string | undefined {
  return isObject(obj) && isObject(obj.metadata) && typeof obj.metadata.name === 'string' ? obj.metadata.name : undefined;
}

export type Allowed = ReadonlySet<string>;

/**
 * A response body (object, list, PartialObjectMetadataList or Table) in the
 * tenant's view; undefined for a single object the tenant may not see.
 */
export function filterClusterBody(body: unknown, allowed: Allowed): unknown {
  if (!isObject(body)) return body;
  if (body.kind === 'Status') return body;
  if (body.kind === 'Table' && Array.isArray(body.rows)) {
    // Rows carry their object (metadata at least: the server asks for it) to filter by name.
    const rows = body.rows.filter((row) => isObject(row) && allowed.has(nameOf(row.object) ?? ''))
      .map((row) => (isObject(row) && isObject(row.object) ? { ...row, object: toTenantCluster(row.object) } : row));
    return { ...body, rows, metadata: listMeta(body.metadata) };
  }
  if (Array.isArray(body.items)) {
    const items = body.items.filter((item) => allowed.has(nameOf(item) ?? '')).map((item) => (isObject(item) ? toTenantCluster(item) : item));
    return { ...body, items, metadata: listMeta(body.metadata) };
  }
  const name = nameOf(body);
  if (name === undefined) return body;
  return allowed.has(name) ? toTenantCluster(body) : undefined;
}

/** remainingItemCount would count the Clusters the tenant may not see. */
function listMeta(meta: unknown): unknown {
  if (!isObject(meta)) return meta;
  const { remainingItemCount: _hidden, ...rest } = meta;
  return rest;
}

/**
 * One watch event in the tenant's view: undefined to drop it. BOOKMARK and
 * ERROR events carry no Cluster and pass; a Table event keeps only allowed rows.
 */
export function filterClusterEvent(event: unknown, allowed: Allowed): unknown {
  if (!isObject(event) || !isObject(event.object)) return event;
  if (event.type === 'BOOKMARK' || event.type === 'ERROR') return event;
  const object = filterClusterBody(event.object, allowed);
  if (object === undefined) return undefined;
  if (isObject(object) && object.kind === 'Table' && Array.isArray(object.rows) && object.rows.length === 0) return undefined;
  return { ...event, object };
}
