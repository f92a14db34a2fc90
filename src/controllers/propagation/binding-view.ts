// What the engine keeps of each ResourceBinding (issue 18: one per template,
// 10,000 at the burst, ~3.4 KB each parsed). The binding is kept whole but for
// its managedFields (the engine never reads them; an update that omits them
// leaves them as stored), and the parts that repeat from binding to binding are
// one frozen copy each (interned-strings.ts): every binding of a policy has the
// same placement and, Duplicated, the same clusters; their aggregated status is
// equal wherever their members' copies are in the same state; marks repeat too.
import type { KubeObject } from '../../core/types.ts';
import { viewStrings } from './interned-strings.ts';

const SHARED_META = ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const;
const SHARED_SPEC = ['placement', 'clusters', 'replicaRequirements', 'requiredBy'] as const;
const SHARED_STATUS = ['conditions', 'aggregatedStatus'] as const;

export function bindingView<T extends KubeObject>(binding: T): T {
  const { managedFields: _managed, ...metadata } = binding.metadata;
  const view = { ...binding, metadata: shareMembers(metadata, SHARED_META) };
  const spec = sharedParts(binding.spec, SHARED_SPEC);
  if (spec !== undefined) (view as KubeObject).spec = spec;
  const status = sharedParts(binding.status, SHARED_STATUS);
  if (status !== undefined) (view as KubeObject).status = status;
  return view;
}

/** A copy of an object whose named members are shared copies; anything else (absent, not an object) as it is. */
function sharedParts(value: unknown, keys: readonly string[]): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return shareMembers({ ...(value as Record<string, unknown>) }, keys);
}

/** Replaces the named members of an object the view owns (a copy made here) by their shared copies. */
function shareMembers<T extends object>(owned: T, keys: readonly string[]): T {
  const members = owned as Record<string, unknown>;
  for (const key of keys) if (members[key] !== undefined) members[key] = viewStrings.shared(members[key]);
  return owned;
}
