// Discovery documents in the tenant's view: its own CRD groups unprefixed,
// other tenants' groups and groups the table does not serve removed, denied
// resources (and denied subresources) removed. Built from upstream documents.
// A group is the tenant's by its prefix (and, when the caller passes the
// tenant's CRD groups, by having a CRD), built-in by the resource table; never
// by its suffix (upstreamGroupView).
import { isObject } from '../types.ts';
import { classify, RESOURCE_CLASS_ROWS, upstreamGroupView, type UpstreamGroupView } from './resource-classes.ts';

type Obj = Record<string, unknown>;

/** Tenant spelling of an upstream group, or undefined when the group must not be shown at all. */
function visibleGroup(id: string, upstream: string, ownGroups: ReadonlySet<string> | undefined): UpstreamGroupView {
  return upstreamGroupView(id, upstream, ownGroups);
}

function resourceVisible(group: string, custom: boolean, name: string): boolean {
  const [resource = '', subresource] = name.split('/');
  const c = classify(group, resource, custom);
  if (c.class === 'tenant-custom') return true;
  if (c.class === 'denied' || c.row === undefined) return false;
  // A view has no subresources (nodes/proxy, nodes/status would be the host's).
  if (c.class === 'tenant-view') return subresource === undefined;
  return subresource === undefined || !c.row.deniedSubresources?.includes(subresource);
}

function renameGroupVersion(gv: unknown, group: string): unknown {
  return typeof gv === 'string' && gv.includes('/') ? `${group}/${gv.slice(gv.indexOf('/') + 1)}` : gv;
}

/** /apis (APIGroupList). Groups with nothing visible are dropped; upstream addresses are not shown. */
export function toTenantGroupList(id: string, doc: Obj, ownGroups?: ReadonlySet<string>): Obj {
  const groups = (Array.isArray(doc.groups) ? doc.groups : []).filter(isObject).flatMap((g) => {
    const v = visibleGroup(id, String(g.name ?? ''), ownGroups);
    if (!v) return [];
    if (!v.custom && !hasVisibleResource(v.group)) return [];
    const versions = (Array.isArray(g.versions) ? g.versions : []).filter(isObject).map((ver) => ({ ...ver, groupVersion: renameGroupVersion(ver.groupVersion, v.group) }));
    const out: Obj = { ...g, name: v.group, versions };
    if (isObject(g.preferredVersion)) out.preferredVersion = { ...g.preferredVersion, groupVersion: renameGroupVersion(g.preferredVersion.groupVersion, v.group) };
    delete out.serverAddressByClientCIDRs;
    return [out];
  });
  return { ...doc, groups };
}

// Groups with at least one resource a tenant may use: a group of only denied resources is not shown.
const KNOWN_VISIBLE = new Set(RESOURCE_CLASS_ROWS.filter((r) => r.class !== 'denied').map((r) => r.group));

function hasVisibleResource(group: string): boolean {
  return KNOWN_VISIBLE.has(group);
}

/** /api/v1 or /apis/<group>/<version> (APIResourceList); undefined when the whole group-version is hidden. */
export function toTenantResourceList(id: string, doc: Obj, ownGroups?: ReadonlySet<string>): Obj | undefined {
  const gv = String(doc.groupVersion ?? '');
  const slash = gv.indexOf('/');
  const v = slash < 0 ? { group: '', custom: false } : visibleGroup(id, gv.slice(0, slash), ownGroups);
  if (!v) return undefined;
  const resources = (Array.isArray(doc.resources) ? doc.resources : []).filter(isObject)
    .filter((r) => resourceVisible(v.group, v.custom, String(r.name ?? '')))
    .map((r) => (typeof r.group === 'string' && v.custom ? { ...r, group: v.group } : r));
  // kube never serves an empty group-version (kubectl fails "received empty response for" one):
  // a group-version of only hidden resources is hidden as a whole (e.g. authentication.k8s.io/v1
  // on a 1.20 host, which serves only the denied tokenreviews there).
  if (resources.length === 0) return undefined;
  return { ...doc, groupVersion: slash < 0 ? gv : renameGroupVersion(gv, v.group), resources };
}

/**
 * An APIGroupList (tenant spelling) without the group-versions known to hold nothing for the
 * tenant. The group list alone cannot tell (a group may serve a visible resource in one
 * version and only denied ones in another), so the caller reads each version's resource list
 * and passes the empty ones. A group left without versions is dropped; a preferred version
 * that was dropped is replaced by the first remaining one, as kube lists the preferred first.
 */
export function withoutEmptyVersions(list: Obj, emptyGroupVersions: ReadonlySet<string>): Obj {
  const groups = (Array.isArray(list.groups) ? list.groups : []).filter(isObject).flatMap((g) => {
    const versions = (Array.isArray(g.versions) ? g.versions : []).filter(isObject).filter((ver) => !emptyGroupVersions.has(String(ver.groupVersion ?? '')));
    if (versions.length === 0) return [];
    const preferred = isObject(g.preferredVersion) && versions.some((ver) => ver.groupVersion === (g.preferredVersion as Obj).groupVersion) ? g.preferredVersion : versions[0];
    return [{ ...g, versions, preferredVersion: preferred }];
  });
  return { ...list, groups };
}

/** Aggregated discovery (apidiscovery.k8s.io/v2 APIGroupDiscoveryList). */
export function toTenantAggregatedDiscovery(id: string, doc: Obj, ownGroups?: ReadonlySet<string>): Obj {
  const items = (Array.isArray(doc.items) ? doc.items : []).filter(isObject).flatMap((item) => {
    const meta = isObject(item.metadata) ? item.metadata : {};
    const name = String(meta.name ?? '');
    const v = name === '' ? { group: '', custom: false } : visibleGroup(id, name, ownGroups);
    if (!v) return [];
    const versions = (Array.isArray(item.versions) ? item.versions : []).filter(isObject).map((ver) => ({
      ...ver,
      resources: (Array.isArray(ver.resources) ? ver.resources : []).filter(isObject)
        .filter((r) => resourceVisible(v.group, v.custom, String(r.resource ?? '')))
        .map((r) => {
          const out: Obj = { ...r };
          if (isObject(r.responseKind) && v.custom) out.responseKind = { ...r.responseKind, group: v.group };
          if (Array.isArray(r.subresources)) {
            out.subresources = r.subresources.filter(isObject).filter((s) => resourceVisible(v.group, v.custom, `${String(r.resource ?? '')}/${String(s.subresource ?? '')}`))
              .map((s) => (isObject(s.responseKind) && v.custom ? { ...s, responseKind: { ...s.responseKind, group: v.group } } : s));
          }
          return out;
        }),
    })).filter((ver) => ver.resources.length > 0);
    if (versions.length === 0) return [];
    return [{ ...item, metadata: { ...meta, name: v.group }, versions }];
  });
  return { ...doc, items };
}
