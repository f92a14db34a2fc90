// Each tenant reaches the gateway at its own base URL, https://gateway/tenants/<id>.
// kubectl keys its discovery cache by server URL: with one URL for every tenant,
// two tenants' kubeconfigs on one machine would share (and see) each other's
// cached API groups. The path segment is routing only; identity still comes from
// the credential, and a path naming another tenant is refused.
import { TENANT_ID_PATTERN } from '../core/tenancy/tenant-id.ts';

const SCOPED = new RegExp(`^/tenants/(${TENANT_ID_PATTERN})(/.*)?$`);

export function tenantServerUrl(gatewayUrl: string, tenantId: string): string {
  return `${gatewayUrl.replace(/\/+$/, '')}/tenants/${tenantId}`;
}

/** Splits /tenants/<id>/rest into the tenant id and /rest; undefined for unscoped paths. */
export function splitTenantPath(path: string): { tenantId: string; rest: string } | undefined {
  const match = SCOPED.exec(path);
  if (!match?.[1]) return undefined;
  return { tenantId: match[1], rest: match[2] ?? '/' };
}
