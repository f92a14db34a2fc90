// kube-apiserver's verb label (cleanVerb in its metrics package): the HTTP
// method for most requests, LIST and WATCH for collection reads, APPLY for
// server-side apply, CONNECT for exec/attach/port-forward.
import type { RequestInfo } from '../../core/request-info.ts';

const CONNECT = new Set(['exec', 'attach', 'portforward', 'proxy']);

export function metricVerbOf(method: string, info: Pick<RequestInfo, 'isResourceRequest' | 'verb' | 'subresource'> | undefined, contentType = ''): string {
  const upper = method.toUpperCase();
  if (!info?.isResourceRequest) return upper;
  if (info.verb === 'list') return 'LIST';
  if (info.verb === 'watch') return 'WATCH';
  if (CONNECT.has(info.subresource)) return 'CONNECT';
  if (upper === 'PATCH' && contentType.startsWith('application/apply-patch')) return 'APPLY';
  return upper;
}
