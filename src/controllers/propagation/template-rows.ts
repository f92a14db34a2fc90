// The engine's lookup of template rows: the built-in rows, and the tenants'
// custom kinds made from their CRDs on first use (one small row per CRD kind,
// kept for the life of the engine so a binding whose policy has gone can still
// be cleaned up). The CRDs come from a slim view of them: what names a kind.
import type { KubeObject } from '../../core/types.ts';
import { crdKindKey, customKindOf } from '../../core/propagation/detector/custom-kinds.ts';
import { splitApiVersion } from '../../core/tenancy/names.ts';
import { apiVersionOf, resourceId, TEMPLATE_RESOURCES, templateResourceOf, type TemplateResource } from './template-resources.ts';

export const CRD_KIND_INDEX = 'crd-kind';

/** Index of the CRD view by upstream group and kind. */
export function crdKindIndex(crd: KubeObject): string[] {
  const spec = crd.spec as { group?: string; names?: { kind?: string } } | undefined;
  return spec?.group && spec.names?.kind ? [crdKindKey(spec.group, spec.names.kind)] : [];
}

/** What the engine keeps of a CRD to know the custom kinds: ~300 bytes, not its schema. */
export function slimCrd(crd: KubeObject): KubeObject {
  const spec = (crd.spec ?? {}) as { group?: string; scope?: string; names?: { plural?: string; kind?: string }; versions?: Array<{ name?: string; served?: boolean }> };
  const { name, uid, resourceVersion, deletionTimestamp, labels } = crd.metadata;
  return {
    ...(crd.apiVersion ? { apiVersion: crd.apiVersion } : {}),
    ...(crd.kind ? { kind: crd.kind } : {}),
    metadata: { name, ...(uid ? { uid } : {}), ...(resourceVersion ? { resourceVersion } : {}), ...(deletionTimestamp ? { deletionTimestamp } : {}), ...(labels ? { labels } : {}) },
    spec: {
      group: spec.group, scope: spec.scope,
      names: { plural: spec.names?.plural, kind: spec.names?.kind },
      versions: (spec.versions ?? []).map((v) => ({ name: v.name, served: v.served })),
    },
  };
}

export interface TemplateRows {
  /** The row of a kind (upstream apiVersion): built in, or a tenant's custom kind, from its CRD. */
  resourceOf(apiVersion: string, kind: string): TemplateResource | undefined;
  /** The row named in a queue key (resourceId). */
  resourceById(id: string): TemplateResource | undefined;
  /** The one row object for a custom kind (rows are Map keys: the same kind must be the same object). */
  register(row: TemplateResource): TemplateResource;
  /** The registered custom row with this id, if any. */
  custom(id: string): TemplateResource | undefined;
}

export function createTemplateRows(crdsOfKind: (group: string, kind: string) => KubeObject[]): TemplateRows {
  const customById = new Map<string, TemplateResource>();
  const customByKind = new Map<string, TemplateResource>();
  const builtinById = new Map(TEMPLATE_RESOURCES.map((r) => [resourceId(r), r]));
  function register(row: TemplateResource): TemplateResource {
    const known = customById.get(resourceId(row));
    if (known && known.version === row.version && known.kind === row.kind && known.clusterScoped === row.clusterScoped) return known;
    // A CRD that changed scope or served version makes a new row; the old one's informers are stopped by unwatch.
    customById.set(resourceId(row), row);
    customByKind.set(`${apiVersionOf(row)}/${row.kind}`, row);
    return row;
  }
  return {
    register,
    custom: (id) => customById.get(id),
    resourceById: (id) => builtinById.get(id) ?? customById.get(id),
    resourceOf(apiVersion, kind) {
      const known = templateResourceOf(apiVersion, kind) ?? customByKind.get(`${apiVersion}/${kind}`);
      if (known) return known;
      const { group, version } = splitApiVersion(apiVersion);
      for (const crd of crdsOfKind(group, kind)) {
        const found = customKindOf(crd, version);
        if (found) return register({ group: found.group, version: found.version, resource: found.resource, kind: found.kind, hasStatus: false, custom: true, ...(found.clusterScoped ? { clusterScoped: true as const } : {}) });
      }
      return undefined;
    },
  };
}
