// core/v1 Event ⇄ events.k8s.io/v1 Event. One stored object, two versions, as
// kube-apiserver serves them: events.k8s.io renames the core fields (regarding,
// note, reportingController, deprecated*), both read and write the same store.
import type { KubeObject } from '../types.ts';

export const EVENTS_GROUP = 'events.k8s.io';

type Obj = Record<string, unknown>;

/** [core field, events.k8s.io field]; the rest (action, reason, type, related, reportingInstance, eventTime) keep their names. */
const RENAMED: ReadonlyArray<readonly [string, string]> = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['reportingComponent', 'reportingController'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
];

const SAME = ['action', 'reason', 'type', 'related', 'reportingInstance', 'eventTime', 'series'];

function copyFields(from: Obj, to: Obj, pairs: ReadonlyArray<readonly [string, string]>): void {
  for (const [source, target] of pairs) if (from[source] !== undefined) to[target] = from[source];
}

/** A core/v1 Event (as stored) in events.k8s.io/`version` form. */
export function toEventsV1(core: KubeObject, version = 'v1'): KubeObject {
  const src = core as unknown as Obj;
  const out: Obj = { apiVersion: `${EVENTS_GROUP}/${version}`, kind: 'Event', metadata: core.metadata };
  copyFields(src, out, SAME.map((f) => [f, f] as const));
  copyFields(src, out, RENAMED);
  // kube's MicroTime zero value: a legacy event without eventTime shows it as null.
  if (out.eventTime === undefined) out.eventTime = null;
  if (src.series && typeof src.series === 'object') {
    const { count, lastObservedTime } = src.series as Obj;
    out.series = { ...(count !== undefined ? { count } : {}), ...(lastObservedTime !== undefined ? { lastObservedTime } : {}) };
  }
  return out as unknown as KubeObject;
}

/** An events.k8s.io Event (as written) in core/v1 form, for storage. */
export function toCoreEvent(event: KubeObject): KubeObject {
  const src = event as unknown as Obj;
  const out: Obj = { apiVersion: 'v1', kind: 'Event', metadata: event.metadata };
  copyFields(src, out, SAME.filter((f) => f !== 'eventTime').map((f) => [f, f] as const));
  if (src.eventTime !== undefined && src.eventTime !== null) out.eventTime = src.eventTime;
  copyFields(src, out, RENAMED.map(([a, b]) => [b, a] as const));
  return out as unknown as KubeObject;
}
