// Discovery for tenants: built from the upstream's own discovery documents (so
// a real kube-apiserver's groups show through), then translated: the tenant's
// CRD groups unprefixed, other tenants' groups and denied resources removed.
// Upstream documents are cached briefly; they are the same for every tenant.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../../core/api-error.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';
import { isBuiltinGroup, isCustomGroup } from '../../core/tenancy/resource-classes.ts';
import { toUpstreamGroup } from '../../core/tenancy/names.ts';
import { toTenantAggregatedDiscovery, toTenantGroupList, toTenantResourceList, withoutEmptyVersions } from '../../core/tenancy/discovery-translation.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { sendJsonBody } from '../respond.ts';

type Obj = Record<string, unknown>;

export interface DiscoveryService {
  serve(req: IncomingMessage, res: ServerResponse, ctx: TenantContext, info: RequestInfo, path: string): Promise<void>;
}

const AGGREGATED = /as=APIGroupDiscoveryList/;
// Discovery is read fresh from the upstream on every request: kubectl caches it itself, and a
// shared cache here made a just-Established CRD invisible for up to its lifetime (kubectl's
// `wait --for=condition=Established` then `apply` of a custom resource failed).
const TTL_MS = 0;
const notFound = (): ApiError => new ApiError('NotFound', 'the server could not find the requested resource', {});

export function createDiscoveryService(upstream: Upstream): DiscoveryService {
  const cache = new Map<string, { at: number; status: number; body: Obj; contentType: string }>();
  const fetchDoc = async (path: string, accept: string): Promise<{ status: number; body: Obj; contentType: string }> => {
    const key = `${path}\n${accept}`;
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit;
    const answer = await upstream.request<Obj>('GET', path, undefined, { Accept: accept });
    const contentType = String(answer.headers['content-type'] ?? 'application/json');
    const entry = { at: Date.now(), status: answer.status, body: answer.body, contentType };
    cache.set(key, entry);
    return entry;
  };

  // The tenant's group list without group-versions that hold nothing for it. Only built-in groups
  // are read: a tenant's CRD group-version always serves its resource. A version whose list cannot
  // be read stays listed (kube lists an unavailable aggregated API too).
  // `only` narrows the list to one group first (/apis/<group> reads just that group's versions).
  const tenantGroupList = async (id: string, doc: Obj, only?: string): Promise<Obj> => {
    const all = toTenantGroupList(id, doc);
    const list = only === undefined ? all : { ...all, groups: (all.groups as Obj[]).filter((g) => g.name === only) };
    const builtin = (list.groups as Obj[]).filter((g) => isBuiltinGroup(String(g.name ?? '')));
    const gvs = builtin.flatMap((g) => (Array.isArray(g.versions) ? g.versions : []).map((ver: Obj) => String(ver.groupVersion ?? '')));
    const empty = await Promise.all(gvs.map(async (gv) => {
      const answer = await fetchDoc(`/apis/${gv}`, 'application/json');
      return answer.status === 200 && toTenantResourceList(id, answer.body) === undefined ? [gv] : [];
    }));
    return withoutEmptyVersions(list, new Set(empty.flat()));
  };

  return {
    async serve(req, res, ctx, info, path) {
      const accept = req.headers.accept ?? 'application/json';
      const trimmed = path.replace(/\/+$/, '');
      if (trimmed === '/api' || trimmed === '/apis') {
        const doc = await fetchDoc(trimmed, accept);
        if (AGGREGATED.test(doc.contentType)) {
          sendJsonBody(res, 200, toTenantAggregatedDiscovery(ctx.id, doc.body), { 'Content-Type': doc.contentType, Vary: 'Accept' });
        } else if (trimmed === '/apis') {
          sendJsonBody(res, 200, await tenantGroupList(ctx.id, doc.body), { Vary: 'Accept' });
        } else {
          const { serverAddressByClientCIDRs: _hidden, ...rest } = doc.body;
          sendJsonBody(res, 200, rest, { Vary: 'Accept' });
        }
        return;
      }
      if (info.apiPrefix === 'apis' && !info.apiVersion) {
        // /apis/<group>: the group document, from the translated group list.
        const group = trimmed.split('/')[2] ?? '';
        const list = await tenantGroupList(ctx.id, (await fetchDoc('/apis', 'application/json')).body, group);
        const entry = (list.groups as Obj[]).find((g) => g.name === group);
        if (!entry) throw notFound();
        sendJsonBody(res, 200, { kind: 'APIGroup', apiVersion: 'v1', ...entry });
        return;
      }
      if (info.apiVersion) {
        // The caller's own group (prefixed), a built-in one as is; anything else is nobody's.
        if (!isCustomGroup(info.apiGroup) && !isBuiltinGroup(info.apiGroup)) throw notFound();
        const group = isCustomGroup(info.apiGroup) ? toUpstreamGroup(ctx.id, info.apiGroup) : info.apiGroup;
        const upstreamPath = info.apiPrefix === 'api' ? `/api/${info.apiVersion}` : `/apis/${group}/${info.apiVersion}`;
        const doc = await fetchDoc(upstreamPath, 'application/json');
        if (doc.status !== 200) throw notFound();
        const translated = toTenantResourceList(ctx.id, doc.body);
        if (!translated) throw notFound();
        sendJsonBody(res, 200, translated);
        return;
      }
      throw notFound();
    },
  };
}
