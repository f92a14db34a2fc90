// How well a ResourceSelector matches a template, as Karmada ranks it
// (pkg/util: ImplicitPriority). A name match outranks a label-selector match,
// which outranks a kind-only match; 0 is no match at all.
import type { KubeObject } from '../../types.ts';
import { fromLabelSelectorObject, matchesLabels } from '../../selectors/index.ts';
import type { ResourceSelector } from '../karmada-types.ts';

export const PRIORITY_MISMATCH = 0;
export const PRIORITY_MATCH_ALL = 1;
export const PRIORITY_MATCH_LABEL_SELECTOR = 2;
export const PRIORITY_MATCH_NAME = 3;
export type ImplicitPriority = 0 | 1 | 2 | 3;

/** Karmada's ResourceSelectorPriority: a name, when set, decides alone (the label selector is then ignored). */
export function selectorPriority(resource: KubeObject, selector: ResourceSelector): ImplicitPriority {
  if (resource.apiVersion !== selector.apiVersion || resource.kind !== selector.kind) return PRIORITY_MISMATCH;
  if (selector.namespace && resource.metadata.namespace !== selector.namespace) return PRIORITY_MISMATCH;
  if (selector.name) return selector.name === resource.metadata.name ? PRIORITY_MATCH_NAME : PRIORITY_MISMATCH;
  if (selector.labelSelector === undefined || selector.labelSelector === null) return PRIORITY_MATCH_ALL;
  let reqs;
  try {
    reqs = fromLabelSelectorObject(selector.labelSelector);
  } catch {
    // Karmada: "should not happen because all resource selector should be fully validated by webhook".
    return PRIORITY_MISMATCH;
  }
  return reqs !== null && matchesLabels(reqs, resource.metadata.labels) ? PRIORITY_MATCH_LABEL_SELECTOR : PRIORITY_MISMATCH;
}

/** The best priority among the selectors (ResourceMatchSelectorsPriority). */
export function selectorsPriority(resource: KubeObject, selectors: readonly ResourceSelector[] | undefined): ImplicitPriority {
  let best: ImplicitPriority = PRIORITY_MISMATCH;
  for (const s of selectors ?? []) {
    const p = selectorPriority(resource, s);
    if (p > best) best = p;
  }
  return best;
}
