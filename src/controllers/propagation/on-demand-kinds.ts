// Which kinds the engine watches per tenant, on demand: the cluster-scoped
// kinds a tenant's ClusterPropagationPolicies name (only those can claim a
// cluster-scoped object), and the tenant's own custom kinds that its policies
// name and its CRDs serve. Decided again whenever one of the tenant's policies
// or CRDs changes. One informer per (tenant, kind), holding only that tenant's
// objects of that kind: every tenant has its seeded ClusterRoles, and an idle
// tenant must not cost memory for them. A kind no policy names any more is let
// go (its bindings stay, as Karmada keeps what a deleted policy propagated, and
// a custom row stays known so they can be cleaned up).
import { selectedCustomKinds } from '../../core/propagation/detector/custom-kinds.ts';
import { crdsOfTenant, ofTenant, type EngineInformers } from './engine-informers.ts';
import { tenantViews } from './tenant-views.ts';
import { apiVersionOf, resourceId, TEMPLATE_RESOURCES, type TemplateResource } from './template-resources.ts';

export interface OnDemandKinds {
  /** Starts and stops the tenant's on-demand informers to match its policies and CRDs now. */
  refresh(tenantId: string): void;
  /** Kinds watched now for a tenant (tests, metrics). */
  watched(tenantId: string): TemplateResource[];
}

const CLUSTER_SCOPED = TEMPLATE_RESOURCES.filter((r) => r.clusterScoped);

export function createOnDemandKinds(informers: EngineInformers): OnDemandKinds {
  const active = new Map<string, Map<string, TemplateResource>>();
  return {
    refresh(tenantId) {
      const tctx = { id: tenantId };
      const live = <T extends { metadata: { deletionTimestamp?: string } }>(list: T[]): T[] => list.filter((p) => !p.metadata.deletionTimestamp);
      const policies = live(tenantViews(tctx, ofTenant(informers.policies, tenantId)));
      const clusterPolicies = live(tenantViews(tctx, ofTenant(informers.clusterPolicies, tenantId)));
      const clusterSelectors = clusterPolicies.flatMap((p) => p.spec?.resourceSelectors ?? []);
      const selectors = [...policies.flatMap((p) => p.spec?.resourceSelectors ?? []), ...clusterSelectors];
      const wanted = new Map<string, TemplateResource>();
      for (const r of CLUSTER_SCOPED) {
        if (clusterSelectors.some((s) => s.apiVersion === apiVersionOf(r) && s.kind === r.kind)) wanted.set(resourceId(r), r);
      }
      for (const k of selectedCustomKinds(tenantId, selectors, crdsOfTenant(informers, tenantId))) {
        const row: TemplateResource = { group: k.group, version: k.version, resource: k.resource, kind: k.kind, hasStatus: false, custom: true, ...(k.clusterScoped ? { clusterScoped: true as const } : {}) };
        wanted.set(resourceId(row), row);
      }
      const current = active.get(tenantId) ?? new Map<string, TemplateResource>();
      for (const [id, row] of current) {
        const next = wanted.get(id);
        if (!next || next.version !== row.version || next.clusterScoped !== row.clusterScoped) {
          informers.unwatchTemplates(row, tenantId);
          current.delete(id);
        }
      }
      for (const [id, row] of wanted) {
        if (current.has(id)) continue;
        informers.watchTemplates(row, tenantId);
        current.set(id, informers.resourceById(id) ?? row);
      }
      if (current.size > 0) active.set(tenantId, current);
      else active.delete(tenantId);
    },
    watched: (tenantId) => [...(active.get(tenantId)?.values() ?? [])],
  };
}
