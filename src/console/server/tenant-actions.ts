// What the console does to a Tenant besides create and delete (those go
// through the provisioning API, as a portal would): suspend, resume, revoke
// credentials, and read a user's kubeconfig for a download. Each change is
// one write to the Tenant object; the onboarding controller does the rest.
import { ApiError, notFound } from '../../core/api-error.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { statusError } from '../../kube/status-error.ts';
import { TENANTS_PATH, type Tenant } from '../../tenants/tenant-crd.ts';
import { readTenantKubeconfig, type UserKubeconfig } from '../../tenants/tenant-kubeconfig.ts';
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

/** A user's kubeconfig (default: the first admin); 404 when the tenant has no such user or it is not issued yet. */
export async function tenantKubeconfig(upstream: Upstream, tenant: Tenant, user?: string): Promise<UserKubeconfig> {
  const name = tenant.metadata.name ?? '';
  if (user !== undefined && !(tenant.spec?.users ?? []).some((u) => u.name === user)) {
    throw new ApiError('NotFound', `tenant "${name}" has no user "${user}"`);
  }
  const found = await readTenantKubeconfig(upstream, tenant, user);
  if (!found) throw new ApiError('NotFound', `tenant "${name}" has no ${user === undefined ? 'admin' : `"${user}"`} kubeconfig yet (phase ${tenant.status?.phase ?? 'Pending'})`);
  return found;
}
