// A tenant's view of Karmada member Clusters, as pure functions: it sees
// exactly the Clusters its Tenant allows (TenantInfo.clusters), read-only, and
// nothing of the others: not in a list, a table, a watch, nor a GET (404 as if
// they did not exist). Of an allowed Cluster it sees what it needs to place
// its workloads and read why they land where they do (ADR 0043), kept by name,
// so a field Karmada adds later stays hidden until someone decides otherwise:
//  - metadata: name, labels (what a policy's clusterAffinity selects), uid,
//    resourceVersion, generation, creation and deletion times; no annotations
//    or managedFields (the last-applied annotation repeats the whole spec);
//  - spec: syncMode, provider, region, zone(s) (spread constraints and
//    affinity name them) and taints (clusterTolerations must match them); not
//    apiEndpoint, proxyURL, secretRef or TLS settings (where the platform's
//    member apiservers are and how Warren reaches them), not resourceModels;
//  - status: conditions, kubernetesVersion, apiEnablements, nodeSummary and
//    resourceSummary.allocatable (the cluster's size). Not allocated or
//    allocating, nor allocatableModelings: those are every tenant's pods on
//    the member summed, so another tenant's load could be read off them.
import { isObject } from '../../core/types.ts';

export const CLUSTER_GROUP = 'cluster.karmada.io';
export const CLUSTER_RESOURCE = 'clusters';

const SHOWN_METADATA = ['name', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'labels'];
const SHOWN_SPEC = ['syncMode', 'provider', 'region', 'zone', 'zones', 'taints'];
const SHOWN_STATUS = ['conditions', 'kubernetesVersion', 'apiEnablements', 'nodeSummary'];
const SHOWN_RESOURCE_SUMMARY = ['allocatable'];

/** The named keys of an object (a copy of each value); undefined when it is not an object. */
function keep(obj: unknown, keys: readonly string[]): Record<string, unknown> | undefined {
  if (!isObject(obj)) return undefined;
  const kept: Record<string, unknown> = {};
  for (const key of keys) if (obj[key] !== undefined) kept[key] = structuredClone(obj[key]);
  return kept;
}

export function isClusterRequest(info: { apiGroup: string; resource: string }): boolean {
  return info.apiGroup === CLUSTER_GROUP && info.resource === CLUSTER_RESOURCE;
}

/** A copy with only what a tenant sees (works on Clusters and on PartialObjectMetadata). */
export function toTenantCluster<T extends Record<string, unknown>>(obj: T): T {
  const copy: Record<string, unknown> = {};
  for (const key of ['apiVersion', 'kind'] as const) if (obj[key] !== undefined) copy[key] = obj[key];
  const metadata = keep(obj.metadata, SHOWN_METADATA);
  if (metadata) copy.metadata = metadata;
  const spec = keep(obj.spec, SHOWN_SPEC);
  if (spec) copy.spec = spec;
  const status = keep(obj.status, SHOWN_STATUS);
  if (status) {
    const summary = keep(isObject(obj.status) ? obj.status.resourceSummary : undefined, SHOWN_RESOURCE_SUMMARY);
    if (summary) status.resourceSummary = summary;
    copy.status = status;
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
