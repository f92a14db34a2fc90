// Reading a tenant user's kubeconfig from the Secret onboarding wrote, for
// `warren up`, `warren tenant kubeconfig` and the console's download. The
// Secret is read where the Tenant API puts it (warren-system, named from the
// Tenant's own name, kubeconfig-secret.ts), never where a status says: whoever
// can write a Tenant's status must not be able to point a download at another
// Secret. status.kubeconfigSecretRef only says onboarding has written it.
import type { KubeObject } from '../core/types.ts';
import type { Upstream } from '../kube/upstream.ts';
import type { Tenant } from './tenant-crd.ts';
import { kubeconfigKey, kubeconfigSecretName, SECRETS_PATH } from './kubeconfig-secret.ts';

export interface UserKubeconfig {
  user: string;
  kubeconfig: string;
}

/** The first admin user of the tenant's spec, or undefined. */
export function firstAdmin(tenant: Tenant): string | undefined {
  return (tenant.spec?.users ?? []).find((u) => u.admin)?.name;
}

/**
 * The kubeconfig of `user` (default: the first admin), or undefined when the tenant has no such user or it
 * is not issued yet. A user the spec does not name gets nothing, whatever the Secret holds.
 */
export async function readTenantKubeconfig(upstream: Upstream, tenant: Tenant, user = firstAdmin(tenant)): Promise<UserKubeconfig | undefined> {
  const name = tenant.metadata?.name;
  if (!tenant.status?.kubeconfigSecretRef?.name || !name || user === undefined) return undefined;
  if (!(tenant.spec?.users ?? []).some((u) => u.name === user)) return undefined;
  const secret = await upstream.request<KubeObject>('GET', `${SECRETS_PATH}/${encodeURIComponent(kubeconfigSecretName(name))}`);
  if (secret.status !== 200) return undefined;
  const value = ((secret.body.data ?? {}) as Record<string, string>)[kubeconfigKey(user)];
  return value ? { user, kubeconfig: Buffer.from(value, 'base64').toString('utf8') } : undefined;
}
