// Writes to one member: its namespaces (created on first use, as Karmada
// propagates namespaces implicitly), the engine's objects by server-side apply,
// and their removal. An object already there that the engine did not put there
// for this binding is left alone unless the binding may take it over (ADR 19:
// conflictResolution: Overwrite, or a namespace the engine made for this tenant),
// and never when it is another tenant's. A removal reads the object on the member
// first and deletes only the engine's copy for this binding, by uid precondition,
// so nothing upstream (a binding, a Work) can point a delete at anything else.
import type { KubeObject } from '../../core/types.ts';
import { podSecurityLabels, type PodSecurityLevel } from '../../core/tenancy/pod-security.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { mayTakeOver, ownedByBinding } from '../../core/propagation/trust/member-ownership.ts';
import type { MemberAddress } from '../../core/propagation/trust/binding-trust.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { statusError } from '../../kube/status-error.ts';
import { namespacedPath, type TemplateResource } from './template-resources.ts';
import { PERMANENT_ID_LABEL } from './member-labels.ts';
import { inMemberVersion, memberRowOf } from './member-version.ts';

export const FIELD_MANAGER = 'karmada-work';

export class ConflictError extends Error {}

const ensuredNamespaces = new WeakMap<Upstream, Set<string>>();

export async function ensureMemberNamespace(member: Upstream, namespace: string, tenantId: string, podSecurity: PodSecurityLevel): Promise<void> {
  let known = ensuredNamespaces.get(member);
  if (!known) ensuredNamespaces.set(member, (known = new Set()));
  if (known.has(namespace)) return;
  const res = await member.request('POST', '/api/v1/namespaces', {
    apiVersion: 'v1', kind: 'Namespace',
    metadata: { name: namespace, labels: { [TENANT_LABEL]: tenantId, ...podSecurityLabels(podSecurity) } },
  });
  if (res.status !== 201 && res.status !== 409) throw statusError(res.status, res.body);
  known.add(namespace);
}

export function forgetMemberNamespace(member: Upstream, namespace: string): void {
  ensuredNamespaces.get(member)?.delete(namespace);
}

export interface ApplyOptions {
  tenantId: string;
  /** What the member has at that address now ('unknown': read it first). */
  existing: KubeObject | undefined | 'unknown';
  /** conflictResolution: Overwrite. */
  overwrite: boolean;
}

export async function applyToMember(member: Upstream, resource: TemplateResource, manifest: KubeObject, options: ApplyOptions): Promise<KubeObject> {
  const row = await memberRowOf(member, resource);
  const obj = inMemberVersion(manifest, row);
  const ns = obj.metadata.namespace ?? '';
  const path = `${namespacedPath(row, ns)}/${encodeURIComponent(obj.metadata.name ?? '')}`;
  let current = options.existing;
  if (current === 'unknown') {
    const res = await member.request<KubeObject>('GET', path);
    current = res.status === 200 ? res.body : undefined;
    if (res.status !== 200 && res.status !== 404) throw statusError(res.status, res.body);
  }
  const owner = obj.metadata.labels?.[PERMANENT_ID_LABEL] ?? '';
  if (current && !ownedByBinding(options.tenantId, owner, resource, current) && !mayTakeOver(options.tenantId, resource, current, options.overwrite)) {
    throw new ConflictError(options.overwrite
      ? `${resource.kind} ${obj.metadata.name ?? ''} already exists in the member cluster and belongs to someone else; it is left alone`
      : `${resource.kind} ${obj.metadata.name ?? ''} already exists in the member cluster and is not managed by this binding; set conflictResolution: Overwrite to take it over`);
  }
  const res = await member.request<KubeObject>('PATCH', `${path}?fieldManager=${FIELD_MANAGER}&force=true`, obj, { 'Content-Type': 'application/apply-patch+yaml' });
  if (res.status === 200 || res.status === 201) return res.body;
  throw statusError(res.status, res.body);
}

export type RemoveResult = 'deleted' | 'absent' | 'not-ours';

/**
 * Deletes the engine's copy for this binding at this address, if that is what the member holds:
 * read, check the marks (tenant, binding uid, tenant space), delete with the uid as precondition.
 */
export async function deleteFromMember(member: Upstream, resource: TemplateResource, target: { tenantId: string; bindingUid: string; address: MemberAddress }): Promise<RemoveResult> {
  const { namespace, name } = target.address;
  const path = `${namespacedPath(await memberRowOf(member, resource), namespace)}/${encodeURIComponent(name)}`;
  const got = await member.request<KubeObject>('GET', path);
  if (got.status === 404) return 'absent';
  if (got.status !== 200) throw statusError(got.status, got.body);
  if (!ownedByBinding(target.tenantId, target.bindingUid, resource, got.body, target.address)) return 'not-ours';
  const uid = got.body.metadata.uid;
  const res = await member.request('DELETE', path, {
    apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background', ...(uid ? { preconditions: { uid } } : {}),
  });
  // 409: the object was replaced meanwhile (uid precondition): whatever is there now is not the copy we judged.
  if (res.status === 409) return 'not-ours';
  if (res.status !== 200 && res.status !== 202 && res.status !== 404) throw statusError(res.status, res.body);
  return res.status === 404 ? 'absent' : 'deleted';
}
