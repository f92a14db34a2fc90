// LIST: selectors are applied before the limit so every page is full, and
// continue tokens pin the snapshot revision, as kube-apiserver does over etcd.
import { ApiError, badRequest } from '../../core/api-error.ts';
import type { KubeList } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import type { ListOptions, Store } from '../store/store.ts';
import type { ListQuery } from './resource-api.ts';
import { compilePredicate } from './predicate.ts';
import { CONTINUE_EXPIRED_MESSAGE, decodeContinue, encodeContinue } from './continue-token.ts';
import { groupVersion } from '../../core/resources/resource-def.ts';

export function listObjects(store: Store, storageKey: string, def: ResourceDef, query: ListQuery): KubeList {
  const predicate = compilePredicate(def, query.labelSelector, query.fieldSelector);
  const limit = query.limit !== undefined && query.limit > 0 ? query.limit : undefined;
  const options: ListOptions = {};
  if (def.namespaced && query.namespace) options.namespace = query.namespace;
  if (!predicate.everything) options.filter = predicate.matches;
  if (limit !== undefined) options.limit = limit;
  if (query.continue) {
    if (query.resourceVersion) throw badRequest('specifying resource version is not allowed when using continue');
    const position = decodeContinue(query.continue);
    options.after = position.after;
    options.atRevision = position.revision;
  } else if (limit !== undefined && query.resourceVersion && query.resourceVersion !== '0' && query.resourceVersionMatch === 'Exact') {
    options.atRevision = parseRevision(query.resourceVersion);
  }
  let result;
  try {
    result = store.list(storageKey, options);
  } catch (err) {
    if (err instanceof ApiError && err.code === 410 && query.continue) throw new ApiError('Expired', CONTINUE_EXPIRED_MESSAGE);
    throw err;
  }
  const metadata: KubeList['metadata'] = { resourceVersion: String(result.revision) };
  if (result.continueAfter !== undefined) {
    metadata.continue = encodeContinue({ revision: result.revision, after: result.continueAfter });
    if (predicate.everything && result.remaining !== undefined) metadata.remainingItemCount = result.remaining;
  }
  return { apiVersion: groupVersion(def), kind: def.listKind, metadata, items: result.items };
}

export function parseRevision(value: string): number {
  const revision = Number(value);
  if (!Number.isSafeInteger(revision) || revision < 0) throw badRequest(`invalid resource version: ${JSON.stringify(value)}`);
  return revision;
}
