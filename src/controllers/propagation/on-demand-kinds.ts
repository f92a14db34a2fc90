// Which of the tenants' own custom kinds the engine watches: for each tenant,
// the kinds its (Cluster)PropagationPolicies select and its CRDs serve. Decided
// again whenever one of the tenant's policies or CRDs changes. One informer per
// selected kind, holding only that tenant's objects of that kind; a kind no
// policy selects any more is let go (its bindings stay, as Karmada keeps what a
// deleted policy propagated, and the row stays known so they can be cleaned up).
import { selectedCustomKinds } from '../../core/propagation/detector/custom-kinds.ts';
import { crdsOfTenant, ofTenant, type EngineInformers } from './engine-informers.ts';
import { tenantViews } from './tenant-views.ts';
import { resourceId, type TemplateResource } from './template-resources.ts';

export interface CustomKinds {
  /** Starts and stops the tenant's custom-kind informers to match its policies and CRDs now. */
  refresh(tenantId: string): void;
  /** Kinds watched now, per tenant (tests, metrics). */
  watched(tenantId: string): TemplateResource[];
}

export function createCustomKinds(informers: EngineInformers): CustomKinds {
  const active = new Map<string, Map<string, TemplateResource>>();
  return {
    refresh(tenantId) {
      const tctx = { id: tenantId };
      const policies = tenantViews(tctx, [...ofTenant(informers.policies, tenantId), ...ofTenant(informers.clusterPolicies, tenantId)]);
      const selectors = policies.filter((p) => !p.metadata.deletionTimestamp).flatMap((p) => p.spec?.resourceSelectors ?? []);
      const wanted = new Map<string, TemplateResource>();
      for (const k of selectedCustomKinds(tenantId, selectors, crdsOfTenant(informers, tenantId))) {
        const row: TemplateResource = { group: k.group, version: k.version, resource: k.resource, kind: k.kind, hasStatus: false, custom: true, ...(k.clusterScoped ? { clusterScoped: true as const } : {}) };
        wanted.set(resourceId(row), row);
      }
      const current = active.get(tenantId) ?? new Map<string, TemplateResource>();
      for (const [id, row] of current) {
        const next = wanted.get(id);
        if (!next || next.version !== row.version || next.clusterScoped !== row.clusterScoped) {
          informers.unwatchTemplates(row);
          current.delete(id);
        }
      }
      for (const [id, row] of wanted) {
        if (current.has(id)) continue;
        informers.watchTemplates(row);
        current.set(id, informers.resourceById(id) ?? row);
      }
      if (current.size > 0) active.set(tenantId, current);
      else active.delete(tenantId);
    },
    watched: (tenantId) => [...(active.get(tenantId)?.values() ?? [])],
  };
}
