// Onboards a tenant the way the platform does (a Tenant object upstream, the
// onboarding controller does the rest) and hands back a client with its admin
// kubeconfig: the credential the fault tests check is never re-issued.
import type { KubeObject } from '../../src/core/types.ts';
import type { Upstream } from '../../src/kube/upstream.ts';
import { applyTenant } from '../../src/up/apply-tenants.ts';
import { waitForTenant, type ReadyTenant } from '../../src/up/wait-for-tenants.ts';
import { KubeHttp } from './kube-http.ts';

export function tenantManifest(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'tenancy.warren.dev/v1alpha1', kind: 'Tenant', metadata: { name },
    spec: { users: [{ name: 'admin', admin: true }], ...spec },
  };
}

export async function onboardTenant(upstream: Upstream, name: string, spec: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<ReadyTenant & { http: KubeHttp }> {
  await applyTenant(upstream, tenantManifest(name, spec));
  const ready = await waitForTenant(upstream, name, timeoutMs);
  return { ...ready, http: new KubeHttp(ready.adminKubeconfig) };
}

/** A tenant-side ConfigMap; the fault tests count these before and after. */
export function faultConfigMap(name: string, data: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { fault: 'yes' } }, data };
}
