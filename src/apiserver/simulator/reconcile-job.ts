// Job controller: keeps up to `parallelism` pods running until `completions`
// pods have succeeded (Indexed jobs: one success per index), then marks the Job
// with SuccessCriteriaMet and Complete, as 1.31+ does. Job pods succeed on their
// own after jobPodRunMs (see reconcile-pod.ts); failures and backoff are not
// simulated, and pods carry no job-tracking finalizer.
import type { KubeObject } from '../../core/types.ts';
import { buildPod, createPodWithRandomSuffix, CONTROLLER_MANAGER, type PodTemplate } from './build-pod.ts';
import { findCondition, kubeTime, setPlainCondition, type WorkloadCondition } from './conditions.ts';
import { canonicalJson } from './kube-hash.ts';
import { DEFS, isActivePod, isPodReady, isTerminating, ownerRef, type SimContext } from './sim-context.ts';

const INDEX_KEY = 'batch.kubernetes.io/job-completion-index';
const DONE_MESSAGE = 'Reached expected number of succeeded pods';

interface JobSpec {
  parallelism?: number;
  completions?: number | null;
  completionMode?: 'NonIndexed' | 'Indexed';
  suspend?: boolean;
  template?: PodTemplate;
}

function phaseOf(pod: KubeObject): string | undefined {
  return (pod.status as { phase?: string } | undefined)?.phase;
}

function indexOf(pod: KubeObject): number {
  return Number(pod.metadata.annotations?.[INDEX_KEY] ?? pod.metadata.labels?.[INDEX_KEY] ?? -1);
}

/** "0-2,5,7-8", the form of status.completedIndexes. */
export function compressIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const first = sorted[i]!;
    let last = first;
    while (sorted[i + 1] === last + 1) last = sorted[++i]!;
    parts.push(first === last ? String(first) : `${first}-${last}`);
  }
  return parts.join(',');
}

function isFinished(job: KubeObject): boolean {
  const conditions = (job.status as { conditions?: WorkloadCondition[] } | undefined)?.conditions;
  return ['Complete', 'Failed'].some((type) => findCondition(conditions, type)?.status === 'True');
}

export function reconcileJob(ctx: SimContext, namespace: string, name: string): void {
  const job = ctx.caches.jobs.get(namespace, name);
  if (!job || isTerminating(job) || isFinished(job)) return;
  const spec = (job.spec ?? {}) as JobSpec;
  const parallelism = spec.parallelism ?? 1;
  // Unset completions with unset parallelism means 1; with parallelism set, a work queue (null).
  const completions = spec.completions === undefined ? (spec.parallelism === undefined ? 1 : null) : spec.completions;
  const indexed = spec.completionMode === 'Indexed' && completions !== null;
  const uid = job.metadata.uid ?? '';
  const pods = ctx.caches.pods.byIndex('owner', uid);
  const active = pods.filter(isActivePod);
  const succeededPods = pods.filter((p) => phaseOf(p) === 'Succeeded');
  const doneIndexes = new Set(succeededPods.map(indexOf).filter((i) => i >= 0));
  const succeeded = indexed ? doneIndexes.size : succeededPods.length;
  const complete = completions === null ? succeeded >= 1 && active.length === 0 : succeeded >= completions;

  if (spec.suspend || complete) {
    for (const pod of active) ctx.writer.delete(DEFS.pods, pod);
  } else {
    const remaining = completions === null ? (succeeded > 0 ? 0 : parallelism) : completions - succeeded;
    const want = Math.min(parallelism, remaining);
    const owner = ownerRef(job, 'batch/v1', 'Job');
    const labels = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': name, 'controller-uid': uid, 'job-name': name };
    if (indexed) {
      const busy = new Set(active.map(indexOf));
      const missing: number[] = [];
      for (let i = 0; i < (completions ?? 0) && missing.length < want - active.length; i++) if (!doneIndexes.has(i) && !busy.has(i)) missing.push(i);
      for (const index of missing) {
        const mark = { [INDEX_KEY]: String(index) };
        createPodWithRandomSuffix(ctx, `${name}-${index}-`, (podName) => buildPod({ template: spec.template ?? {}, namespace, name: podName, generateName: `${name}-${index}-`, owner, labels: { ...labels, ...mark }, annotations: mark }));
      }
    } else {
      for (let i = active.length; i < want; i++) {
        createPodWithRandomSuffix(ctx, `${name}-`, (podName) => buildPod({ template: spec.template ?? {}, namespace, name: podName, generateName: `${name}-`, owner, labels }));
      }
    }
  }
  writeStatus(ctx, job, { indexed, succeeded, complete, doneIndexes, suspended: spec.suspend ?? false });
}

function writeStatus(ctx: SimContext, job: KubeObject, facts: { indexed: boolean; succeeded: number; complete: boolean; doneIndexes: Set<number>; suspended: boolean }): void {
  const now = kubeTime();
  const previous = (job.status ?? {}) as { startTime?: string; conditions?: WorkloadCondition[] };
  const active = ctx.caches.pods.byIndex('owner', job.metadata.uid ?? '').filter(isActivePod);
  const status: Record<string, unknown> = {};
  if (facts.complete) status.completionTime = now;
  let conditions = previous.conditions ?? [];
  if (facts.suspended) conditions = setPlainCondition(conditions, { type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended', lastProbeTime: now }, now);
  else if (findCondition(conditions, 'Suspended')) conditions = setPlainCondition(conditions, { type: 'Suspended', status: 'False', reason: 'JobResumed', message: 'Job resumed', lastProbeTime: now }, now);
  if (facts.complete) {
    for (const type of ['SuccessCriteriaMet', 'Complete']) conditions = setPlainCondition(conditions, { type, status: 'True', reason: 'CompletionsReached', message: DONE_MESSAGE, lastProbeTime: now }, now);
  }
  if (conditions.length) status.conditions = conditions;
  if (active.length && !facts.complete) status.active = active.length;
  if (facts.indexed && facts.doneIndexes.size) status.completedIndexes = compressIndexes(facts.doneIndexes);
  status.ready = facts.complete ? 0 : active.filter(isPodReady).length;
  // startTime is set once the Job first runs (and reset by suspension, which we do not model).
  if (!facts.suspended || previous.startTime) status.startTime = previous.startTime ?? now;
  if (facts.succeeded) status.succeeded = facts.succeeded;
  status.terminating = 0;
  status.uncountedTerminatedPods = {};
  if (canonicalJson(status) === canonicalJson(job.status ?? {})) return;
  ctx.writer.updateStatus(DEFS.jobs, { ...job, status }, CONTROLLER_MANAGER);
}
