// Lease and core/v1 Event checks.
import type { StatusCause } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import { invalidValue, required } from './field-errors.ts';
import { subdomainName } from './object-name.ts';

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

/**
 * The legacy Event API only insists that involvedObject's namespace agrees
 * with the event's own (events about cluster-scoped objects live in "default").
 */
export function validateEvent(obj: Obj): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!isObject(obj.involvedObject)) return [required('involvedObject')];
  const involved = obj.involvedObject;
  const eventNs = String(rec(obj.metadata).namespace ?? '');
  const objNs = String(involved.namespace ?? '');
  if (objNs !== '' && objNs !== eventNs) causes.push(invalidValue('involvedObject.namespace', objNs, 'does not match event.namespace'));
  return causes;
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
