// The checks kube-apiserver 1.20 adds for an Event created through events.k8s.io/v1 (ValidateEventCreate with
// that request version; core v1 writes skip them "for backwards compatibility"). Updates get the legacy checks
// only on 1.20 (checked: reason and note change through events.k8s.io/v1; newer kube makes them immutable).
// They run on the Event as stored (core fields: events.k8s.io's `note` is `message`, `deprecatedCount` is
// `count`), after the legacy checks every Event passes, in kube's order, so a body with several faults
// gets every cause at once, as on a real server.
import type { StatusCause } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import { invalidValue, required } from './field-errors.ts';
import { eventsV1NameCauses, validateEvent } from './lease-event.ts';
import { hasTime } from '../../core/event-scope-rule.ts';

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
