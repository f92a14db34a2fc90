// Forward/inverse pairs for every name the tenant prefix touches. Each
// `toUpstreamX` has a `toTenantX` that undoes it and answers undefined for a
// value that is not this tenant's, so callers can hide foreign objects instead
// of showing another tenant's id.
import { addPrefix, stripPrefix } from './tenant-id.ts';

/** Tenant namespace `N` → upstream `<id>-N`. */
export function toUpstreamNamespace(id: string, namespace: string): string {
  return addPrefix(id, namespace);
}

export function toTenantNamespace(id: string, upstream: string): string | undefined {
  return stripPrefix(id, upstream);
}

/** Name of a tenant-owned cluster-scoped object (Namespace, ClusterRole, CRD's objects...). */
export function toUpstreamClusterName(id: string, name: string): string {
  return addPrefix(id, name);
}

export function toTenantClusterName(id: string, upstream: string): string | undefined {
  return stripPrefix(id, upstream);
}

/** A tenant CRD group: `a.com` → `<id>-a.com`. */
export function toUpstreamGroup(id: string, group: string): string {
  return addPrefix(id, group);
}

export function toTenantGroup(id: string, upstream: string): string | undefined {
  return stripPrefix(id, upstream);
}

/**
 * CRD object name `<plural>.<group>` → `<plural>.<id>-<group>`. The plural is a
 * DNS label (no dots), so the first dot always splits plural from group.
 */
export function toUpstreamCrdName(id: string, name: string): string {
  const dot = name.indexOf('.');
  if (dot <= 0) return addPrefix(id, name); // not a valid CRD name; keep it ours, upstream will refuse it
  return `${name.slice(0, dot)}.${toUpstreamGroup(id, name.slice(dot + 1))}`;
}

export function toTenantCrdName(id: string, upstream: string): string | undefined {
  const dot = upstream.indexOf('.');
  if (dot <= 0) return stripPrefix(id, upstream);
  const group = toTenantGroup(id, upstream.slice(dot + 1));
  return group === undefined ? undefined : `${upstream.slice(0, dot)}.${group}`;
}

/** `a.com/v1` → `<id>-a.com/v1`; the caller decides whether the group is a tenant CRD group. */
export function toUpstreamApiVersion(id: string, apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return apiVersion; // core group: never prefixed
  return `${toUpstreamGroup(id, apiVersion.slice(0, slash))}${apiVersion.slice(slash)}`;
}

export function toTenantApiVersion(id: string, upstream: string): string | undefined {
  const slash = upstream.indexOf('/');
  if (slash < 0) return undefined;
  const group = toTenantGroup(id, upstream.slice(0, slash));
  return group === undefined ? undefined : `${group}${upstream.slice(slash)}`;
}

/** Splits `group/version` (or `v1`) into its group ('' for core) and version. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
