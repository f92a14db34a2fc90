// The engine's writes of bindings: create, or update only what differs, so a
// reconcile that finds nothing new writes nothing (and does not wake itself up
// through its own watch). A conflict is thrown: the key is retried with fresh state.
import type { ResourceBinding, ResourceBindingStatus } from '../../core/propagation/karmada-types.ts';
import { statusError } from '../../kube/status-error.ts';
import { jsonEqual } from '../../core/json-equal.ts';
import type { EngineContext } from './engine-context.ts';
import { bindingOf } from './engine-informers.ts';
import { bindingStatusEchoKey } from './echo-record.ts';
import { ensureStatus } from './status-writes.ts';

const BASE = '/apis/work.karmada.io/v1alpha2';
// An empty namespace is a ClusterResourceBinding's (a cluster-scoped template's binding).
const collection = (ns: string): string => (ns ? `${BASE}/namespaces/${encodeURIComponent(ns)}/resourcebindings` : `${BASE}/clusterresourcebindings`);
const item = (ns: string, name: string): string => `${collection(ns)}/${encodeURIComponent(name)}`;

export async function writeBinding(ctx: EngineContext, existing: ResourceBinding | undefined, desired: ResourceBinding): Promise<ResourceBinding> {
  const ns = desired.metadata.namespace ?? '';
  if (!existing) {
    const res = await ctx.upstream.request<ResourceBinding>('POST', collection(ns), desired);
    if (res.status === 201 || res.status === 200) return res.body;
    throw statusError(res.status, res.body);
  }
  const finalizers = existing.metadata.finalizers?.includes(desired.metadata.finalizers?.[0] ?? '') ? existing.metadata.finalizers : [...(existing.metadata.finalizers ?? []), ...(desired.metadata.finalizers ?? [])];
  const next: ResourceBinding = {
    ...existing,
    metadata: { ...existing.metadata, labels: { ...existing.metadata.labels, ...desired.metadata.labels }, ...(desired.metadata.ownerReferences ? { ownerReferences: desired.metadata.ownerReferences } : {}), finalizers },
    spec: desired.spec,
  };
  if (jsonEqual(next.spec, existing.spec) && jsonEqual(next.metadata, existing.metadata)) return existing;
  const res = await ctx.upstream.request<ResourceBinding>('PUT', item(ns, existing.metadata.name ?? ''), next);
  if (res.status === 200) return res.body;
  throw statusError(res.status, res.body);
}

export async function writeBindingStatus(ctx: EngineContext, binding: ResourceBinding, status: ResourceBindingStatus): Promise<ResourceBinding> {
  return ensureBindingStatus(ctx, binding, () => status);
}

/**
 * Writes the status `build` makes from a binding, retrying a conflict on the latest copy
 * (status-writes.ts): the detector (Scheduled) and the executor (aggregatedStatus, FullyApplied)
 * write the same status, each keeping the other's part. `build` returns undefined to give up.
 */
export function ensureBindingStatus(ctx: EngineContext, binding: ResourceBinding,
  build: (latest: ResourceBinding) => ResourceBindingStatus | undefined): Promise<ResourceBinding> {
  const ns = binding.metadata.namespace ?? '';
  const name = binding.metadata.name ?? '';
  return ensureStatus(ctx, { path: item(ns, name), echoKey: bindingStatusEchoKey(ns, name), current: binding, cached: () => bindingOf(ctx.informers, ns, name), build });
}

/** Removes the engine's finalizer once the members are clean. */
export async function releaseBinding(ctx: EngineContext, binding: ResourceBinding, finalizer: string): Promise<void> {
  if (!binding.metadata.finalizers?.includes(finalizer)) return;
  const finalizers = binding.metadata.finalizers.filter((f) => f !== finalizer);
  const res = await ctx.upstream.request('PUT', item(binding.metadata.namespace ?? '', binding.metadata.name ?? ''), { ...binding, metadata: { ...binding.metadata, finalizers } });
  if (res.status !== 200 && res.status !== 404) throw statusError(res.status, res.body);
}

export async function updateBindingSpec(ctx: EngineContext, binding: ResourceBinding, spec: ResourceBinding['spec']): Promise<ResourceBinding> {
  if (jsonEqual(binding.spec, spec)) return binding;
  const res = await ctx.upstream.request<ResourceBinding>('PUT', item(binding.metadata.namespace ?? '', binding.metadata.name ?? ''), { ...binding, spec });
  if (res.status === 200) return res.body;
  throw statusError(res.status, res.body);
}
