// Phase 3: the namespaces every cluster has, in the tenant's own view
// (default, kube-system, kube-public, kube-node-lease), translated exactly as
// the gateway would write them (prefix and tenant label), and labelled for Pod
// Security Admission at the tenant's level. The gateway stops tenants from
// changing these labels; here they are put back if anything else did.
import type { KubeObject } from '../../core/types.ts';
import { toUpstreamObject } from '../../core/tenancy/object-translation.ts';
import { podSecurityLabels } from '../../core/tenancy/pod-security.ts';
import type { TenantPodSecurity } from '../../tenants/tenant-crd.ts';
import type { ObjectClient } from '../../kube/object-client.ts';
import { ensureObject, type EnsureOptions, type EnsureOutcome } from './ensure-object.ts';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;
export const NAMESPACES_PATH = '/api/v1/namespaces';

export { podSecurityLabels };

/** The upstream Namespace objects of a tenant's system namespaces. */
export function buildTenantNamespaces(id: string, level: TenantPodSecurity): KubeObject[] {
  return SYSTEM_NAMESPACES.map((name) =>
    toUpstreamObject({ id }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: podSecurityLabels(level) } }));
}

/**
 * Ensures them (create, or restore the PSA labels if anything changed them).
 * The four are independent, so they are written side by side: a tenant's
 * onboarding waits for one round trip here, not four.
 */
export async function ensureTenantNamespaces(client: ObjectClient, id: string, level: TenantPodSecurity, options: Pick<EnsureOptions, 'likelyMissing'> = {}): Promise<EnsureOutcome[]> {
  const namespaces = await Promise.all(buildTenantNamespaces(id, level).map((ns) => ensureObject(client, NAMESPACES_PATH, ns, options)));
  // One outcome per namespace (callers count them as the tenant's namespaces); the Service rides along.
  await ensureObject(client, `/api/v1/namespaces/${id}-default/services`, buildKubernetesService(id), { ...options, ignore: ['spec'] });
  return namespaces;
}

/**
 * `default/kubernetes`, as every cluster has it: clients look the API up there
 * (Kubernetes' e2e suite stops in its BeforeSuite without it). Created once; its
 * spec is the apiserver's to default, so only its presence is kept.
 */
export function buildKubernetesService(id: string): KubeObject {
  return toUpstreamObject({ id }, {
    apiVersion: 'v1', kind: 'Service',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: { type: 'ClusterIP', sessionAffinity: 'None', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }] },
  });
}
