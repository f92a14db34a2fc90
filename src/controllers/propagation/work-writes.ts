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
import { specHash, workView, type WorkView } from './work-view.ts';

const BASE = '/apis/work.karmada.io/v1alpha1';
const collection = (ns: string): string => `${BASE}/namespaces/${encodeURIComponent(ns)}/works`;
const item = (ns: string, name: string): string => `${collection(ns)}/${encodeURIComponent(name)}`;

const ensuredSpaces = new WeakMap<Upstream, Set<string>>();

/**
 * Of a Work create's or status write's answer the engine reads the metadata (its view, the echo's
 * resourceVersion), so it asks for that alone (ADR 0041): the answer no longer carries the manifest, and
 * neither side serialises or parses it. kube-apiserver 1.20 and the embedded apiserver answer writes so;
 * a server that does not knows the second type and sends the whole Work, read the same way.
 */
export const METADATA_ANSWER = { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1, application/json' };
const WORK_API_VERSION = 'work.karmada.io/v1alpha1';

/** The view of a Work from a write's answer: its metadata, and the status given (the answer has none of its own). */
function answeredView(answer: Work, specHashOf: string | undefined, status: unknown): WorkView {
  return workView({ apiVersion: WORK_API_VERSION, kind: 'Work', metadata: answer.metadata, ...(status !== undefined ? { status: status as Work['status'] } : {}) } as Work, specHashOf);
}

export async function ensureExecutionSpace(upstream: Upstream, namespace: string, tenantId: string): Promise<void> {
  let known = ensuredSpaces.get(upstream);
  if (!known) ensuredSpaces.set(upstream, (known = new Set()));
  if (known.has(namespace)) return;
  const res = await upstream.request('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { [TENANT_LABEL]: tenantId, [EXECUTION_SPACE_LABEL]: 'true' } } });
  if (res.status !== 201 && res.status !== 409) throw statusError(res.status, res.body);
  known.add(namespace);
}

/**
 * Creates the Work or updates it where it differs; returns its view (work-view.ts). The informer keeps
 * views, so "differs" is judged on the spec's hash and the marks, and an update sends the desired spec
 * under the stored metadata (managedFields left out: the server keeps them).
 */
export async function ensureWork(ctx: EngineContext, desired: Work): Promise<WorkView> {
  const ns = desired.metadata.namespace ?? '';
  const name = desired.metadata.name ?? '';
  const hash = specHash(desired.spec);
  const existing = ctx.informers.works.store.get(`${ns}/${name}`);
  if (!existing) {
    const res = await ownWrite(ctx.echoes, workEchoKey(ns, name), () => ctx.upstream.request<Work>('POST', collection(ns), desired, METADATA_ANSWER));
    // Labelled with the sent spec's hash: passes compare the informer's view, hashed from the stored copy, not this one.
    // A create writes no status (the status subresource's), so the new Work has none.
    if (res.status === 201) return answeredView(res.body, hash, undefined);
    if (res.status === 404) ensuredSpaces.get(ctx.upstream)?.delete(ns); // the execution space went away: make it again next time
    if (res.status !== 409) throw statusError(res.status, res.body);
    const current = await ctx.upstream.request<Work>('GET', item(ns, name));
    if (current.status !== 200) throw statusError(current.status, current.body);
    return updateIfChanged(ctx, workView(current.body), desired, hash);
  }
  return updateIfChanged(ctx, existing, desired, hash);
}

async function updateIfChanged(ctx: EngineContext, existing: WorkView, desired: Work, hash: string): Promise<WorkView> {
  if (existing.specHash === hash && jsonEqual(existing.metadata.labels ?? {}, desired.metadata.labels ?? {})
    && jsonEqual(existing.metadata.annotations ?? {}, desired.metadata.annotations ?? {})) return existing;
  const { specHash: _hash, status: _status, ...rest } = existing;
  // The status is left out too: a PUT of the main resource does not write it.
  const next: Work = { ...rest, metadata: { ...existing.metadata, labels: desired.metadata.labels ?? {}, annotations: desired.metadata.annotations ?? {} }, spec: desired.spec };
  const [ns, name] = [existing.metadata.namespace ?? '', existing.metadata.name ?? ''];
  const res = await ownWrite(ctx.echoes, workEchoKey(ns, name), () => ctx.upstream.request<Work>('PUT', item(ns, name), next));
  if (res.status === 200) return workView(res.body, hash); // as for a create: passes compare the informer's view
  throw statusError(res.status, res.body);
}

/**
 * The Work's status from `build` (conditions and manifest statuses), retried on the latest copy after a
 * conflict. The body is the Work's identity and status only: a status write takes nothing else from it.
 */
export async function writeWorkStatus(ctx: EngineContext, work: WorkView, build: (latest: WorkView) => { conditions: Condition[]; manifestStatuses: ManifestStatus[] }): Promise<void> {
  const [ns, name] = [work.metadata.namespace ?? '', work.metadata.name ?? ''];
  await ensureStatus<WorkView>(ctx, {
    path: item(ns, name), echoKey: workEchoKey(ns, name), current: work, missingOk: true,
    cached: () => ctx.informers.works.store.get(`${ns}/${name}`),
    // A status write leaves the spec as it was: its answer keeps the hash of the copy it was sent on, and its
    // status is the one written (the answer is metadata only). A copy read after a conflict is whole.
    headers: METADATA_ANSWER,
    fresh: (body, sent, written) => (written !== undefined ? answeredView(body as Work, sent?.specHash, written) : workView(body as Work, sent?.specHash)),
    body: (latest, status) => ({ apiVersion: latest.apiVersion ?? WORK_API_VERSION, kind: 'Work', metadata: statusWriteMeta(latest.metadata), status }),
    build: (latest) => {
      const { conditions, manifestStatuses } = build(latest);
      return { conditions, ...(manifestStatuses.length > 0 ? { manifestStatuses } : {}) };
    },
  });
}

/** What a status write needs of the metadata: the name to address and the version to guard with. */
function statusWriteMeta(meta: WorkView['metadata']): WorkView['metadata'] {
  return { name: meta.name, namespace: meta.namespace, ...(meta.uid ? { uid: meta.uid } : {}), resourceVersion: meta.resourceVersion };
}

export async function deleteWork(ctx: EngineContext, namespace: string, name: string): Promise<void> {
  const res = await ctx.upstream.request('DELETE', item(namespace, name));
  if (res.status !== 200 && res.status !== 202 && res.status !== 404) throw statusError(res.status, res.body);
}
