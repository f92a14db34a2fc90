// Works upstream, one per (binding, cluster), in the tenant's execution space
// for that cluster (`karmada-es-<cluster>` in the tenant's view). Written only
// when they differ from what is there.
import type { Condition, ManifestStatus, Work } from '../../core/propagation/karmada-types.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { EXECUTION_SPACE_LABEL } from '../../core/propagation/execution-space.ts';
import { statusError } from '../../kube/status-error.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { jsonEqual } from '../../core/json-equal.ts';
import type { EngineContext } from './engine-context.ts';
import { ownWrite, workEchoKey } from './echo-record.ts';
import { ensureStatus } from './status-writes.ts';

const BASE = '/apis/work.karmada.io/v1alpha1';
const collection = (ns: string): string => `${BASE}/namespaces/${encodeURIComponent(ns)}/works`;
const item = (ns: string, name: string): string => `${collection(ns)}/${encodeURIComponent(name)}`;

const ensuredSpaces = new WeakMap<Upstream, Set<string>>();

export async function ensureExecutionSpace(upstream: Upstream, namespace: string, tenantId: string): Promise<void> {
  let known = ensuredSpaces.get(upstream);
  if (!known) ensuredSpaces.set(upstream, (known = new Set()));
  if (known.has(namespace)) return;
  const res = await upstream.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { [TENANT_LABEL]: tenantId, [EXECUTION_SPACE_LABEL]: 'true' } } });
  if (res.status !== 201 && res.status !== 409) throw statusError(res.status, res.body);
  known.add(namespace);
}

export async function ensureWork(ctx: EngineContext, desired: Work): Promise<Work> {
  const ns = desired.metadata.namespace ?? '';
  const name = desired.metadata.name ?? '';
  const existing = ctx.informers.works.store.get(`${ns}/${name}`);
  if (!existing) {
    const res = await ownWrite(ctx.echoes, workEchoKey(ns, name), () => ctx.upstream.request<Work>('POST', collection(ns), desired));
    if (res.status === 201) return res.body;
    if (res.status === 404) ensuredSpaces.get(ctx.upstream)?.delete(ns); // the execution space went away: make it again next time
    if (res.status !== 409) throw statusError(res.status, res.body);
    const current = await ctx.upstream.request<Work>('GET', item(ns, name));
    if (current.status !== 200) throw statusError(current.status, current.body);
    return updateIfChanged(ctx, current.body, desired);
  }
  return updateIfChanged(ctx, existing, desired);
}

async function updateIfChanged(ctx: EngineContext, existing: Work, desired: Work): Promise<Work> {
  if (jsonEqual(existing.spec, desired.spec) && jsonEqual(existing.metadata.labels ?? {}, desired.metadata.labels ?? {})
    && jsonEqual(existing.metadata.annotations ?? {}, desired.metadata.annotations ?? {})) return existing;
  const next: Work = { ...existing, metadata: { ...existing.metadata, labels: desired.metadata.labels ?? {}, annotations: desired.metadata.annotations ?? {} }, spec: desired.spec };
  const [ns, name] = [existing.metadata.namespace ?? '', existing.metadata.name ?? ''];
  const res = await ownWrite(ctx.echoes, workEchoKey(ns, name), () => ctx.upstream.request<Work>('PUT', item(ns, name), next));
  if (res.status === 200) return res.body;
  throw statusError(res.status, res.body);
}

/** The Work's status from `build` (conditions and manifest statuses), retried on the latest copy after a conflict. */
export async function writeWorkStatus(ctx: EngineContext, work: Work, build: (latest: Work) => { conditions: Condition[]; manifestStatuses: ManifestStatus[] }): Promise<void> {
  const [ns, name] = [work.metadata.namespace ?? '', work.metadata.name ?? ''];
  await ensureStatus(ctx, {
    path: item(ns, name), echoKey: workEchoKey(ns, name), current: work, missingOk: true,
    cached: () => ctx.informers.works.store.get(`${ns}/${name}`),
    build: (latest) => {
      const { conditions, manifestStatuses } = build(latest);
      return { conditions, ...(manifestStatuses.length > 0 ? { manifestStatuses } : {}) };
    },
  });
}

export async function deleteWork(ctx: EngineContext, namespace: string, name: string): Promise<void> {
  const res = await ctx.upstream.request('DELETE', item(namespace, name));
  if (res.status !== 200 && res.status !== 202 && res.status !== 404) throw statusError(res.status, res.body);
}
