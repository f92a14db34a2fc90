// What one executor pass over a binding works from, read once before any
// cluster is touched: the template as the tenant wrote it (pruned), the
// clusters it goes to (allowed by the Tenant now, whatever spec.clusters says),
// those being evicted, suspension, overrides, and the marks every Work and
// member copy of this binding carries. Pure reads of the informers' stores.
import type { KubeObject } from '../../core/types.ts';
import type { Cluster, OverridePolicy, ResourceBinding, TargetCluster } from '../../core/propagation/karmada-types.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import type { Tenant } from '../../tenants/tenant-crd.ts';
import type { MemberAddress } from '../../core/propagation/trust/binding-trust.ts';
import { pruneTemplate } from '../../core/propagation/binding/build-work.ts';
import { toTenantNamespace } from '../../core/tenancy/names.ts';
import { splitTargets } from '../../core/propagation/trust/allowed-targets.ts';
import { resolveTenantClusters } from '../../core/propagation/tenant-clusters.ts';
import { tenantById, type EngineContext } from './engine-context.ts';
import { tenantContextOf, tenantViews } from './tenant-views.ts';
import { ofTenant, templateOf } from './engine-informers.ts';
import { clustersToPropagate } from './dependencies.ts';
import { BINDING_NAME_ANNOTATION, BINDING_NAMESPACE_ANNOTATION, CLUSTER_BINDING_NAME_ANNOTATION, CLUSTER_PERMANENT_ID_LABEL, MANAGED_LABEL, PERMANENT_ID_LABEL } from './member-labels.ts';
import type { TemplateResource } from './template-resources.ts';

/** The marks on every Work and member copy of a binding. */
export interface BindingMarks {
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface BindingPlan {
  binding: ResourceBinding;
  resource: TemplateResource;
  tenantId: string;
  tenant: Tenant;
  tctx: TenantContext;
  /** Upstream namespace of the binding ('' for a ClusterResourceBinding). */
  namespace: string;
  /** The binding's uid: its Works' creator mark and its copies' permanent id. */
  uid: string;
  /** Where the copy lives on every member (upstream terms). */
  address: MemberAddress;
  /** The Work's name in every execution space (Work names are not prefixed). */
  workName: string;
  /** The template, as read from the informer (its status is written back). */
  template: KubeObject;
  /** The tenant's manifest before per-cluster replicas and overrides. */
  pruned: KubeObject;
  clusters: ReadonlyMap<string, Cluster>;
  /** Scheduled clusters the Tenant allows, and those it does not (refused, not applied). */
  targets: TargetCluster[];
  refused: TargetCluster[];
  /** Clusters being evicted by failover: they keep their copy until the new ones are healthy. */
  evicting: TargetCluster[];
  suspendedEverywhere: boolean;
  suspendedOn: ReadonlySet<string>;
  divided: boolean;
  overrides: OverridePolicy[];
  clusterOverrides: OverridePolicy[];
  marks: BindingMarks;
}

export interface PlanInput {
  binding: ResourceBinding;
  resource: TemplateResource;
  tenantId: string;
  address: MemberAddress;
  workName: string;
  clusters: ReadonlyMap<string, Cluster>;
}

/** The plan, or undefined when there is nothing to apply from (template, tenant or its view gone). */
export function planBinding(ctx: EngineContext, input: PlanInput): BindingPlan | undefined {
  const { binding, resource, tenantId, clusters } = input;
  const namespace = binding.metadata.namespace ?? '';
  const name = binding.metadata.name ?? '';
  const uid = binding.metadata.uid ?? '';
  const template = templateOf(ctx.informers, resource, tenantId, namespace, binding.spec.resource.name);
  const tenant = tenantById(ctx, tenantId);
  const tenantNamespace = namespace ? toTenantNamespace(tenantId, namespace) : '';
  if (!template || !tenant || tenantNamespace === undefined) return undefined;
  const tctx = tenantContextOf(ctx.informers, tenantId);
  const pruned = pruneTemplate(tctx, template);
  if (!pruned) return undefined;

  // Applied only where the Tenant allows now, whatever spec.clusters says (checked here, not only when scheduling).
  const allowedNames = new Set(resolveTenantClusters(tenant.spec?.clusters, [...clusters.values()]));
  const { allowed: targets, refused } = splitTargets(clustersToPropagate(binding.spec), allowedNames);
  const evicting: TargetCluster[] = (binding.spec.gracefulEvictionTasks ?? [])
    .filter((t) => !targets.some((c) => c.name === t.fromCluster))
    .map((t) => ({ name: t.fromCluster, ...(t.replicas !== undefined ? { replicas: t.replicas } : {}) }));
  const suspension = binding.spec.suspension;
  const marks = bindingMarks({ namespace, name, uid, tenantNamespace });
  return {
    binding, resource, tenantId, tenant, tctx, namespace, uid, address: input.address, workName: input.workName, template, pruned, clusters,
    targets, refused, evicting,
    suspendedEverywhere: tenant.spec?.suspended === true || suspension?.dispatching === true,
    suspendedOn: new Set(suspension?.dispatchingOnClusters?.clusterNames ?? []),
    divided: binding.spec.placement?.replicaScheduling?.replicaSchedulingType === 'Divided',
    overrides: tenantViews(tctx, ofTenant(ctx.informers.overrides, tenantId).filter((p) => p.metadata.namespace === namespace)),
    clusterOverrides: tenantViews(tctx, ofTenant(ctx.informers.clusterOverrides, tenantId)),
    marks,
  };
}

/**
 * The marks on every Work and member copy of a binding: the engine's values alone (memberManifest puts them over
 * whatever the template says under these keys). Pure, so the steering property test reads the engine's own.
 */
export function bindingMarks(of: { namespace: string; name: string; uid: string; tenantNamespace: string }): BindingMarks {
  // A ClusterResourceBinding's marks also carry Karmada's clusterresourcebinding keys; the engine routes by PERMANENT_ID_LABEL.
  return of.namespace ? {
    labels: { [MANAGED_LABEL]: 'true', [PERMANENT_ID_LABEL]: of.uid },
    annotations: { [BINDING_NAME_ANNOTATION]: of.name, [BINDING_NAMESPACE_ANNOTATION]: of.tenantNamespace },
  } : {
    labels: { [MANAGED_LABEL]: 'true', [PERMANENT_ID_LABEL]: of.uid, [CLUSTER_PERMANENT_ID_LABEL]: of.uid },
    annotations: { [CLUSTER_BINDING_NAME_ANNOTATION]: of.name },
  };
}

/** Is dispatching to this cluster suspended (the Tenant, the binding, or the binding for this cluster)? */
export function suspendedFor(plan: BindingPlan, cluster: string): boolean {
  return plan.suspendedEverywhere || plan.suspendedOn.has(cluster);
}
