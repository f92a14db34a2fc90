// The provisioning API for portals, on the gateway:
//   PUT    /warren/v1/tenants/<name>  {spec}  → 200 {name, id, phase, kubeconfig}  (idempotent; waits for Ready)
//   GET    /warren/v1/tenants/<name>          → 200 {name, id, phase, conditions}
//   DELETE /warren/v1/tenants/<name>          → 202 {name, phase: "Terminating"}
// Only platform admins; errors are Kubernetes Status objects.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, badRequest, methodNotAllowed, notFound } from '../../core/api-error.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { provisionTenant } from '../../controllers/onboarding/provision.ts';
import { TENANTS_PATH, type Tenant, type TenantSpec } from '../tenants/tenant-crd.ts';
import type { SigningKeySet } from '../credentials/signing-keys.ts';
import { readRequestObject } from '../forward/request-body.ts';
import { sendJsonBody } from '../respond.ts';
import { platformAdminOf } from './platform-admin.ts';

const ROUTE = /^\/warren\/v1\/tenants\/([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/?$/;

export function isPortalPath(path: string): boolean {
  return path === '/warren/v1/tenants' || path.startsWith('/warren/v1/tenants/');
}

function summary(tenant: Tenant): Record<string, unknown> {
  return { name: tenant.metadata.name, id: tenant.status?.id, phase: tenant.status?.phase ?? 'Pending', conditions: tenant.status?.conditions ?? [] };
}

export async function servePortal(req: IncomingMessage, res: ServerResponse, path: string, deps: { upstream: Upstream; keys: SigningKeySet; log: (line: string) => void }): Promise<void> {
  const admin = await platformAdminOf(req, deps.keys);
  const name = ROUTE.exec(path)?.[1];
  if (!name) throw new ApiError('NotFound', 'the server could not find the requested resource');
  const method = (req.method ?? 'GET').toUpperCase();
  if (method === 'PUT') {
    const body = await readRequestObject(req);
    const spec = (body.spec ?? {}) as TenantSpec;
    if (typeof spec !== 'object' || Array.isArray(spec)) throw badRequest('spec must be an object');
    deps.log(JSON.stringify({ event: 'portal-provision', admin, tenant: name }));
    const result = await provisionTenant({ upstream: deps.upstream, name, spec, wait: true });
    sendJsonBody(res, 200, { ...summary(result.tenant), kubeconfig: result.adminKubeconfig });
    return;
  }
  if (method === 'GET') {
    const answer = await deps.upstream.request<Tenant>('GET', `${TENANTS_PATH}/${name}`);
    if (answer.status === 404) throw notFound({ group: 'tenancy.warren.dev', resource: 'tenants', name });
    sendJsonBody(res, 200, summary(answer.body));
    return;
  }
  if (method === 'DELETE') {
    const answer = await deps.upstream.request('DELETE', `${TENANTS_PATH}/${name}`);
    if (answer.status === 404) throw notFound({ group: 'tenancy.warren.dev', resource: 'tenants', name });
    deps.log(JSON.stringify({ event: 'portal-delete', admin, tenant: name }));
    sendJsonBody(res, 202, { name, phase: 'Terminating' });
    return;
  }
  throw methodNotAllowed();
}
