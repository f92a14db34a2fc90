// Writes to one member: its namespaces (created on first use, as Karmada
// propagates namespaces implicitly), the engine's objects by server-side apply,
// and their removal. An object already there that the engine did not put there
// is left alone unless the binding says conflictResolution: Overwrite.
import type { KubeObject } from '../../core/types.ts';
import { podSecurityLabels, type PodSecurityLevel } from '../../core/tenancy/pod-security.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { statusError } from '../../kube/status-error.ts';
import { namespacedPath, type TemplateResource } from './template-resources.ts';
import { PERMANENT_ID_LABEL } from './member-labels.ts';

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

export async function applyToMember(member: Upstream, resource: TemplateResource, obj: KubeObject, existing: KubeObject | undefined | 'unknown', overwrite: boolean): Promise<KubeObject> {
  const ns = obj.metadata.namespace ?? '';
  const path = `${namespacedPath(resource, ns)}/${encodeURIComponent(obj.metadata.name ?? '')}`;
  let current = existing;
  if (current === 'unknown') {
    const res = await member.request<KubeObject>('GET', path);
    current = res.status === 200 ? res.body : undefined;
    if (res.status !== 200 && res.status !== 404) throw statusError(res.status, res.body);
  }
  const owner = obj.metadata.labels?.[PERMANENT_ID_LABEL];
  if (current && current.metadata.labels?.[PERMANENT_ID_LABEL] !== owner && !overwrite) {
    throw new ConflictError(`${resource.kind} ${obj.metadata.name ?? ''} already exists in the member cluster and is not managed by this binding; set conflictResolution: Overwrite to take it over`);
  }
  const res = await member.request<KubeObject>('PATCH', `${path}?fieldManager=${FIELD_MANAGER}&force=true`, obj, { 'Content-Type': 'application/apply-patch+yaml' });
  if (res.status === 200 || res.status === 201) return res.body;
  throw statusError(res.status, res.body);
}

export async function deleteFromMember(member: Upstream, resource: TemplateResource, namespace: string, name: string): Promise<void> {
  const res = await member.request('DELETE', `${namespacedPath(resource, namespace)}/${encodeURIComponent(name)}`, { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background' });
  if (res.status !== 200 && res.status !== 202 && res.status !== 404) throw statusError(res.status, res.body);
}
