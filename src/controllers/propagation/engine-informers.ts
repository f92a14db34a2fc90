// Everything the engine reads, kept in informers over the upstream: the
// tenants' templates (by kind), their Karmada policies and bindings, the
// registered member Clusters and the Tenants. Each informer reports changes to
// `onChange`, which decides which keys to queue; reconcilers only read stores.
// Namespaced built-in kinds are watched from the start, across tenants.
// Cluster-scoped kinds (every tenant has its seeded ClusterRoles) and a tenant's
// custom kinds are watched per tenant, only while one of its policies selects
// them (on-demand-kinds.ts: watchTemplates / unwatchTemplates), so an idle
// tenant costs nothing there; a slim view of the tenants' CRDs says which
// custom kinds exist and their scope.
//
// Discovery decides which built-in template kinds are watched (ADR 0024): a kind
// the upstream does not serve (batch/v1 CronJob on Kubernetes 1.20) is skipped
// and reported once, at warn, and watched as soon as discovery lists it; it never
// holds back synced(), so one missing kind cannot stop the controllers or /readyz.
import type { KubeObject } from '../../core/types.ts';
import type { Cluster, OverridePolicy, PropagationPolicy, ResourceBinding, Work } from '../../core/propagation/karmada-types.ts';
import { workView, type WorkView } from './work-view.ts';
import { bindingView } from './binding-view.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { objectKey, startInformer, type Informer, type InformerEventType } from '../../kube/informer.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { watchServedResources } from '../../kube/served-resources.ts';
import type { Tenant } from '../../tenants/tenant-crd.ts';
import { TENANTS_PATH } from '../../tenants/tenant-crd.ts';
import { PERMANENT_ID_LABEL } from './member-labels.ts';
import { crdKindKey } from '../../core/propagation/detector/custom-kinds.ts';
import { allNamespacesPath, apiVersionOf, CRD_RESOURCE, otherVersionOf, resourceId, storeKey, TEMPLATE_RESOURCES, type TemplateResource } from './template-resources.ts';
import { CRD_KIND_INDEX, crdKindIndex, createTemplateRows, slimCrd } from './template-rows.ts';
import { levelled } from '../../observability/log-line.ts';

export type WatchedKind = 'template' | 'policy' | 'clusterPolicy' | 'override' | 'clusterOverride' | 'binding' | 'work' | 'cluster' | 'tenant' | 'crd';

export interface ChangeEvent {
  kind: WatchedKind;
  type: InformerEventType;
  obj: KubeObject;
  old: KubeObject | undefined;
  /** For templates: which resource. */
  resource?: TemplateResource;
}

export interface EngineInformers {
  /** Namespaced built-in kinds, all tenants. */
  templates: Map<TemplateResource, Informer<KubeObject>>;
  /** On-demand kinds (cluster-scoped, custom), per tenant: only that tenant's objects. */
  tenantTemplates: Map<string, Map<TemplateResource, Informer<KubeObject>>>;
  /** The tenants' CRDs, slimmed to what names a kind (group, names, scope, versions): reported as 'crd'. */
  crds: Informer<KubeObject>;
  policies: Informer<PropagationPolicy>;
  clusterPolicies: Informer<PropagationPolicy>;
  overrides: Informer<OverridePolicy>;
  clusterOverrides: Informer<OverridePolicy>;
  bindings: Informer<ResourceBinding>;
  /** ClusterResourceBindings (cluster-scoped templates); reported to onChange as 'binding' too. */
  clusterBindings: Informer<ResourceBinding>;
  /** Slim views of the Works (work-view.ts): the manifest is not kept, a hash of the spec is. */
  works: Informer<WorkView>;
  clusters: Informer<Cluster>;
  tenants: Informer<Tenant>;
  /** The row of a template kind (upstream apiVersion): built in, or a tenant's custom kind, from its CRD. */
  resourceOf(apiVersion: string, kind: string): TemplateResource | undefined;
  /** The row named in a queue key (resourceId), built in or custom. */
  resourceById(id: string): TemplateResource | undefined;
  /** Starts watching a tenant's objects of an on-demand row (idempotent); its initial list arrives as ADDED events. */
  watchTemplates(resource: TemplateResource, tenantId: string): void;
  /** Built-in template kinds the upstream does not serve (at the last discovery check): not watched, not propagated. */
  unservedKinds(): TemplateResource[];
  /** Stops it; the row itself stays known, for its bindings' cleanup. */
  unwatchTemplates(resource: TemplateResource, tenantId: string): void;
  synced(): Promise<void>;
  stop(): void;
}

const TENANT_INDEX = 'tenant';
const BINDING_INDEX = 'binding';
const UID_INDEX = 'uid';
const TENANT_ID_INDEX = 'tenant-id';
const tenantIndex = (obj: KubeObject): string[] => {
  const id = obj.metadata.labels?.[TENANT_LABEL];
  return id ? [id] : [];
};

/**
 * Only objects in one of their tenant's namespaces: the tenant label alone also matches
 * what Warren keeps about tenants elsewhere (their kubeconfig Secrets in warren-system),
 * which the engine must neither hold in memory nor ever propagate.
 */
function inTenantSpace(obj: KubeObject): boolean {
  const id = obj.metadata.labels?.[TENANT_LABEL];
  const ns = obj.metadata.namespace;
  return id !== undefined && (ns === undefined || ns.startsWith(`${id}-`));
}

/**
 * What the engine reads of a Tenant: its identity, spec (suspension, clusters, default
 * placement; a spec change requeues the tenant's objects) and status.id. Not its conditions,
 * usage, kubeconfig reference or managedFields: a Tenant is ~2-4 KB as stored upstream, and
 * this informer holds one per tenant, idle or not (memory per idle tenant, issue 4).
 */
export function engineTenantView(t: Tenant): Tenant {
  const { name, uid, resourceVersion, generation, deletionTimestamp, labels } = t.metadata;
  return {
    ...(t.apiVersion ? { apiVersion: t.apiVersion } : {}),
    ...(t.kind ? { kind: t.kind } : {}),
    metadata: {
      ...(name !== undefined ? { name } : {}),
      ...(uid !== undefined ? { uid } : {}),
      ...(resourceVersion !== undefined ? { resourceVersion } : {}),
      ...(generation !== undefined ? { generation } : {}),
      ...(deletionTimestamp !== undefined ? { deletionTimestamp } : {}),
      ...(labels !== undefined ? { labels } : {}),
    },
    ...(t.spec ? { spec: t.spec } : {}),
    ...(t.status?.id ? { status: { id: t.status.id } } : {}),
  };
}

/**
 * A template without its managedFields (one entry per writer: the tenant's client, detector, executor,
 * status): the engine never reads them, and its updates omit them, which leaves them as stored (kube
 * and the embedded apiserver alike). 10,000 templates at issue 18's burst. The one write that edits a
 * template's managedFields (the release) reads the template fresh. Bindings: binding-view.ts.
 */
function withoutManagedFields<T extends KubeObject>(b: T): T {
  if (b.metadata.managedFields === undefined) return b;
  const { managedFields: _managed, ...metadata } = b.metadata;
  return { ...b, metadata };
}

export interface EngineInformerSettings {
  /** How often discovery is asked again while a template kind is not served; default 60 s. */
  discoveryIntervalMs?: number;
}

export function startEngineInformers(upstream: Upstream, onChange: (event: ChangeEvent) => void, log: (line: string) => void, settings: EngineInformerSettings = {}): EngineInformers {
  const all: Informer<KubeObject>[] = [];
  function watch<T extends KubeObject>(kind: WatchedKind, listPath: string, tenantOwned: boolean, resource?: TemplateResource, transform?: (obj: T) => T): Informer<T> {
    const informer = startInformer<T>({
      upstream,
      listPath,
      ...(tenantOwned ? { labelSelector: TENANT_LABEL, keep: inTenantSpace } : {}),
      ...(transform ? { transform } : {}),
      log,
      onEvent: (type, obj, old) => onChange({ kind, type, obj, old, ...(resource ? { resource } : {}) }),
    });
    if (tenantOwned) informer.addIndex(TENANT_INDEX, tenantIndex as (obj: T) => string[]);
    all.push(informer as unknown as Informer<KubeObject>);
    return informer;
  }
  const templates = new Map<TemplateResource, Informer<KubeObject>>();
  const reportedMissing = new Set<TemplateResource>();
  let stopped = false;
  const served = watchServedResources({
    upstream,
    resources: TEMPLATE_RESOURCES.filter((r) => !isOnDemand(r)),
    // A fallback row is not asked about once its newer version is watched (a 1.21+ host would be asked every minute).
    wanted: (r) => !(r.fallbackFor && otherVersionOf(r) !== undefined && templates.has(otherVersionOf(r)!)),
    ...(settings.discoveryIntervalMs !== undefined ? { intervalMs: settings.discoveryIntervalMs } : {}),
    onServed: (r) => {
      if (stopped || templates.has(r)) return;
      // One version of a kind is watched (the newer one where both are served): its objects are the same.
      const other = otherVersionOf(r);
      if (r.fallbackFor && other && !reportedMissing.has(other)) return;
      if (other && templates.has(other)) return;
      if (reportedMissing.delete(r)) log(levelled('info', `propagation: ${apiVersionOf(r)} ${r.resource} is served now: ${r.kind} templates are watched`));
      else if (r.fallbackFor && other) log(levelled('info', `propagation: the upstream serves ${r.resource} as ${apiVersionOf(r)}, not ${apiVersionOf(other)}: ${r.kind} templates are watched in ${apiVersionOf(r)}`));
      templates.set(r, watch('template', allNamespacesPath(r), true, r, withoutManagedFields));
    },
    onMissing: (r) => {
      reportedMissing.add(r);
      // A kind with two versions is reported once, when neither is served (the fallback row is checked right after the newer one).
      const other = otherVersionOf(r);
      if (other && !r.fallbackFor) return;
      if (other && r.fallbackFor && !reportedMissing.has(other)) return;
      const named = other ? other : r;
      log(levelled('warn', `propagation: the upstream does not serve ${apiVersionOf(named)} ${named.resource}${other ? ` (nor ${apiVersionOf(r)})` : ''}: ${r.kind} templates are not propagated until it does (discovery is checked again every ${Math.round((settings.discoveryIntervalMs ?? 60_000) / 1000)} s)`));
    },
  });
  const tenantTemplates = new Map<string, Map<TemplateResource, Informer<KubeObject>>>();
  const crds = watch<KubeObject>('crd', allNamespacesPath(CRD_RESOURCE), true, undefined, slimCrd);
  crds.addIndex(CRD_KIND_INDEX, crdKindIndex);
  const rows = createTemplateRows((group, kind) => crds.byIndex(CRD_KIND_INDEX, crdKindKey(group, kind)));
  const clusterBindings = watch<ResourceBinding>('binding', '/apis/work.karmada.io/v1alpha2/clusterresourcebindings', true, undefined, bindingView);
  clusterBindings.addIndex(UID_INDEX, (b) => (b.metadata.uid ? [b.metadata.uid] : []));
  // The transform receives the parsed Work and keeps its view (the informer's T is what it stores). A
  // status write leaves the generation as it was: the spec is the one already hashed (half the events).
  const works: Informer<WorkView> = watch<WorkView>('work', '/apis/work.karmada.io/v1alpha1/works', true, undefined, (w) => {
    const work = w as unknown as Work;
    const old = works.store.get(objectKey(work));
    const same = old !== undefined && work.metadata.generation !== undefined && old.metadata.generation === work.metadata.generation && old.metadata.uid === work.metadata.uid;
    return workView(work, same ? old.specHash : undefined);
  });
  works.addIndex(BINDING_INDEX, (w) => { const uid = w.metadata.labels?.[PERMANENT_ID_LABEL]; return uid ? [uid] : []; });
  const bindings = watch<ResourceBinding>('binding', '/apis/work.karmada.io/v1alpha2/resourcebindings', true, undefined, bindingView);
  bindings.addIndex(UID_INDEX, (b) => (b.metadata.uid ? [b.metadata.uid] : []));
  // Every reconcile looks its tenant up by id: an index, not a scan over all Tenants.
  const tenants = watch<Tenant>('tenant', TENANTS_PATH, false, undefined, engineTenantView);
  tenants.addIndex(TENANT_ID_INDEX, (t) => { const id = t.status?.id || t.spec?.id; return id ? [id] : []; });
  const informers = {
    templates,
    tenantTemplates,
    crds,
    policies: watch<PropagationPolicy>('policy', '/apis/policy.karmada.io/v1alpha1/propagationpolicies', true),
    clusterPolicies: watch<PropagationPolicy>('clusterPolicy', '/apis/policy.karmada.io/v1alpha1/clusterpropagationpolicies', true),
    overrides: watch<OverridePolicy>('override', '/apis/policy.karmada.io/v1alpha1/overridepolicies', true),
    clusterOverrides: watch<OverridePolicy>('clusterOverride', '/apis/policy.karmada.io/v1alpha1/clusteroverridepolicies', true),
    bindings,
    clusterBindings,
    works,
    clusters: watch<Cluster>('cluster', '/apis/cluster.karmada.io/v1alpha1/clusters', false),
    tenants,
  };
  return {
    ...informers,
    resourceOf: rows.resourceOf,
    resourceById: rows.resourceById,
    watchTemplates(resource, tenantId) {
      if (stopped) return; // a refresh in flight at stop(): an informer started now would be stopped by no one
      const row = resource.custom ? rows.register(resource) : resource;
      let mine = tenantTemplates.get(tenantId);
      if (mine?.has(row)) return;
      const informer = startInformer<KubeObject>({
        upstream, listPath: allNamespacesPath(row), labelSelector: `${TENANT_LABEL}=${tenantId}`, keep: inTenantSpace, log, transform: withoutManagedFields,
        onEvent: (type, obj, old) => onChange({ kind: 'template', type, obj, old, resource: row }),
      });
      informer.addIndex(TENANT_INDEX, tenantIndex);
      if (!mine) tenantTemplates.set(tenantId, (mine = new Map()));
      mine.set(row, informer);
    },
    unwatchTemplates(resource, tenantId) {
      const mine = tenantTemplates.get(tenantId);
      const row = resource.custom ? rows.custom(resourceId(resource)) : resource;
      const informer = row ? mine?.get(row) : undefined;
      if (!mine || !row || !informer) return;
      informer.stop();
      mine.delete(row);
      if (mine.size === 0) tenantTemplates.delete(tenantId);
    },
    // A kind watched in its other version is served: only kinds served in no version are reported.
    unservedKinds: () => [...reportedMissing].filter((r) => !r.fallbackFor && !(otherVersionOf(r) && templates.has(otherVersionOf(r)!))),
    // On-demand kinds start later: synced() is about the view every tenant shares, as discovery found it.
    synced: async () => {
      await served.checked();
      await Promise.all(all.map((i) => i.synced()));
    },
    stop: () => {
      stopped = true;
      served.stop();
      for (const i of all) i.stop();
      for (const mine of tenantTemplates.values()) for (const i of mine.values()) i.stop();
    },
  };
}

/** The tenant's objects in an informer (by the tenant label). */
export function ofTenant<T extends KubeObject>(informer: Informer<T>, tenantId: string): T[] {
  return informer.byIndex(TENANT_INDEX, tenantId);
}

/** The Works of a binding (by its uid). */
export function worksOfBinding(informers: EngineInformers, bindingUid: string): WorkView[] {
  return informers.works.byIndex(BINDING_INDEX, bindingUid);
}

export function bindingByUid(informers: EngineInformers, uid: string): ResourceBinding | undefined {
  return informers.bindings.byIndex(UID_INDEX, uid)[0] ?? informers.clusterBindings.byIndex(UID_INDEX, uid)[0];
}

/** A ResourceBinding by upstream namespace and name, or (namespace '') a ClusterResourceBinding by upstream name. */
export function bindingOf(informers: EngineInformers, namespace: string, name: string): ResourceBinding | undefined {
  return namespace ? informers.bindings.store.get(`${namespace}/${name}`) : informers.clusterBindings.store.get(name);
}

/** Every binding of a tenant, namespaced and cluster-scoped. */
export function bindingsOfTenant(informers: EngineInformers, tenantId: string): ResourceBinding[] {
  return [...ofTenant(informers.bindings, tenantId), ...ofTenant(informers.clusterBindings, tenantId)];
}

/** Watched per tenant, on demand: cluster-scoped kinds and tenants' custom kinds. */
export function isOnDemand(r: TemplateResource): boolean {
  return r.clusterScoped === true || r.custom === true;
}

/** The informer holding a tenant's templates of a row, if watched. */
export function templateInformer(informers: EngineInformers, resource: TemplateResource, tenantId: string): Informer<KubeObject> | undefined {
  return isOnDemand(resource) ? informers.tenantTemplates.get(tenantId)?.get(resource) : informers.templates.get(resource);
}

/** A tenant's template by its row, upstream namespace ('' when cluster-scoped) and upstream name. */
export function templateOf(informers: EngineInformers, resource: TemplateResource, tenantId: string, namespace: string, name: string): KubeObject | undefined {
  return templateInformer(informers, resource, tenantId)?.store.get(storeKey(namespace, name));
}

/** The tenant's CRDs (slim views: group, names, scope, versions). */
export function crdsOfTenant(informers: EngineInformers, tenantId: string): KubeObject[] {
  return ofTenant(informers.crds, tenantId);
}

/** The CRD (slim view) serving a kind of an upstream group, if any. */
export function crdOfKind(informers: EngineInformers, group: string, kind: string): KubeObject | undefined {
  return informers.crds.byIndex(CRD_KIND_INDEX, crdKindKey(group, kind))[0];
}

/** The Tenant whose id this is (status.id, or spec.id before onboarding confirmed it). */
export function tenantOfId(informers: EngineInformers, id: string): Tenant | undefined {
  return informers.tenants.byIndex(TENANT_ID_INDEX, id)[0];
}
