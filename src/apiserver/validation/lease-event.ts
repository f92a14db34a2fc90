// Lease and core/v1 Event checks.
import type { StatusCause } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import { invalidValue, required } from './field-errors.ts';
import { subdomainName } from './object-name.ts';
import { isQualifiedName } from './name-rules.ts';
import { hasTime, takesClusterScopedReference } from '../../core/event-scope-rule.ts';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (isObject(v) ? v : {});

export function validateLease(obj: Obj): StatusCause[] {
  const spec = rec(obj.spec);
  const causes: StatusCause[] = [];
  const duration = spec.leaseDurationSeconds;
  if (typeof duration === 'number' && duration <= 0) causes.push(invalidValue('spec.leaseDurationSeconds', duration, 'must be greater than 0'));
  const transitions = spec.leaseTransitions;
  if (typeof transitions === 'number' && transitions < 0) causes.push(invalidValue('spec.leaseTransitions', transitions, 'must be greater than or equal to 0'));
  return causes;
}

/** Length limits of an Event with eventTime (kube's ReportingInstanceLengthLimit, ActionLengthLimit, ...). */
const LIMITS: ReadonlyArray<readonly [field: string, path: string, limit: number]> = [
  ['reportingInstance', 'reportingInstance', 128], ['action', 'action', 128], ['reason', 'reason', 128],
];
const NOTE_LIMIT = 1024;

/**
 * kube's legacyValidateEvent, which every Event write passes, through either API. An Event without
 * eventTime (the old kind) only needs involvedObject's namespace to agree with its own (an empty one: the
 * Event in "default"); one with eventTime
 * (the new kind, written through either API) also needs its reporting controller and instance, action and
 * reason. Fields are named as kube's Go fields: core's `reportingComponent` is `reportingController`.
 */
export function validateEvent(obj: Obj): StatusCause[] {
  if (!isObject(obj.involvedObject)) return [required('involvedObject')];
  const causes: StatusCause[] = [];
  const eventNs = String(rec(obj.metadata).namespace ?? '');
  const objNs = String(obj.involvedObject.namespace ?? '');
  if (!hasTime(obj.eventTime)) {
    // An Event about a cluster-scoped object (no involvedObject namespace) is in "default" (kube 1.20 refuses it
    // anywhere else); any other names its own namespace as the object's.
    if (objNs === '' ? !takesClusterScopedReference(eventNs, false) : objNs !== eventNs) {
      causes.push(invalidValue('involvedObject.namespace', objNs, 'does not match event.namespace'));
    }
    return causes;
  }
  if (objNs === '' && !takesClusterScopedReference(eventNs, true)) {
    causes.push(invalidValue('involvedObject.namespace', objNs, 'does not match event.namespace'));
  }
  const controller = text(obj.reportingComponent);
  if (controller === '') causes.push(required('reportingController'));
  for (const msg of isQualifiedName(controller)) causes.push(invalidValue('reportingController', controller, msg));
  for (const [field, path, limit] of LIMITS) {
    const value = text(obj[field]);
    if (value === '') causes.push(required(path));
    if (bytes(value) > limit) causes.push(invalidValue(path, '', `can have at most ${limit} characters`));
  }
  if (bytes(text(obj.message)) > NOTE_LIMIT) causes.push(invalidValue('message', '', `can have at most ${NOTE_LIMIT} characters`));
  return causes;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Go's len(string): bytes. */
function bytes(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

/**
 * events.k8s.io/v1 creates get ValidateObjectMeta with NameIsDNSSubdomain on top of the legacy checks
 * (kube's ValidateEventCreate; v1 and v1beta1 requests skip it "for backwards compatibility"), so the same
 * Event name is refused there and stored through v1. `name` is the name as created (generated if need be).
 */
export function eventsV1NameCauses(generateName: string | undefined, name: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (generateName) for (const msg of subdomainName(generateName, true)) causes.push(invalidValue('metadata.generateName', generateName, msg));
  if (name) for (const msg of subdomainName(name, false)) causes.push(invalidValue('metadata.name', name, msg));
  return causes;
}
