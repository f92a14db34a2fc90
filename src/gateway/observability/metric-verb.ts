// The verb label of the gateway's request metrics: Kubernetes' request verbs,
// as RBAC and audit name them (get, list, watch, create, update, patch,
// delete, deletecollection), so a dashboard reads in the words tenants and
// admins already use (issue 19). Server-side apply is a patch, as RBAC sees it;
// exec/attach/port-forward/proxy are "connect"; a non-resource path gets its
// lower-case HTTP method (get, post), as RBAC's nonResourceURLs rules do.
import type { RequestInfo } from '../../core/request-info.ts';

const CONNECT = new Set(['exec', 'attach', 'portforward', 'proxy']);

export const METRIC_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'connect'] as const;

export function metricVerbOf(method: string, info: Pick<RequestInfo, 'isResourceRequest' | 'verb' | 'subresource'> | undefined): string {
  if (!info?.isResourceRequest) return method.toLowerCase();
  if (CONNECT.has(info.subresource)) return 'connect';
  return info.verb;
}
