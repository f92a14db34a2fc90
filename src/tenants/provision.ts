// One idempotent call for portals: make a Tenant with this name and spec exist
// (create it; accept it if it is already there with the same spec; update the
// spec if it differs), optionally wait until it is Ready, and hand back its
// admin kubeconfig from the Secret onboarding wrote. A retry after a timeout
// or a lost answer returns the same tenant, never a second one.
import { ApiError } from '../core/api-error.ts';
import type { Upstream } from '../kube/upstream.ts';
import { TENANTS_PATH, TENANT_API_VERSION, tenantPath, type Tenant, type TenantSpec } from './tenant-crd.ts';
import { jsonEqual } from '../core/json-equal.ts';
import { upstreamObjectClient } from '../kube/object-client.ts';
import { SECRETS_PATH, kubeconfigKey, kubeconfigSecretName } from './kubeconfig-secret.ts';
import { ConditionType, Reason } from './tenant-conditions.ts';

export interface ProvisionOptions {
  upstream: Upstream;
  name: string;
  spec: TenantSpec;
  /** Wait until Ready and return the admin kubeconfig (default true). */
  wait?: boolean;
  timeoutMs?: number; // default 60 s
  pollMs?: number; // default 250 ms
  /** Optimistic concurrency: fail with 409 Conflict unless the Tenant exists at this resourceVersion. */
  resourceVersion?: string;
}

export interface ProvisionResult {
  tenant: Tenant;
  /** This call created the Tenant (a portal answers 201, not 200). */
  created: boolean;
  /** The first admin user's kubeconfig; undefined when not waiting or the tenant has no admin. */
  adminKubeconfig?: string;
}

/** Spec fields the apiserver defaults: a spec that differs only by them is the same spec. */
function sameSpec(asked: TenantSpec, stored: TenantSpec | undefined, storedId: string | undefined): boolean {
  const s = structuredClone(stored ?? {});
  const a = structuredClone(asked);
  a.podSecurity ??= 'baseline';
  a.credentials = { certificateLifetime: '720h', ...a.credentials };
  // An id the controller assigned is not a difference: the portal did not ask for one.
  if (a.id === undefined && s.id === undefined && storedId) delete s.id;
  return jsonEqual(a, s);
}

export async function provisionTenant(options: ProvisionOptions): Promise<ProvisionResult> {
  const client = upstreamObjectClient(options.upstream);
  const { name, spec } = options;
  let tenant = await client.get<Tenant>(tenantPath(name));
  let created = false;
  if (options.resourceVersion !== undefined) {
    if (!tenant) throw new ApiError('NotFound', `tenants.tenancy.warren.dev "${name}" not found`);
    if (tenant.metadata.resourceVersion !== options.resourceVersion) {
      throw new ApiError('Conflict', `Operation cannot be fulfilled on tenants.tenancy.warren.dev "${name}": the object has been modified; please apply your changes to the latest version and try again`);
    }
  }
  if (!tenant) {
    try {
      tenant = await client.create<Tenant>(TENANTS_PATH, { apiVersion: TENANT_API_VERSION, kind: 'Tenant', metadata: { name }, spec });
      created = true;
    } catch (err) {
      // A concurrent retry created it first: carry on with that one.
      if (!(err instanceof ApiError && err.code === 409)) throw err;
      tenant = await client.get<Tenant>(tenantPath(name));
      if (!tenant) throw err;
    }
  }
  if (tenant.metadata.deletionTimestamp) throw new ApiError('Conflict', `tenant ${name} is being deleted; try again once it is gone`);
  if (!sameSpec(spec, tenant.spec, tenant.status?.id)) {
    tenant = await client.update<Tenant>(tenantPath(name), { ...tenant, spec: { ...spec, ...(tenant.spec?.id && !spec.id ? { id: tenant.spec.id } : {}) } });
  }
  if (options.wait === false) return { tenant, created };

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const generation = tenant.metadata.generation;
  for (;;) {
    const current = await client.get<Tenant>(tenantPath(name));
    if (!current) throw new ApiError('NotFound', `tenant ${name} was deleted while waiting for it`);
    const ready = current.status?.conditions?.find((c) => c.type === ConditionType.Ready);
    const fresh = ready?.observedGeneration === undefined || generation === undefined || ready.observedGeneration >= generation;
    if (fresh && ready?.status === 'True') return { tenant: current, created, ...(await adminKubeconfig(client, current)) };
    if (fresh && ready && (ready.reason === Reason.InvalidSpec || ready.reason === Reason.IdConflict)) {
      // A refused create leaves nothing behind: the caller gets an error, not a Pending Tenant to clean up.
      if (created) await client.remove(tenantPath(name)).catch(() => undefined);
      throw new ApiError('Invalid', `tenant ${name} cannot become Ready: ${ready.reason}: ${ready.message ?? ''}`);
    }
    if (Date.now() > deadline) {
      throw new ApiError('Timeout', `tenant ${name} is not Ready yet${ready ? ` (${ready.reason ?? ''}: ${ready.message ?? ''})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, options.pollMs ?? 250));
  }
}

async function adminKubeconfig(client: ReturnType<typeof upstreamObjectClient>, tenant: Tenant): Promise<{ adminKubeconfig?: string }> {
  const admin = tenant.spec?.users?.find((u) => u.admin === true);
  if (!admin) return {};
  const ref = tenant.status?.kubeconfigSecretRef;
  const path = ref ? `/api/v1/namespaces/${ref.namespace}/secrets/${ref.name}` : `${SECRETS_PATH}/${kubeconfigSecretName(tenant.metadata.name ?? '')}`;
  const secret = await client.get(path);
  const data = (secret?.data ?? {}) as Record<string, string>;
  const value = data[kubeconfigKey(admin.name)];
  return value ? { adminKubeconfig: Buffer.from(value, 'base64').toString('utf8') } : {};
}
