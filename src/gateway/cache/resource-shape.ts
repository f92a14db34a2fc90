// What the cache must know about a resource beyond its objects: the list's
// kind and apiVersion (an empty cache has no object to read them from), its
// scope, its field labels and how its objects' owners are read.
import { BUILTIN_RESOURCES } from '../../core/resources/builtin-resources.ts';
import type { OwnerRule } from './tenant-owner.ts';

export interface ResourceShape extends OwnerRule {
  /** Upstream apiVersion, e.g. v1 or apps/v1. */
  apiVersion: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  /** Field label → path, beyond metadata.name/namespace. */
  fieldPaths: Record<string, string> | undefined;
  /**
   * kube-apiserver leaves apiVersion and kind out of the items of built-in
   * lists (custom resources keep theirs); the informer fills them in, so the
   * cache takes them out again for built-ins.
   */
  itemsCarryKind: boolean;
}

/** `/api/v1/pods` → {group '', version 'v1', resource 'pods'}; undefined for anything not a collection path. */
export function parseCollectionPath(path: string): { group: string; version: string; resource: string } | undefined {
  const core = /^\/api\/([^/]+)\/([^/]+)$/.exec(path);
  if (core) return { group: '', version: core[1] ?? '', resource: core[2] ?? '' };
  const named = /^\/apis\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path);
  if (named) return { group: named[1] ?? '', version: named[2] ?? '', resource: named[3] ?? '' };
  return undefined;
}

/** The shape from the path and the upstream's answer to a one-item LIST. */
export function shapeOf(path: string, namespaced: boolean, list: { apiVersion?: string; kind?: string }): ResourceShape | undefined {
  const target = parseCollectionPath(path);
  if (!target || typeof list.kind !== 'string' || !list.kind.endsWith('List')) return undefined;
  const builtin = BUILTIN_RESOURCES.find((d) => d.group === target.group && d.resource === target.resource);
  const apiVersion = list.apiVersion ?? (target.group ? `${target.group}/${target.version}` : target.version);
  return {
    apiVersion,
    kind: list.kind.slice(0, -'List'.length),
    listKind: list.kind,
    namespaced,
    fieldPaths: builtin?.fieldSelectors,
    itemsCarryKind: builtin === undefined,
    crdNames: target.group === 'apiextensions.k8s.io' && target.resource === 'customresourcedefinitions',
  };
}
