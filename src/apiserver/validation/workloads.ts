// Deployment, ReplicaSet, StatefulSet, DaemonSet, Job and CronJob
// (pkg/apis/apps/validation, pkg/apis/batch/validation).
import type { StatusCause } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import { FIELD_IMMUTABLE, forbidden, invalidValue, notSupported, required } from './field-errors.ts';
import { isEmptySelector, selectorMatches, validateLabelSelector, type LabelSelector } from './label-selector.ts';
import { validatePodTemplateSpec } from './pod-spec.ts';
import { validateCronSchedule } from './cron-schedule.ts';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (isObject(v) ? v : {});

// kube's own wording: ReplicaSet and Deployment share one helper, so both say "ReplicaSet" here.
const KIND_WORDS: Record<string, string> = { deployment: 'ReplicaSet', replicaset: 'ReplicaSet', daemonset: 'DaemonSet', statefulset: 'StatefulSet' };

function nonNegative(value: unknown, field: string): StatusCause[] {
  return typeof value === 'number' && value < 0 ? [invalidValue(field, value, 'must be greater than or equal to 0')] : [];
}

/** Selector required, non-empty, and matching the template labels (ValidatePodTemplateSpecForReplicaSet). */
function validateSelectedTemplate(spec: Obj, base: string, kindWord: string, restartAlways: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  const selector = spec.selector;
  if (selector === undefined || selector === null) causes.push(required(`${base}.selector`));
  else {
    causes.push(...validateLabelSelector(selector, `${base}.selector`));
    if (isObject(selector) && isEmptySelector(selector as LabelSelector)) {
      causes.push(invalidValue(`${base}.selector`, selector, `empty selector is invalid for ${kindWord}`));
    }
  }
  const template = rec(spec.template);
  const labels = rec(rec(template.metadata).labels) as Record<string, string>;
  // A missing selector matches nothing (labels.Nothing()), so kube reports both errors.
  const sel = isObject(selector) ? (selector as LabelSelector) : undefined;
  if (!sel || !isEmptySelector(sel)) {
    if (!sel || !selectorMatches(sel, labels)) {
      causes.push(invalidValue(`${base}.template.metadata.labels`, rec(template.metadata).labels ?? null, '`selector` does not match template `labels`'));
    }
  }
  causes.push(...validatePodTemplateSpec(template, `${base}.template`));
  const tspec = rec(template.spec);
  if (restartAlways && tspec.restartPolicy !== undefined && tspec.restartPolicy !== 'Always') {
    causes.push(notSupported(`${base}.template.spec.restartPolicy`, tspec.restartPolicy, ['Always']));
  }
  if (restartAlways && tspec.activeDeadlineSeconds !== undefined) {
    causes.push(forbidden(`${base}.template.spec.activeDeadlineSeconds`, `activeDeadlineSeconds in ${KIND_WORDS[kindWord] ?? kindWord} is not Supported`));
  }
  return causes;
}

export function validateDeployment(obj: Obj): StatusCause[] {
  const spec = rec(obj.spec);
  const causes = [...nonNegative(spec.replicas, 'spec.replicas'), ...validateSelectedTemplate(spec, 'spec', 'deployment', true)];
  const strategy = rec(spec.strategy);
  if (strategy.type !== undefined && !['Recreate', 'RollingUpdate'].includes(String(strategy.type))) {
    causes.push(notSupported('spec.strategy.type', strategy.type, ['Recreate', 'RollingUpdate']));
  }
  if (strategy.type === 'Recreate' && strategy.rollingUpdate !== undefined) {
    causes.push(forbidden('spec.strategy.rollingUpdate', 'may not be specified when strategy `type` is \'Recreate\''));
  }
  causes.push(...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  causes.push(...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  return causes;
}

export function validateReplicaSet(obj: Obj): StatusCause[] {
  const spec = rec(obj.spec);
  return [...nonNegative(spec.replicas, 'spec.replicas'), ...validateSelectedTemplate(spec, 'spec', 'deployment', true)];
}

export function validateDaemonSet(obj: Obj): StatusCause[] {
  return validateSelectedTemplate(rec(obj.spec), 'spec', 'daemonset', true);
}

export function validateStatefulSet(obj: Obj): StatusCause[] {
  const spec = rec(obj.spec);
  const causes = [...nonNegative(spec.replicas, 'spec.replicas'), ...validateSelectedTemplate(spec, 'spec', 'statefulset', true)];
  const pmp = spec.podManagementPolicy;
  if (pmp !== undefined && !['OrderedReady', 'Parallel'].includes(String(pmp))) {
    causes.push(notSupported('spec.podManagementPolicy', pmp, ['OrderedReady', 'Parallel']));
  }
  return causes;
}

function validateJobSpec(specRaw: unknown, base: string): StatusCause[] {
  const spec = rec(specRaw);
  const causes: StatusCause[] = [];
  for (const f of ['parallelism', 'completions', 'backoffLimit', 'activeDeadlineSeconds', 'ttlSecondsAfterFinished']) {
    causes.push(...nonNegative(spec[f], `${base}.${f}`));
  }
  if (spec.selector !== undefined) causes.push(...validateLabelSelector(spec.selector, `${base}.selector`));
  causes.push(...validatePodTemplateSpec(spec.template, `${base}.template`));
  const restart = rec(rec(spec.template).spec).restartPolicy;
  if (restart !== 'OnFailure' && restart !== 'Never') {
    causes.push(notSupported(`${base}.template.spec.restartPolicy`, restart ?? '', ['OnFailure', 'Never']));
  }
  return causes;
}

export function validateJob(obj: Obj): StatusCause[] {
  return validateJobSpec(obj.spec, 'spec');
}

export function validateCronJob(obj: Obj): StatusCause[] {
  const spec = rec(obj.spec);
  const causes: StatusCause[] = [];
  const schedule = spec.schedule;
  if (typeof schedule !== 'string' || schedule === '') causes.push(required('spec.schedule'));
  else {
    const err = validateCronSchedule(schedule);
    if (err) causes.push(invalidValue('spec.schedule', schedule, err));
  }
  const policy = spec.concurrencyPolicy;
  if (policy !== undefined && !['Allow', 'Forbid', 'Replace'].includes(String(policy))) {
    causes.push(notSupported('spec.concurrencyPolicy', policy, ['Allow', 'Forbid', 'Replace']));
  }
  causes.push(...nonNegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  causes.push(...nonNegative(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'));
  causes.push(...nonNegative(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'));
  causes.push(...validateJobSpec(rec(spec.jobTemplate).spec, 'spec.jobTemplate.spec'));
  return causes;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** apps/v1 selectors are immutable once set (Deployment, ReplicaSet, DaemonSet). */
export function validateSelectorUpdate(obj: Obj, old: Obj): StatusCause[] {
  const sel = rec(obj.spec).selector;
  return same(sel, rec(old.spec).selector) ? [] : [invalidValue('spec.selector', sel ?? null, FIELD_IMMUTABLE)];
}

const STS_MUTABLE = ['replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

export function validateStatefulSetUpdate(obj: Obj, old: Obj): StatusCause[] {
  const strip = (s: Obj): Obj => Object.fromEntries(Object.entries(s).filter(([k]) => !STS_MUTABLE.includes(k)).sort(([a], [b]) => a.localeCompare(b)));
  if (same(strip(rec(obj.spec)), strip(rec(old.spec)))) return [];
  return [forbidden('spec', "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden")];
}

/** A Job's selector and pod template cannot change after creation (suspended-job exceptions not modelled). */
export function validateJobUpdate(obj: Obj, old: Obj): StatusCause[] {
  const causes: StatusCause[] = [];
  const spec = rec(obj.spec);
  const was = rec(old.spec);
  if (!same(spec.selector, was.selector)) causes.push(invalidValue('spec.selector', spec.selector ?? null, FIELD_IMMUTABLE));
  if (!same(spec.completions, was.completions)) causes.push(invalidValue('spec.completions', spec.completions ?? null, FIELD_IMMUTABLE));
  if (!same(spec.template, was.template)) causes.push(invalidValue('spec.template', spec.template ?? null, FIELD_IMMUTABLE));
  return causes;
}
