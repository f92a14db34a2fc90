// PriorityClass, PodDisruptionBudget and HorizontalPodAutoscaler checks.
import type { StatusCause } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import { FIELD_IMMUTABLE, forbidden, invalidValue, notSupported, required } from './field-errors.ts';
import { isValidPathSegmentName } from './name-rules.ts';
import { validateLabelSelector } from './label-selector.ts';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (isObject(v) ? v : {});

const HIGHEST_USER_PRIORITY = 1000000000;
const PREEMPTION = ['Never', 'PreemptLowerPriority'];

/** The PriorityClasses kube-apiserver creates at start (scheduling.SystemPriorityClasses); only they go above 1,000,000,000. */
export const SYSTEM_PRIORITY_CLASSES: Readonly<Record<string, { value: number; description: string }>> = {
  'system-node-critical': { value: 2000001000, description: 'Used for system critical pods that must not be moved from their current node.' },
  'system-cluster-critical': { value: 2000000000, description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.' },
};

/** scheduling.IsKnownSystemPriorityClass: why a `system-` class is not one kube creates, or undefined when it is. */
function unknownSystemClass(name: string, value: unknown, globalDefault: unknown): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES[name];
  if (!known) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${name} PriorityClass must be ${known.value}`;
  if (globalDefault === true) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

export function validatePriorityClass(obj: Obj): StatusCause[] {
  const causes: StatusCause[] = [];
  const name = String(rec(obj.metadata).name ?? '');
  const value = obj.value;
  if (typeof value !== 'number') causes.push(required('value'));
  // Worded as 1.20 words it (checked on a real one).
  const notSystem = name.startsWith('system-') ? unknownSystemClass(name, value, obj.globalDefault) : undefined;
  if (notSystem) {
    causes.push(forbidden('metadata.name', `priority class names with 'system-' prefix are reserved for system use only. error: ${notSystem}`));
  } else if (!name.startsWith('system-') && typeof value === 'number' && value > HIGHEST_USER_PRIORITY) {
    causes.push(forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_PRIORITY}`));
  }
  if (obj.preemptionPolicy !== undefined && !PREEMPTION.includes(String(obj.preemptionPolicy))) {
    causes.push(notSupported('preemptionPolicy', obj.preemptionPolicy, PREEMPTION));
  }
  return causes;
}

export function validatePriorityClassUpdate(obj: Obj, old: Obj): StatusCause[] {
  const causes: StatusCause[] = [];
  if (obj.value !== old.value) causes.push(forbidden('value', 'may not be changed in an update.'));
  if ((obj.preemptionPolicy ?? null) !== (old.preemptionPolicy ?? null)) causes.push(invalidValue('preemptionPolicy', obj.preemptionPolicy ?? null, FIELD_IMMUTABLE));
  return causes;
}

function intOrPercent(v: unknown, at: string): StatusCause[] {
  if (typeof v === 'number') return v < 0 ? [invalidValue(at, v, 'must be greater than or equal to 0')] : [];
  if (typeof v === 'string') {
    const m = /^([0-9]+)%$/.exec(v);
    if (!m) return [invalidValue(at, v, "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")];
    if (Number(m[1]) > 100) return [invalidValue(at, v, 'must not be greater than 100%')];
  }
  return [];
}

export function validatePodDisruptionBudget(obj: Obj): StatusCause[] {
  const spec = rec(obj.spec);
  const causes: StatusCause[] = [];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    causes.push(invalidValue('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  }
  causes.push(...intOrPercent(spec.minAvailable, 'spec.minAvailable'), ...intOrPercent(spec.maxUnavailable, 'spec.maxUnavailable'));
  if (spec.selector !== undefined) causes.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  return causes;
}

export function validateHorizontalPodAutoscaler(obj: Obj): StatusCause[] {
  const spec = rec(obj.spec);
  const causes: StatusCause[] = [];
  const ref = rec(spec.scaleTargetRef);
  if (!ref.kind) causes.push(required('spec.scaleTargetRef.kind'));
  else for (const msg of isValidPathSegmentName(String(ref.kind))) causes.push(invalidValue('spec.scaleTargetRef.kind', ref.kind, msg));
  if (!ref.name) causes.push(required('spec.scaleTargetRef.name'));
  else for (const msg of isValidPathSegmentName(String(ref.name))) causes.push(invalidValue('spec.scaleTargetRef.name', ref.name, msg));
  const min = spec.minReplicas;
  const max = typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0;
  if (typeof min === 'number' && min < 1) causes.push(invalidValue('spec.minReplicas', min, 'must be greater than or equal to 1'));
  if (max < 1) causes.push(invalidValue('spec.maxReplicas', max, 'must be greater than 0'));
  if (typeof min === 'number' && max < min) causes.push(invalidValue('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  return causes;
}
