// Waits until each named Tenant is Ready and reads its admin kubeconfig from the
// Secret the onboarding controller wrote (tenants/tenant-kubeconfig.ts).
import { ApiError } from '../core/api-error.ts';
import type { Upstream } from '../kube/upstream.ts';
import { TENANTS_PATH, type Tenant } from '../tenants/tenant-crd.ts';
import { readTenantKubeconfig } from '../tenants/tenant-kubeconfig.ts';

export interface ReadyTenant {
  name: string;
  id: string;
  adminUser: string;
  adminKubeconfig: string;
}

function conditionMessage(tenant: Tenant): string {
  const ready = (tenant.status?.conditions ?? []).find((c) => c.type === 'Ready');
  return ready ? `${ready.reason ?? ''}: ${ready.message ?? ''}` : 'waiting for the onboarding controller';
}

/** observe (progress lines) sees the Tenant at every poll, so a long wait shows which step it is on. */
export async function waitForTenant(upstream: Upstream, name: string, timeoutMs: number, observe?: (tenant: Tenant) => void): Promise<ReadyTenant> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const answer = await upstream.request<Tenant>('GET', `${TENANTS_PATH}/${name}`);
    if (answer.status === 200) {
      const tenant = answer.body;
      observe?.(tenant);
      last = conditionMessage(tenant);
      if (tenant.status?.phase === 'Ready' && tenant.status.id) {
        const admin = await readTenantKubeconfig(upstream, tenant);
        if (admin) return { name, id: tenant.status.id, adminUser: admin.user, adminKubeconfig: admin.kubeconfig };
      }
    }
    if (Date.now() > deadline) throw new ApiError('Timeout', `tenant ${name} is not Ready after ${Math.round(timeoutMs / 1000)} s (${last})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function waitForTenants(upstream: Upstream, names: string[], progress: (line: string) => void, timeoutMs = 60_000): Promise<ReadyTenant[]> {
  const out: ReadyTenant[] = [];
  for (const name of names) {
    const ready = await waitForTenant(upstream, name, timeoutMs);
    progress(`tenant ${name} Ready (id ${ready.id})`);
    out.push(ready);
  }
  return out;
}
