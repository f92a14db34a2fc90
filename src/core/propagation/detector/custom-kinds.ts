// Which of a tenant's own custom kinds the engine must watch: those its
// policies select (resourceSelectors in the tenant's terms) for which the tenant
// has a CRD serving that version. Karmada's detector watches every resource the
// apiserver serves; here one informer per selected kind keeps an idle CRD free.
// Rows are in upstream terms: the tenant's CRD group carries its prefix.
import type { KubeObject } from '../../types.ts';
import { isCustomGroup } from '../../tenancy/resource-classes.ts';
import { splitApiVersion, toUpstreamGroup } from '../../tenancy/names.ts';
import type { ResourceSelector } from '../karmada-types.ts';

export interface CustomKind {
  /** Upstream group (`<id>-a.com`). */
  group: string;
  version: string;
  /** Plural, from the CRD. */
  resource: string;
  kind: string;
  clusterScoped: boolean;
}

interface CrdSpec {
  group?: string;
  scope?: string;
  names?: { plural?: string; kind?: string };
  versions?: Array<{ name?: string; served?: boolean }>;
}

/** The kind a CRD (as stored upstream) serves at `version`, or undefined when it does not serve it. */
export function customKindOf(crd: KubeObject, version: string): CustomKind | undefined {
  const spec = (crd.spec ?? {}) as CrdSpec;
  if (!spec.group || !spec.names?.plural || !spec.names.kind) return undefined;
  if (crd.metadata.deletionTimestamp) return undefined;
  if (!(spec.versions ?? []).some((v) => v.name === version && v.served !== false)) return undefined;
  return { group: spec.group, version, resource: spec.names.plural, kind: spec.names.kind, clusterScoped: spec.scope === 'Cluster' };
}

/** Index value of a CRD by upstream group and kind. */
export function crdKindKey(group: string, kind: string): string {
  return `${group}/${kind}`;
}

/**
 * The custom kinds a tenant's selectors name, resolved against the tenant's CRDs (upstream objects).
 * A selector of a built-in or Karmada group, or of a kind with no CRD serving that version, names none.
 */
export function selectedCustomKinds(tenantId: string, selectors: readonly ResourceSelector[], tenantCrds: readonly KubeObject[]): CustomKind[] {
  const byKey = new Map<string, KubeObject>();
  for (const crd of tenantCrds) {
    const spec = (crd.spec ?? {}) as CrdSpec;
    if (spec.group && spec.names?.kind) byKey.set(crdKindKey(spec.group, spec.names.kind), crd);
  }
  const out = new Map<string, CustomKind>();
  for (const s of selectors) {
    if (typeof s.apiVersion !== 'string' || typeof s.kind !== 'string') continue;
    const { group, version } = splitApiVersion(s.apiVersion);
    if (!isCustomGroup(group)) continue;
    const crd = byKey.get(crdKindKey(toUpstreamGroup(tenantId, group), s.kind));
    const kind = crd ? customKindOf(crd, version) : undefined;
    if (kind && !out.has(`${kind.group}/${kind.resource}`)) out.set(`${kind.group}/${kind.resource}`, kind);
  }
  return [...out.values()];
}
