// The query parameters of a cached collection read, checked the way
// kube-apiserver checks them. Combinations the cache does not serve (an
// unknown resourceVersionMatch) come back as undefined: the request is then
// forwarded, and the upstream gives its own answer.
import { badRequest } from '../../core/api-error.ts';
import { parseResourceVersion } from './resource-version.ts';

export interface CacheQuery {
  limit: number | undefined;
  continueToken: string | undefined;
  /** undefined: "most recent" (RV unset or ''); 0: any; n: at least n (or exactly n with `exact`). */
  resourceVersion: number | undefined;
  exact: boolean;
  timeoutSeconds: number | undefined;
  allowWatchBookmarks: boolean;
  sendInitialEvents: boolean | undefined;
}

function bool(value: string | null): boolean {
  return value === 'true' || value === '1';
}

export function parseCacheQuery(query: URLSearchParams): CacheQuery | undefined {
  const rvText = query.get('resourceVersion') ?? '';
  const match = query.get('resourceVersionMatch') ?? '';
  if (match !== '' && match !== 'NotOlderThan' && match !== 'Exact') return undefined;
  const initial = query.get('sendInitialEvents');
  // kube allows a match without a version only for a watch-list (sendInitialEvents); otherwise the upstream's 400 says it best.
  if (match !== '' && rvText === '' && initial === null) return undefined;
  const limitText = query.get('limit');
  let limit: number | undefined;
  if (limitText !== null && limitText !== '') {
    limit = Number(limitText);
    if (!Number.isSafeInteger(limit)) throw badRequest(`invalid limit: ${JSON.stringify(limitText)}`);
    if (limit <= 0) limit = undefined; // kube: a non-positive limit means no limit
  }
  const continueToken = query.get('continue') || undefined;
  if (continueToken !== undefined && rvText !== '' && rvText !== '0') throw badRequest('specifying resource version is not allowed when using continue');
  const resourceVersion = rvText === '' ? undefined : parseResourceVersion(rvText);
  if (match === 'Exact' && resourceVersion === 0) return undefined;
  const timeoutText = query.get('timeoutSeconds');
  const timeoutSeconds = timeoutText ? Number(timeoutText) : undefined;
  if (timeoutSeconds !== undefined && !Number.isFinite(timeoutSeconds)) throw badRequest(`invalid timeoutSeconds: ${JSON.stringify(timeoutText)}`);
  return {
    limit,
    continueToken,
    resourceVersion,
    exact: match === 'Exact',
    timeoutSeconds,
    allowWatchBookmarks: bool(query.get('allowWatchBookmarks')),
    sendInitialEvents: initial === null ? undefined : bool(initial),
  };
}
