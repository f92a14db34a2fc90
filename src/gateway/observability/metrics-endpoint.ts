// GET /metrics, guarded as kube-apiserver guards it (a nonResourceURL that
// only privileged users may get): platform admins only. A tenant user is
// authenticated but not allowed (403, in kube's wording); anyone else 401.
// Metrics name tenants, so no tenant may read them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../../core/api-error.ts';
import type { Identity } from '../identity.ts';
import type { MetricsRegistry } from '../../observability/metrics-registry.ts';

export interface MetricsEndpointDeps {
  registry: MetricsRegistry;
  /** The platform admin's name, or throws Unauthorized (portal/platform-admin.ts). */
  platformAdmin(req: IncomingMessage): Promise<string>;
  authenticate(req: IncomingMessage): Promise<Identity>;
}

export const METRICS_PATH = '/metrics';

export function createMetricsEndpoint(deps: MetricsEndpointDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    try {
      await deps.platformAdmin(req);
    } catch {
      const tenantUser = await deps.authenticate(req).catch(() => undefined);
      if (tenantUser) throw new ApiError('Forbidden', `forbidden: User "${tenantUser.user}" cannot get path "${METRICS_PATH}"`);
      throw new ApiError('Unauthorized', 'Unauthorized');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new ApiError('MethodNotAllowed', `the server does not allow this method on the requested resource`);
    const { contentType, body } = await deps.registry.render();
    res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private' });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
