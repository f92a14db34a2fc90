// LIST: selectors are applied before the limit so every page is full, and
// continue tokens pin the snapshot revision, as kube-apiserver does over etcd.
import { ApiError, badRequest } from '../../core/api-error.ts';
import type { KubeList, ListMeta } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import type { ListOptions, Store } from '../store/store.ts';
import type { JsonStore } from '../store/json-store.ts';
import type { ListQuery } from './resource-api.ts';
import { compilePredicate } from './predicate.ts';
import { CONTINUE_EXPIRED_MESSAGE, decodeContinue, encodeContinue } from './continue-token.ts';
import { groupVersion } from '../../core/resources/resource-def.ts';

interface ListPlan {
  options: ListOptions;
  everything: boolean;
  continued: boolean;
}

function planList(def: ResourceDef, query: ListQuery): ListPlan {
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
  return { options, everything: predicate.everything, continued: Boolean(query.continue) };
}

function runList<T extends { revision: number; continueAfter?: string; remaining?: number }>(plan: ListPlan, list: () => T): { result: T; metadata: ListMeta } {
  let result: T;
  try {
    result = list();
  } catch (err) {
    if (err instanceof ApiError && err.code === 410 && plan.continued) throw new ApiError('Expired', CONTINUE_EXPIRED_MESSAGE);
    throw err;
  }
  const metadata: ListMeta = { resourceVersion: String(result.revision) };
  if (result.continueAfter !== undefined) {
    metadata.continue = encodeContinue({ revision: result.revision, after: result.continueAfter });
    if (plan.everything && result.remaining !== undefined) metadata.remainingItemCount = result.remaining;
  }
  return { result, metadata };
}

export function listObjects(store: Store, storageKey: string, def: ResourceDef, query: ListQuery): KubeList {
  const plan = planList(def, query);
  const { result, metadata } = runList(plan, () => store.list(storageKey, plan.options));
  return { apiVersion: groupVersion(def), kind: def.listKind, metadata, items: result.items };
}

/**
 * The same list as serialised JSON, built from the store's stored text without parsing or
 * re-serialising the items (the fast path for LIST of many objects).
 */
export function listObjectsJson(store: JsonStore, storageKey: string, def: ResourceDef, query: ListQuery): string {
  const plan = planList(def, query);
  const { result, metadata } = runList(plan, () => store.listJson(storageKey, plan.options));
  const head = `{"apiVersion":${JSON.stringify(groupVersion(def))},"kind":${JSON.stringify(def.listKind)},"metadata":${JSON.stringify(metadata)},"items":[`;
  return `${head}${result.items.join(',')}]}`;
}

export function parseRevision(value: string): number {
  const revision = Number(value);
  if (!Number.isSafeInteger(revision) || revision < 0) throw badRequest(`invalid resource version: ${JSON.stringify(value)}`);
  return revision;
}
