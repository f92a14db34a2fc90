// The manifest one member gets, and the Work that records it. From the
// template as the tenant wrote it: server-set fields pruned (a member sets its
// own), the cluster's share of replicas, then the overrides for that cluster.
// The Work holds the manifest in the tenant's terms, which is what the tenant
// sees with `kubectl get work -o yaml`; memberManifest() puts it in the
// member's terms (the tenant prefix) with the engine's ownership marks.
import type { KubeObject } from '../../types.ts';
import type { TenantContext } from '../../tenancy/tenant-context.ts';
import { toTenantObject, toUpstreamObject } from '../../tenancy/object-translation.ts';
import type { Cluster, OverridePolicy, TargetCluster, Work } from '../karmada-types.ts';
import { applyOverrides, type AppliedPolicy } from '../override/index.ts';
import { reviseReplicas } from '../workload/index.ts';
import { RESOURCE_TEMPLATE_GENERATION_ANNOTATION } from '../status/reflect-status.ts';
import { withoutEngineKeys } from '../marks.ts';
import { TENANT_LABEL } from '../../tenancy/tenant-id.ts';
import { templates } from '../../tenancy/kind-converters.ts';
import { mapTemplateLabels } from '../../tenancy/tenant-label.ts';

const SERVER_FIELDS = ['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'managedFields', 'ownerReferences', 'selfLink', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'finalizers'] as const;
const DROPPED_ANNOTATIONS = ['kubectl.kubernetes.io/last-applied-configuration', 'deployment.kubernetes.io/revision'];

/** Upstream template → the tenant's manifest, without what the server or another cluster set. */
export function pruneTemplate(ctx: TenantContext, upstreamTemplate: KubeObject): KubeObject | undefined {
  const view = toTenantObject(ctx, structuredClone(upstreamTemplate));
  if (!view) return undefined;
  const meta = view.metadata;
  const generation = meta.generation;
  for (const field of SERVER_FIELDS) delete meta[field];
  if (meta.annotations) {
    for (const key of [...DROPPED_ANNOTATIONS, RESOURCE_TEMPLATE_GENERATION_ANNOTATION]) delete meta.annotations[key];
  }
  // Karmada's binding controller stamps the template's generation on what it applies; the member's status
  // reflects it back, and the template's observedGeneration advances only once every member has
  // observed this generation (aggregate-replicas.ts). Without it `kubectl rollout status` never finished.
  // The engine's value, never the tenant's: a template cannot claim a generation it is not at.
  if (typeof generation === 'number' && generation > 0) meta.annotations = { ...meta.annotations, [RESOURCE_TEMPLATE_GENERATION_ANNOTATION]: String(generation) };
  if (meta.annotations && Object.keys(meta.annotations).length === 0) delete meta.annotations;
  delete view.status;
  pruneKind(view);
  return view;
}

// Fields one cluster allocates that would be wrong, or refused, on another (Karmada's prune).
function pruneKind(obj: KubeObject): void {
  const spec = obj.spec as Record<string, unknown> | undefined;
  if (!spec) return;
  if (obj.apiVersion === 'v1' && obj.kind === 'Service' && spec.clusterIP !== 'None') {
    delete spec.clusterIP;
    delete spec.clusterIPs;
  }
  if (obj.apiVersion === 'batch/v1' && obj.kind === 'Job' && spec.manualSelector !== true) {
    delete spec.selector;
    const template = spec.template as { metadata?: { labels?: Record<string, string> } } | undefined;
    const labels = template?.metadata?.labels;
    if (labels) for (const key of ['controller-uid', 'batch.kubernetes.io/controller-uid', 'job-name', 'batch.kubernetes.io/job-name']) delete labels[key];
  }
  if (obj.apiVersion === 'v1' && obj.kind === 'PersistentVolumeClaim') delete spec.volumeName;
}

export interface ClusterManifest {
  manifest: KubeObject;
  applied: AppliedPolicy[];
}

/** Throws ApiError when an override cannot apply (the binding shows it for that cluster). */
export function manifestFor(pruned: KubeObject, target: TargetCluster, cluster: Cluster, divided: boolean,
  overridePolicies: readonly OverridePolicy[], clusterOverridePolicies: readonly OverridePolicy[]): ClusterManifest {
  const sized = divided && target.replicas !== undefined ? reviseReplicas(pruned, target.replicas) : structuredClone(pruned);
  return applyOverrides(sized, cluster, overridePolicies, clusterOverridePolicies);
}

export interface WorkMarks {
  tenantLabel: Record<string, string>;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export function buildWork(name: string, upstreamNamespace: string, manifest: KubeObject, marks: WorkMarks, options: { suspendDispatching: boolean; preserveResourcesOnDeletion: boolean }): Work {
  return {
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    metadata: { name, namespace: upstreamNamespace, labels: { ...marks.tenantLabel, ...marks.labels }, annotations: { ...marks.annotations } },
    spec: {
      workload: { manifests: [manifest] },
      ...(options.suspendDispatching ? { suspendDispatching: true } : {}),
      ...(options.preserveResourcesOnDeletion ? { preserveResourcesOnDeletion: true } : {}),
    },
  };
}

/**
 * The Work's manifest in the member's terms, marked as the engine's: whatever the template or an override put
 * under the engine's keys goes (marks.ts), the marks are the only values there (issue 13: a template carrying
 * another binding's permanent id or Work name steers nothing).
 */
export function memberManifest(ctx: TenantContext, manifest: KubeObject, marks: Omit<WorkMarks, 'tenantLabel'>): KubeObject {
  const obj = toUpstreamObject(ctx, structuredClone(manifest));
  obj.metadata.labels = { ...withoutEngineKeys(obj.metadata.labels), [TENANT_LABEL]: ctx.id, ...marks.labels };
  obj.metadata.annotations = { ...withoutEngineKeys(obj.metadata.annotations), ...marks.annotations };
  // Pod (and job, claim) templates: their labels go on every pod a member's controllers make from them, on a
  // member other tenants share. Nothing under an engine key but the tenant label the translation forced (ctx.id):
  // a forged permanent id or managed mark on A's pods would route them to B's binding in the engine's informers.
  for (const template of templates(obj)) {
    mapTemplateLabels(template, (labels) => (labels === undefined ? undefined : { ...withoutEngineKeys(labels), ...(labels[TENANT_LABEL] === ctx.id ? { [TENANT_LABEL]: ctx.id } : {}) }));
  }
  return obj;
}
