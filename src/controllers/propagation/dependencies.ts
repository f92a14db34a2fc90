// propagateDeps, as Karmada's dependencies distributor does it: a binding whose
// policy says propagateDeps records what its template refers to (annotation
// resourcebinding.karmada.io/dependencies on the binding), and each such
// ConfigMap, Secret, ServiceAccount or PVC that exists gets an "attached"
// ResourceBinding (named and owned as the detector would, no placement) whose
// spec.requiredBy lists the bindings that need it with their clusters. A
// dependency that already has its own policy-made binding gets requiredBy too.
// The executor sends a binding to spec.clusters ∪ requiredBy clusters
// (Karmada's ClustersToBePropagated). When nothing requires an attached binding
// any more and no policy placed it, it is deleted: the engine's finalizer then
// removes its copies from the members (Karmada would keep the empty binding and
// only drop its Works; deleting it leaves nothing behind for the tenant to see).
//
// requiredBy[].namespace and the annotation are in the tenant's terms: the
// gateway translates only spec.resource, and the tenant reads both.
import type { KubeObject } from '../../core/types.ts';
import type { ResourceBinding, ResourceBindingSpec, TargetCluster } from '../../core/propagation/karmada-types.ts';
import { dependenciesOf, type Dependency } from '../../core/propagation/dependencies/index.ts';
import { bindingName } from '../../core/propagation/detector/index.ts';
import { toTenantNamespace } from '../../core/tenancy/names.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { statusError } from '../../kube/status-error.ts';
import type { Informer } from '../../kube/informer.ts';
import { jsonEqual } from '../../core/json-equal.ts';
import type { EngineContext } from './engine-context.ts';
import type { EngineInformers } from './engine-informers.ts';
import { BINDING_FINALIZER } from './member-labels.ts';
import { apiVersionOf, templateResourceOf } from './template-resources.ts';

export const DEPENDENCIES_ANNOTATION = 'resourcebinding.karmada.io/dependencies';
export const DEPENDENCY_KINDS: ReadonlySet<string> = new Set(['ConfigMap', 'Secret', 'ServiceAccount', 'PersistentVolumeClaim']);

type Snapshot = NonNullable<ResourceBindingSpec['requiredBy']>[number];
const BASE = '/apis/work.karmada.io/v1alpha2';
const itemPath = (ns: string, name: string): string => `${BASE}/namespaces/${encodeURIComponent(ns)}/resourcebindings/${encodeURIComponent(name)}`;

/** Where the executor sends a binding: its own clusters, then those of the bindings that require it. */
export function clustersToPropagate(spec: ResourceBindingSpec): TargetCluster[] {
  const out = [...(spec.clusters ?? [])];
  const seen = new Set(out.map((c) => c.name));
  for (const r of spec.requiredBy ?? []) {
    for (const c of r.clusters ?? []) if (!seen.has(c.name)) { seen.add(c.name); out.push(c); }
  }
  return out;
}

// Reverse indexes over the bindings informer, added on first use: dependency → bindings that
// recorded it, and parent binding → bindings that list it in requiredBy. Keys use the upstream namespace.
const DEPENDS_INDEX = 'propagateDeps.dependsOn';
const REQUIRED_INDEX = 'propagateDeps.requiredBy';
const indexed = new WeakSet<object>();
function indexes(bindings: Informer<ResourceBinding>): Informer<ResourceBinding> {
  if (indexed.has(bindings)) return bindings;
  indexed.add(bindings);
  bindings.addIndex(DEPENDS_INDEX, (b) => recordedDependencies(b).map((d) => `${b.metadata.namespace ?? ''}/${d.kind}/${d.name}`));
  bindings.addIndex(REQUIRED_INDEX, (b) => (b.spec.requiredBy ?? []).map((r) => `${b.metadata.namespace ?? ''}/${r.name}`));
  return bindings;
}

function recordedDependencies(b: ResourceBinding): Dependency[] {
  const raw = b.metadata.annotations?.[DEPENDENCIES_ANNOTATION];
  if (!raw) return [];
  try {
    const parsed = JSON.parse(raw) as unknown;
    return Array.isArray(parsed) ? parsed.filter((d): d is Dependency => typeof d?.kind === 'string' && typeof d?.name === 'string') : [];
  } catch {
    return [];
  }
}

/** Bindings that recorded this object as a dependency: a dependency created or changed after its workload wakes them. */
export function bindingsDependingOn(informers: EngineInformers, obj: KubeObject): ResourceBinding[] {
  if (!DEPENDENCY_KINDS.has(obj.kind ?? '')) return [];
  return indexes(informers.bindings).byIndex(DEPENDS_INDEX, `${obj.metadata.namespace ?? ''}/${obj.kind ?? ''}/${obj.metadata.name ?? ''}`);
}

/** Bindings an attached binding names in requiredBy: when it goes away while they still need it, they make it again. */
export function bindingsRequiring(informers: EngineInformers, attached: ResourceBinding): ResourceBinding[] {
  const ns = attached.metadata.namespace ?? '';
  return (attached.spec.requiredBy ?? []).map((r) => informers.bindings.store.get(`${ns}/${r.name}`)).filter((b): b is ResourceBinding => b !== undefined);
}

/**
 * Makes the attached bindings of binding `namespace/name` (upstream namespace) match what its
 * template refers to now; removes it from every requiredBy when it is gone, deleted or no longer propagates deps.
 */
export async function syncDependencies(ctx: EngineContext, tenantId: string, namespace: string, name: string, parent: ResourceBinding | undefined): Promise<void> {
  const bindings = indexes(ctx.informers.bindings);
  const tenantNamespace = toTenantNamespace(tenantId, namespace);
  if (tenantNamespace === undefined) return;
  const attachedNow = bindings.byIndex(REQUIRED_INDEX, `${namespace}/${name}`);
  const resource = parent ? templateResourceOf(parent.spec.resource.apiVersion, parent.spec.resource.kind) : undefined;
  const template = parent && resource ? ctx.informers.templates.get(resource)?.store.get(`${namespace}/${parent.spec.resource.name}`) : undefined;
  const active = parent !== undefined && parent.spec.propagateDeps === true && !parent.metadata.deletionTimestamp && template !== undefined;
  const deps = active ? dependenciesOf(template) : [];

  if (active) await recordDependencies(ctx, parent, deps.map((d) => ({ ...d, namespace: tenantNamespace })));
  const wanted = new Set(deps.map((d) => bindingName(d.kind, d.name)));
  for (const attached of attachedNow) {
    if (!wanted.has(attached.metadata.name ?? '')) await dropRequirement(ctx, attached, name);
  }
  if (!active) return;
  const snapshot: Snapshot = { namespace: tenantNamespace, name, clusters: parent.spec.clusters ?? [] };
  for (const dep of deps) {
    const depResource = templateResourceOf(dep.apiVersion, dep.kind);
    const depTemplate = depResource ? ctx.informers.templates.get(depResource)?.store.get(`${namespace}/${dep.name}`) : undefined;
    // A dependency that does not exist (yet) is skipped; creating it wakes this binding (bindingsDependingOn).
    if (!depResource || !depTemplate || depTemplate.metadata.deletionTimestamp) continue;
    await ensureAttachedBinding(ctx, tenantId, depTemplate, apiVersionOf(depResource), snapshot);
  }
}

async function recordDependencies(ctx: EngineContext, parent: ResourceBinding, deps: readonly Dependency[]): Promise<void> {
  const value = JSON.stringify(deps);
  if (parent.metadata.annotations?.[DEPENDENCIES_ANNOTATION] === value) return;
  await put(ctx, { ...parent, metadata: { ...parent.metadata, annotations: { ...parent.metadata.annotations, [DEPENDENCIES_ANNOTATION]: value } } });
}

async function ensureAttachedBinding(ctx: EngineContext, tenantId: string, dep: KubeObject, apiVersion: string, snapshot: Snapshot): Promise<void> {
  const namespace = dep.metadata.namespace ?? '';
  const name = bindingName(dep.kind ?? '', dep.metadata.name ?? '');
  const resource = { apiVersion, kind: dep.kind ?? '', namespace, name: dep.metadata.name ?? '', uid: dep.metadata.uid ?? '', resourceVersion: dep.metadata.resourceVersion ?? '' };
  const existing = ctx.informers.bindings.store.get(`${namespace}/${name}`);
  if (!existing) {
    const created: ResourceBinding = {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: {
        name, namespace, labels: { [TENANT_LABEL]: tenantId }, finalizers: [BINDING_FINALIZER],
        ownerReferences: [{ apiVersion, kind: dep.kind ?? '', name: dep.metadata.name ?? '', uid: dep.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
      },
      spec: { resource, requiredBy: [snapshot] },
    };
    const res = await ctx.upstream.request('POST', `${BASE}/namespaces/${encodeURIComponent(namespace)}/resourcebindings`, created);
    if (res.status !== 201 && res.status !== 200) throw statusError(res.status, res.body); // 409: the informer has not seen it yet; retried
    return;
  }
  if (existing.metadata.deletionTimestamp) return; // made again once gone: its DELETED event wakes this parent
  const others = (existing.spec.requiredBy ?? []).filter((r) => r.name !== snapshot.name);
  const requiredBy = [...others, snapshot].sort((a, b) => a.name.localeCompare(b.name));
  // A policy-made binding keeps the detector's spec.resource; only requiredBy is ours there.
  const spec: ResourceBindingSpec = existing.spec.placement ? { ...existing.spec, requiredBy } : { ...existing.spec, resource, requiredBy };
  if (jsonEqual(spec, existing.spec)) return;
  await put(ctx, { ...existing, spec });
}

/** Removes `parentName` from an attached binding's requiredBy; deletes the binding when nothing else keeps it. */
async function dropRequirement(ctx: EngineContext, attached: ResourceBinding, parentName: string): Promise<void> {
  if (attached.metadata.deletionTimestamp) return;
  const requiredBy = (attached.spec.requiredBy ?? []).filter((r) => r.name !== parentName);
  if (requiredBy.length === 0 && !attached.spec.placement) {
    const res = await ctx.upstream.request('DELETE', itemPath(attached.metadata.namespace ?? '', attached.metadata.name ?? ''));
    if (res.status !== 200 && res.status !== 202 && res.status !== 404) throw statusError(res.status, res.body);
    return;
  }
  const { requiredBy: _old, ...rest } = attached.spec;
  await put(ctx, { ...attached, spec: requiredBy.length > 0 ? { ...rest, requiredBy } : rest });
}

async function put(ctx: EngineContext, binding: ResourceBinding): Promise<void> {
  const res = await ctx.upstream.request('PUT', itemPath(binding.metadata.namespace ?? '', binding.metadata.name ?? ''), binding);
  if (res.status !== 200) throw statusError(res.status, res.body); // a conflict is retried with fresh state
}
