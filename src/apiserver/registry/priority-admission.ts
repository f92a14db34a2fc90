// kube-apiserver's Priority admission (plugin/pkg/admission/priority, as 1.20 runs it; checked on a
// real 1.20): a pod's priority is the server's to compute, never the client's.
//   - create: spec.priority comes from spec.priorityClassName's PriorityClass, or from the class marked
//     globalDefault (its name is written into the pod), or 0; preemptionPolicy likewise. A class that
//     does not exist is a 403; a client-given priority or preemptionPolicy that differs from the
//     computed one is a 403 (a forged priority would let a pod preempt others).
//   - update: a body without them keeps the stored ones (validation then refuses any change).
//   - PriorityClass create/update: a second globalDefault class is a 403.
// Mutating admission runs before validation, so these 403s come before any 422.
import { ApiError } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';

type Obj = Record<string, unknown>;

/** The stored PriorityClasses (cluster-scoped). */
export type PriorityClasses = () => KubeObject[];

export interface PriorityAdmissionInput {
  def: Pick<ResourceDef, 'group' | 'resource'>;
  obj: KubeObject;
  old: KubeObject | undefined;
  subresource: string | undefined;
  classes: PriorityClasses;
  /** The name the request gave (a create's generateName when it gave none): kube's 403 names it so. */
  requestName: string;
}

/** kube's value when no class is marked globalDefault (scheduling.DefaultPriorityWhenNoDefaultClassExists). */
const NO_DEFAULT_PRIORITY = 0;
const PREEMPT_LOWER = 'PreemptLowerPriority';

/** Mutating: the pod as admitted (a new object when something was set), or throws the plugin's 403. */
export function admitPodPriority(input: PriorityAdmissionInput): KubeObject {
  const { def, obj, old, subresource } = input;
  if (subresource || def.group !== '' || def.resource !== 'pods' || !isObject(obj.spec)) return obj;
  return old ? keepStored(obj, old) : resolveOnCreate(obj, input);
}

/** Validating: a PriorityClass may be globalDefault only while no other one is. */
export function admitPriorityClass(input: PriorityAdmissionInput): void {
  const { def, obj, old, subresource } = input;
  if (subresource || def.group !== 'scheduling.k8s.io' || def.resource !== 'priorityclasses' || obj.globalDefault !== true) return;
  const current = defaultClass(input.classes());
  if (current && (!old || current.metadata.name !== obj.metadata.name)) {
    throw new ApiError('Forbidden', `priorityclasses.scheduling.k8s.io "${input.requestName}" is forbidden: PriorityClass ${current.metadata.name ?? ''} is already marked as default. Only one default can exist`, {
      name: input.requestName, group: 'scheduling.k8s.io', kind: 'priorityclasses',
    });
  }
}

function keepStored(obj: KubeObject, old: KubeObject): KubeObject {
  const spec = obj.spec as Obj;
  const before = isObject(old.spec) ? old.spec : {};
  const kept: Obj = {};
  for (const field of ['priority', 'preemptionPolicy']) {
    if ((spec[field] === undefined || spec[field] === null) && before[field] !== undefined) kept[field] = before[field];
  }
  return Object.keys(kept).length === 0 ? obj : { ...obj, spec: { ...spec, ...kept } };
}

function resolveOnCreate(obj: KubeObject, { classes, requestName }: PriorityAdmissionInput): KubeObject {
  const spec = obj.spec as Obj;
  const given = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
  let className = given;
  let priority = NO_DEFAULT_PRIORITY;
  let policy: unknown = PREEMPT_LOWER;
  if (given === '') {
    const fallback = defaultClass(classes());
    if (fallback) {
      className = fallback.metadata.name ?? '';
      priority = Number(fallback.value);
      policy = fallback.preemptionPolicy;
    }
  } else {
    const found = classes().find((c) => c.metadata.name === given);
    if (!found) throw refused(requestName, `no PriorityClass with name ${given} was found`);
    priority = Number(found.value);
    policy = found.preemptionPolicy;
  }
  if (spec.priority !== undefined && spec.priority !== null && spec.priority !== priority) {
    throw refused(requestName, `the integer value of priority (${String(spec.priority)}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`);
  }
  const out: Obj = { ...spec, priority };
  if (className !== given) out.priorityClassName = className;
  if (typeof policy === 'string') {
    if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== null && spec.preemptionPolicy !== policy) {
      throw refused(requestName, `the string value of PreemptionPolicy (${String(spec.preemptionPolicy)}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`);
    }
    out.preemptionPolicy = policy;
  }
  return { ...obj, spec: out };
}

/** The globalDefault class; of several (a race kube allows), the one with the lowest value, as kube picks. */
function defaultClass(classes: KubeObject[]): KubeObject | undefined {
  let chosen: KubeObject | undefined;
  for (const c of classes) {
    if (c.globalDefault !== true) continue;
    if (!chosen || Number(chosen.value) > Number(c.value)) chosen = c;
  }
  return chosen;
}

/** admission.NewForbidden: the request's name, else the generateName, names the pod. */
function refused(requestName: string, why: string): ApiError {
  const name = requestName || 'Unknown';
  return new ApiError('Forbidden', `pods "${name}" is forbidden: ${why}`, { name, kind: 'pods' });
}
