// What the console does to a Tenant besides create and delete (those go
// through the provisioning API, as a portal would): suspend, resume, revoke
// credentials, and read the first admin's kubeconfig for a download. Each is
// one write to the Tenant object; the onboarding controller does the rest.
import { ApiError, notFound } from '../../core/api-error.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { statusError } from '../../kube/status-error.ts';
import { TENANTS_PATH, type Tenant } from '../../tenants/tenant-crd.ts';
import { readAdminKubeconfig } from '../../up/wait-for-tenants.ts';
import { revokeInstant } from '../../tenants/revoke-instant.ts';

const TENANTS = { group: 'tenancy.warren.dev', resource: 'tenants' };
export type TenantAction = 'suspend' | 'resume' | 'revoke';
export const TENANT_ACTIONS: readonly TenantAction[] = ['suspend', 'resume', 'revoke'];

export function actionPatch(action: TenantAction, now: number): Record<string, unknown> {
  if (action === 'revoke') return { spec: { credentials: { revokeBefore: revokeInstant(now) } } };
  return { spec: { suspended: action === 'suspend' } };
}

/** The upstream's refusal as kube's Status (kube/status-error.ts); a missing Tenant in the console's words. */
function failure(status: number, body: unknown, name: string): ApiError {
  return status === 404 ? notFound({ ...TENANTS, name }) : statusError(status, body);
}

export async function applyTenantAction(upstream: Upstream, name: string, action: TenantAction): Promise<Tenant> {
  const answer = await upstream.request<Tenant>('PATCH', `${TENANTS_PATH}/${encodeURIComponent(name)}`, actionPatch(action, Date.now()), { 'Content-Type': 'application/merge-patch+json' });
  if (answer.status !== 200) throw failure(answer.status, answer.body, name);
  return answer.body;
}

/** The tenant's first admin's kubeconfig; 404 while there is none (no admin user, or not issued yet). */
export async function tenantKubeconfig(upstream: Upstream, tenant: Tenant): Promise<{ user: string; kubeconfig: string }> {
  const found = await readAdminKubeconfig(upstream, tenant);
  if (!found) throw new ApiError('NotFound', `tenant "${tenant.metadata.name ?? ''}" has no admin kubeconfig yet (phase ${tenant.status?.phase ?? 'Pending'})`);
  return found;
}
