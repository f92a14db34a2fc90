// `kubectl get <built-in kind> -A` asks for a Table. Forwarded upstream, that
// list could only select the tenant's objects by the tenant label, which the
// objects upstream controllers create (events, endpoints, the default
// ServiceAccount...) do not carry. Served from the shared cache instead, the
// list is complete, and the columns come from the same printers the embedded
// apiserver uses (kube-apiserver's, for the built-in kinds).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestInfo } from '../../core/request-info.ts';
import type { ForwardedRequest } from '../../core/tenancy/request-translation.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import { BUILTIN_RESOURCES } from '../../core/resources/builtin-resources.ts';
import { toTable, type IncludeObject } from '../../core/table/index.ts';
import { sendJsonBody } from '../respond.ts';
import type { SharedCache } from './shared-cache.ts';

const TABLE = /as=Table/;

export async function serveTableFromCache(cache: SharedCache, req: IncomingMessage, res: ServerResponse, ctx: TenantContext, info: RequestInfo, fwd: ForwardedRequest): Promise<boolean> {
  if (info.verb !== 'list' || fwd.namespace !== '' || info.subresource !== '') return false;
  if (!TABLE.test(req.headers.accept ?? '')) return false;
  const def = BUILTIN_RESOURCES.find((d) => d.group === info.apiGroup && d.resource === info.resource);
  if (!def) return false;
  const list = await cache.list(ctx, fwd);
  if (!list) return false;
  const includeObject = (new URL(req.url ?? '/', 'https://x.invalid').searchParams.get('includeObject') ?? 'Metadata') as IncludeObject;
  sendJsonBody(res, 200, toTable(def, list.items, { includeObject, now: new Date(), listMeta: list.metadata }));
  return true;
}
