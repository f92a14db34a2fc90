// Resource versions as the cache orders them. Clients must treat them as
// opaque, but kube-apiserver's own watch cache parses them as unsigned
// integers (etcd revisions) to order events, and so does this cache.
import { badRequest } from '../../core/api-error.ts';

/** Throws BadRequest, as kube-apiserver does, for a version that is not a non-negative integer. */
export function parseResourceVersion(value: string): number {
  const rv = Number(value);
  if (value === '' || !/^\d+$/.test(value) || !Number.isSafeInteger(rv)) throw badRequest(`invalid resource version: ${JSON.stringify(value)}`);
  return rv;
}

/** Like parseResourceVersion, 0 for anything unreadable (an object without one). */
export function resourceVersionOf(value: string | undefined): number {
  if (value === undefined || !/^\d+$/.test(value)) return 0;
  const rv = Number(value);
  return Number.isSafeInteger(rv) ? rv : 0;
}
