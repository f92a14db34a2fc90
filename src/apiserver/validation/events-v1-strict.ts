// The checks kube-apiserver adds for an Event written through events.k8s.io/v1 (ValidateEventCreate /
// ValidateEventUpdate with that request version; core v1 writes skip them "for backwards compatibility").
// They run on the Event as stored (core fields: events.k8s.io's `note` is `message`, `deprecatedCount` is
// `count`), after the legacy checks every Event passes, in kube's order, so a body with several faults
// gets every cause at once, as on a real server.
import type { StatusCause } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import { FIELD_IMMUTABLE, invalidValue, required } from './field-errors.ts';
import { eventsV1NameCauses, hasTime, validateEvent } from './lease-event.ts';
import { jsonEqual } from '../../core/json-equal.ts';

type Obj = Record<string, unknown>;

const TYPES = ['Normal', 'Warning'];

/** A core v1 Event field that events.k8s.io/v1 writes must leave unset, as kube names it. */
const UNSET: ReadonlyArray<readonly [field: string, path: string]> = [
  ['firstTimestamp', 'firstTimestamp'], ['lastTimestamp', 'lastTimestamp'], ['count', 'count'], ['source', 'source'],
];

/** Every cause of an events.k8s.io/v1 create; `name` is the name as created (generated if need be). */
export function eventsV1CreateCauses(core: Obj, generateName: string | undefined, name: string): StatusCause[] {
  const causes = validateEvent(core);
  causes.push(...eventsV1NameCauses(generateName, name));
  causes.push(...seriesCauses(core));
  if (!hasTime(core.eventTime)) causes.push(required('eventTime'));
  if (!TYPES.includes(String(core.type ?? ''))) causes.push(invalidValue('type', '', `has invalid value: ${String(core.type ?? '')}`));
  for (const [field, path] of UNSET) if (isSet(core[field])) causes.push(invalidValue(path, '', 'needs to be unset'));
  return causes;
}

/**
 * Fields an events.k8s.io/v1 update may not change (the string and number ones; kube prints the others
 * as Go structs). `reason` twice: kube's list checks it twice.
 */
const IMMUTABLE: ReadonlyArray<readonly [field: string, path: string]> = [
  ['reason', 'reason'], ['message', 'message'], ['count', 'count'], ['reason', 'reason'], ['type', 'type'],
  ['action', 'action'], ['reportingComponent', 'reportingController'], ['reportingInstance', 'reportingInstance'],
];

/** The causes an events.k8s.io/v1 update adds to the legacy ones (metadata is checked by the registry as for any write). */
export function eventsV1UpdateCauses(core: Obj, old: Obj): StatusCause[] {
  const causes = validateEvent(core);
  if (!jsonEqual(core.series ?? null, old.series ?? null)) causes.push(...seriesCauses(core));
  for (const [field, path] of IMMUTABLE) {
    const [now, before] = [core[field] ?? zeroOf(old[field]), old[field] ?? zeroOf(core[field])];
    if (now !== before) causes.push(invalidValue(path, now, FIELD_IMMUTABLE));
  }
  return causes;
}

function seriesCauses(core: Obj): StatusCause[] {
  if (!isObject(core.series)) return [];
  const causes: StatusCause[] = [];
  const count = core.series.count;
  if (typeof count !== 'number' || count < 2) causes.push(invalidValue('series.count', '', 'should be at least 2'));
  if (!hasTime(core.series.lastObservedTime)) causes.push(required('series.lastObservedTime'));
  return causes;
}

/** Set in Go terms: a zero value (0, "", an empty struct) is unset. */
function isSet(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 0) return false;
  if (isObject(value)) return Object.values(value).some(isSet);
  return true;
}

/** Go's zero value of a field's type, for a side that omits it. */
function zeroOf(other: unknown): unknown {
  return typeof other === 'number' ? 0 : '';
}
