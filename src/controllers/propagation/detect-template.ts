// Detector and scheduler for one template: which policy claims it, where its
// replicas go, written into its ResourceBinding (in the template's namespace,
// named as Karmada names it, owned by the template so it goes with it), or for
// a cluster-scoped template its ClusterResourceBinding (claimed only by a
// ClusterPropagationPolicy, as Karmada's detector does; its name carries the
// tenant prefix upstream like every cluster-scoped tenant object).
// Scheduling runs again only when something it depends on changed: the
// placement, the replicas, a cluster that left the tenant's set, or a failover;
// and Fresh (not Steady) when spec.rescheduleTriggeredAt is past lastScheduledTime.
import type { KubeObject } from '../../core/types.ts';
import type { Cluster, Placement, ResourceBinding, ResourceBindingSpec, TargetCluster } from '../../core/propagation/karmada-types.ts';
import { CONDITION_SCHEDULED } from '../../core/propagation/karmada-types.ts';
import { bindingName } from '../../core/propagation/detector/index.ts';
import { claimOf, type Claim } from '../../core/propagation/binding/claim.ts';
import { defaultTolerations, evictions, UNCONFIRMED_RECHECK_MS } from '../../core/propagation/binding/failover.ts';
import { allowedClusters } from '../../core/propagation/tenant-clusters.ts';
import { schedule } from '../../core/propagation/scheduler/schedule.ts';
import { formatTaint } from '../../core/propagation/scheduler/taint-toleration.ts';
import { rescheduleRequired } from '../../core/propagation/scheduler/reschedule.ts';
import { replicasOf } from '../../core/propagation/workload/index.ts';
import { toTenantNamespace, toUpstreamClusterName } from '../../core/tenancy/names.ts';
import { toTenantObject } from '../../core/tenancy/object-translation.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { jsonEqual } from '../../core/json-equal.ts';
import { setCondition, rfc3339 } from '../runtime/conditions.ts';
import type { ReconcileResult } from '../runtime/workers.ts';
import { tenantById, type EngineContext } from './engine-context.ts';
import { tenantContextOf, tenantViews } from './tenant-views.ts';
import { bindingOf, ofTenant, templateOf } from './engine-informers.ts';
import { apiVersionOf, type TemplateResource } from './template-resources.ts';
import { BINDING_FINALIZER, CLUSTER_POLICY_NAME_LABEL, POLICY_NAME_LABEL, POLICY_NAMESPACE_LABEL } from './member-labels.ts';
import { ensureBindingStatus, writeBinding } from './binding-writes.ts';
import { claimWrite, ensureHeld, ensureReleased, needsHold } from './template-hold.ts';
import { noteNotPropagated } from './not-propagated.ts';
import { fromHeld } from '../../core/propagation/host-hold.ts';

export async function reconcileTemplate(ctx: EngineContext, tenantId: string, resource: TemplateResource, namespace: string, name: string): Promise<ReconcileResult | void> {
  const template = templateOf(ctx.informers, resource, tenantId, namespace, name);
  if (!template || template.metadata.deletionTimestamp) return; // its binding goes with it (ownerReference)
  const tenant = tenantById(ctx, tenantId);
  const clusterScoped = resource.clusterScoped === true;
  const tenantNamespace = clusterScoped ? '' : toTenantNamespace(tenantId, namespace);
  if (!tenant || tenantNamespace === undefined || tenant.metadata.deletionTimestamp) return;

  const tctx = tenantContextOf(ctx.informers, tenantId);
  const policies = clusterScoped ? [] : tenantViews(tctx, ofTenant(ctx.informers.policies, tenantId).filter((p) => p.metadata.namespace === namespace));
  const clusterPolicies = tenantViews(tctx, ofTenant(ctx.informers.clusterPolicies, tenantId));
  // The default placement is for workloads: cluster-scoped and custom templates need a policy that names them.
  const defaultPlacement = clusterScoped || resource.custom ? undefined : tenant.spec?.defaultPlacement as Placement | undefined;
  // Nothing can claim it (claimOf would say so): no view, which copies every label of the template,
  // for each write of a template no policy can match (ADR 0026: 10,000 labels, each 1 MB write).
  if (policies.length === 0 && clusterPolicies.length === 0 && !defaultPlacement) {
    // Workloads only (cluster-scoped and custom kinds have no held form and no NotPropagated note): their binding is named by the template's name.
    if (clusterScoped || resource.custom) return;
    return unclaimed(ctx, resource, template, bindingOf(ctx.informers, namespace, bindingName(resource.kind, name)));
  }
  // Cluster-scoped and custom templates are matched by their tenant name and apiVersion: the whole translation.
  // A held template (ADR 0023) is matched and scheduled by the tenant's values (its replicas, not the held 0).
  const view = clusterScoped || resource.custom ? toTenantObject(tctx, structuredClone(template)) : tenantView(fromHeld(template), tenantNamespace);
  if (!view) return;
  const bName = clusterScoped ? toUpstreamClusterName(tenantId, bindingName(resource.kind, view.metadata.name ?? '')) : bindingName(resource.kind, name);
  const binding = bindingOf(ctx.informers, namespace, bName);
  const claim = claimOf(view, policies, clusterPolicies, defaultPlacement);
  if (!claim) return unclaimed(ctx, resource, template, binding);
  // Held before it is bound (ADR 0023, amended session 11): the hold bumps the template's generation, and a
  // binding written before it had its Works and member copies written twice (issue 18: 1.5 member applies
  // per pair). This pass ends with the hold; its event wakes this key again, on the held copy, which the
  // binding and its executor then read. A hold with no binding yet is released if nothing claims it any more.
  if (needsHold(template)) return claimWrite(ctx, template, claim, tenantNamespace, () => ensureHeld(ctx, resource, template));

  const allClusters = [...ctx.informers.clusters.store.values()];
  const usable = allowedClusters(tenant.spec?.clusters, allClusters);
  const usableByName = new Map(usable.map((c) => [c.metadata.name ?? '', c]));
  const { replicas, replicaRequirements } = replicasOf(view);
  const previous = binding?.spec.clusters ?? [];
  const tolerations = defaultTolerations(claim.placement.clusterTolerations, ctx.settings.defaultTolerationSeconds);
  const failover = evictions(previous, usableByName, tolerations, ctx.now(), (c) => ctx.clusterHealth.confirmed(c));

  const spec: ResourceBindingSpec = {
    resource: { apiVersion: apiVersionOf(resource), kind: resource.kind, ...(clusterScoped ? {} : { namespace }), name, uid: template.metadata.uid ?? '', resourceVersion: template.metadata.resourceVersion ?? '' },
    ...claim.spec,
    ...(replicas > 0 ? { replicas } : {}),
    ...(replicaRequirements ? { replicaRequirements } : {}),
    placement: claim.placement,
    clusters: previous,
    ...(binding?.spec.gracefulEvictionTasks?.length ? { gracefulEvictionTasks: binding.spec.gracefulEvictionTasks } : {}),
    ...(binding?.spec.requiredBy?.length ? { requiredBy: binding.spec.requiredBy } : {}), // propagateDeps' (dependencies.ts)
    ...(binding?.spec.rescheduleTriggeredAt ? { rescheduleTriggeredAt: binding.spec.rescheduleTriggeredAt } : {}), // set by the tenant or a rebalancer
  };
  const fresh = rescheduleRequired(binding?.spec.rescheduleTriggeredAt, binding?.status?.lastScheduledTime);
  const why = rescheduleReason(binding, claim, replicas, previous, usableByName, failover.evict) ?? (fresh ? 'reschedule triggered' : undefined);
  // Taints this process has not confirmed are what the previous one saw (issue 14 item 10): a cluster
  // down then and up now would be filtered out. Scheduling waits the second or so until they are confirmed.
  if (why && usable.some((c) => (c.spec.taints ?? []).length > 0 && !ctx.clusterHealth.confirmed(c.metadata.name ?? ''))) {
    return { requeueAfterMs: UNCONFIRMED_RECHECK_MS };
  }
  let outcome: { ok: true; affinityName?: string } | { ok: false; reason: string; message: string } = { ok: true };
  if (why) {
    const candidates = usable.filter((c) => !failover.evict.includes(c.metadata.name ?? ''));
    const excluded = new Map(failover.evict.map((c) => [c, `cluster(s) had untolerated taint {${noExecuteTaintOf(usableByName.get(c))}}`]));
    const result = schedule({
      excluded,
      placement: claim.placement, replicas, clusters: candidates, mode: fresh ? 'Fresh' : 'Steady',
      previous: previous.filter((t) => !failover.evict.includes(t.name)),
      ...(replicaRequirements ? { replicaRequirements } : {}),
      ...(binding?.status?.schedulerObservingAffinityName ? { previousAffinityName: binding.status.schedulerObservingAffinityName } : {}),
    });
    if (result.ok) {
      spec.clusters = result.clusters;
      if (failover.evict.length > 0) spec.gracefulEvictionTasks = addEvictionTasks(spec.gracefulEvictionTasks, previous, failover.evict, ctx.now());
      outcome = { ok: true, ...(result.affinityName ? { affinityName: result.affinityName } : {}) };
    } else {
      outcome = result;
    }
  }

  const desired = bindingObject(tenantId, namespace, tenantNamespace, bName, template, claim, spec);
  const written = await claimWrite(ctx, template, claim, tenantNamespace, () => writeBinding(ctx, binding, desired));
  if (!written) return; // refused for good, said on the template
  if (why) {
    const now = ctx.now();
    await ensureBindingStatus(ctx, written, (latest) => {
      // The scheduling result is for this generation; a newer spec gets its own pass.
      if (latest.metadata.generation !== written.metadata.generation) return undefined;
      const status = { ...(latest.status ?? {}) };
      status.conditions = setCondition(status.conditions, outcome.ok
        ? { type: CONDITION_SCHEDULED, status: 'True', reason: 'Success', message: 'Binding has been scheduled successfully.' }
        : { type: CONDITION_SCHEDULED, status: 'False', reason: outcome.reason, message: outcome.message },
      { now, ...(latest.metadata.generation !== undefined ? { generation: latest.metadata.generation } : {}) });
      if (outcome.ok) {
        status.schedulerObservedGeneration = latest.metadata.generation ?? 0;
        status.lastScheduledTime = rfc3339(now);
        if (outcome.affinityName) status.schedulerObservingAffinityName = outcome.affinityName;
      }
      return status;
    });
    await ctx.events.record(written, outcome.ok ? 'Normal' : 'Warning', outcome.ok ? 'ScheduleBindingSucceed' : 'ScheduleBindingFailed',
      outcome.ok ? `Binding has been scheduled successfully. Result: {${(spec.clusters ?? []).map((c) => `${c.name}:${c.replicas ?? 0}`).join(', ')}}` : outcome.message);
    if (!outcome.ok) return { requeueAfterMs: 15_000 }; // clusters may come back or free capacity
  }
  return failover.recheckAfterMs !== undefined ? { requeueAfterMs: failover.recheckAfterMs + 50 } : undefined;
}

/** The NoExecute taint a failover eviction acted on, as Karmada prints a taint. */
function noExecuteTaintOf(cluster: Cluster | undefined): string {
  const taint = cluster?.spec.taints?.find((t) => t.effect === 'NoExecute');
  return taint ? formatTaint(taint) : 'NoExecute';
}

function rescheduleReason(binding: ResourceBinding | undefined, claim: Claim, replicas: number, previous: readonly TargetCluster[],
  usable: ReadonlyMap<string, Cluster>, evict: readonly string[]): string | undefined {
  if (!binding || previous.length === 0) return 'new';
  const scheduled = binding.status?.conditions?.find((c) => c.type === CONDITION_SCHEDULED);
  if (scheduled?.status !== 'True') return 'not scheduled yet';
  if (!jsonEqual(binding.spec.placement ?? {}, claim.placement)) return 'placement changed';
  if ((binding.spec.replicas ?? 0) !== replicas) return 'replicas changed';
  if (previous.some((t) => !usable.has(t.name))) return 'a cluster left';
  if (evict.length > 0) return 'failover';
  return undefined;
}

function addEvictionTasks(tasks: ResourceBindingSpec['gracefulEvictionTasks'], previous: readonly TargetCluster[], evict: readonly string[], now: Date): NonNullable<ResourceBindingSpec['gracefulEvictionTasks']> {
  const list = [...(tasks ?? [])];
  for (const name of evict) {
    if (list.some((t) => t.fromCluster === name)) continue;
    const replicas = previous.find((t) => t.name === name)?.replicas;
    list.push({ fromCluster: name, ...(replicas !== undefined ? { replicas } : {}), reason: 'TaintUntolerated', producer: 'TaintManager', creationTimestamp: rfc3339(now) });
  }
  return list;
}

function bindingObject(tenantId: string, namespace: string, tenantNamespace: string, name: string, template: KubeObject, claim: Claim, spec: ResourceBindingSpec): ResourceBinding {
  const labels: Record<string, string> = { [TENANT_LABEL]: tenantId };
  if (claim.source === 'PropagationPolicy' && claim.policyName) {
    labels[POLICY_NAME_LABEL] = claim.policyName;
    labels[POLICY_NAMESPACE_LABEL] = tenantNamespace;
  } else if (claim.source === 'ClusterPropagationPolicy' && claim.policyName) {
    labels[CLUSTER_POLICY_NAME_LABEL] = claim.policyName;
  }
  return {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: namespace ? 'ResourceBinding' : 'ClusterResourceBinding',
    metadata: {
      name, ...(namespace ? { namespace } : {}), labels, finalizers: [BINDING_FINALIZER],
      ownerReferences: [{ apiVersion: template.apiVersion ?? '', kind: template.kind ?? '', name: template.metadata.name ?? '', uid: template.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    spec,
  };
}

/** Just what policy matching reads, in tenant terms. */
function tenantView(template: KubeObject, tenantNamespace: string): KubeObject {
  const { [TENANT_LABEL]: _hidden, ...labels } = template.metadata.labels ?? {};
  return { ...template, metadata: { ...template.metadata, namespace: tenantNamespace, labels } };
}

/**
 * A template no policy claims. Deleting a policy leaves what it propagated as it is, as in Karmada: held while its
 * binding lives (ADR 0023), released once the binding is gone (not while it is being deleted: members may still run
 * their copies); a workload never bound says why it does not run.
 */
async function unclaimed(ctx: EngineContext, resource: TemplateResource, template: KubeObject, binding: ResourceBinding | undefined): Promise<ReconcileResult | void> {
  if (!binding) {
    await noteNotPropagated(ctx, resource, template);
    return ensureReleased(ctx, resource, template);
  }
  return binding.metadata.deletionTimestamp ? undefined : ensureHeld(ctx, resource, template);
}
