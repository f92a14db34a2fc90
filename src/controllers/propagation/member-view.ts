// What the engine keeps of its copies on members (issue 18): one per (member,
// object), 100,000 at 10,000 templates on 10 members, each a whole object with
// its managedFields and pod template. The engine reads of a copy its identity
// and marks (labels: who owns it; of the annotations only the template
// generation it stamped), its generation and resourceVersion (was it changed
// since the engine applied it: applied-record.ts), its status (reflected into
// the binding) and the spec's scalars the health rules read (replicas, a
// Service's type: core/propagation/status). Nested spec (a pod template, a
// selector) is never read from a copy, so it is not kept.
import type { KubeObject } from '../../core/types.ts';
import { RESOURCE_TEMPLATE_GENERATION_ANNOTATION } from '../../core/propagation/status/reflect-status.ts';
import { pickMeta } from './work-view.ts';
import { viewStrings } from './interned-strings.ts';

const MEMBER_META = ['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'deletionTimestamp', 'labels'] as const;

export function memberView(obj: KubeObject): KubeObject {
  const metadata = pickMeta(obj.metadata, MEMBER_META);
  // Of the annotations, only the template generation the engine stamped (reflect-status.ts reads it back).
  const generation = obj.metadata.annotations?.[RESOURCE_TEMPLATE_GENERATION_ANNOTATION];
  if (generation !== undefined) metadata.annotations = viewStrings.shared({ [RESOURCE_TEMPLATE_GENERATION_ANNOTATION]: generation });
  // Built by assignment (see workView): conditional spreads gave each view a hidden class of its own.
  const view: KubeObject = { metadata };
  if (obj.apiVersion) view.apiVersion = viewStrings.string(obj.apiVersion);
  if (obj.kind) view.kind = viewStrings.string(obj.kind);
  if (obj.spec !== null && typeof obj.spec === 'object' && !Array.isArray(obj.spec)) view.spec = viewStrings.shared(scalarsOf(obj.spec as Record<string, unknown>));
  if (obj.status !== undefined) view.status = viewStrings.shared(obj.status);
  return view;
}

function scalarsOf(spec: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(spec).filter(([, v]) => v === null || typeof v !== 'object'));
}
