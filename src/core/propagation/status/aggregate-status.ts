// The template's status from its members' reflected statuses, per kind
// (Karmada resourceinterpreter/default/native/aggregatestatus.go).
// Returns the template's new status, or undefined for kinds Warren does not
// aggregate (their template status is left alone).
import type { KubeObject } from '../../types.ts';
import type { AggregatedStatusItem } from '../karmada-types.ts';
import { aggregateCronJobStatus, aggregateJobStatus } from './aggregate-job.ts';
import { SUM_RULES, aggregateReplicaStatus } from './aggregate-replicas.ts';
import { collectLoadBalancerIngress } from './load-balancer.ts';
import { deploymentConditions } from './deployment-conditions.ts';
import { int, rec } from './status-fields.ts';
import type { Json } from './status-fields.ts';

export interface AggregateOptions {
  /** RFC 3339 time for new Job and Deployment conditions (core code does not read the clock). */
  now?: string;
}

export function aggregateStatus(template: KubeObject, items: readonly AggregatedStatusItem[], options: AggregateOptions = {}): Record<string, unknown> | undefined {
  const t = template as unknown as Json;
  const kind = template.kind ?? '';
  const now = options.now ?? new Date(0).toISOString();
  const sum = SUM_RULES[kind];
  if (sum) {
    const out = aggregateReplicaStatus(sum, t, items);
    if (kind === 'Deployment') {
      const conditions = deploymentConditions(rec(t.status), items, now);
      if (conditions) out.conditions = conditions;
    }
    return out;
  }
  switch (kind) {
    case 'Job': return aggregateJobStatus(t, items, now);
    case 'CronJob': return aggregateCronJobStatus(t, items);
    case 'Service':
      return rec(t.spec).type === 'LoadBalancer' ? { loadBalancer: { ingress: collectLoadBalancerIngress(items) } } : (t.status as Json | undefined);
    case 'Ingress': return { loadBalancer: { ingress: collectLoadBalancerIngress(items) } };
    case 'PersistentVolumeClaim': return { ...rec(t.status), phase: pvcPhase(items) };
    // Karmada leaves a Pod with no member status yet as it is.
    case 'Pod': return items.length === 0 ? (t.status as Json | undefined) : podStatus(items);
    case 'PodDisruptionBudget': return pdbStatus(items);
    case 'HorizontalPodAutoscaler': return hpaStatus(items);
    default: return undefined;
  }
}

/** Bound unless some member is not; Lost wins outright. */
function pvcPhase(items: readonly AggregatedStatusItem[]): string {
  let phase = 'Bound';
  for (const item of items) {
    if (!item.status) continue;
    const p = item.status.phase;
    if (p === 'Lost') return 'Lost';
    if (typeof p === 'string' && p !== 'Bound') phase = p;
  }
  return phase;
}

// Failed > Pending > Running > Succeeded; a member with no status yet counts as Pending.
const POD_PHASE_ORDER = ['Failed', 'Pending', 'Running', 'Succeeded'];

/** Each container's readiness and state, nothing else (Karmada keeps these two). */
function containerStates(list: unknown): Json[] {
  return (Array.isArray(list) ? list : []).map((cs) => {
    const c = rec(cs);
    const entry: Json = { ready: c.ready === true };
    if (c.state !== undefined) entry.state = c.state;
    return entry;
  });
}

function podStatus(items: readonly AggregatedStatusItem[]): Json {
  const phases = new Set<string>();
  const containerStatuses: Json[] = [];
  const initContainerStatuses: Json[] = [];
  for (const item of items) {
    if (!item.status) { phases.add('Pending'); continue; }
    if (typeof item.status.phase === 'string') phases.add(item.status.phase);
    containerStatuses.push(...containerStates(item.status.containerStatuses));
    initContainerStatuses.push(...containerStates(item.status.initContainerStatuses));
  }
  const out: Json = {};
  const phase = POD_PHASE_ORDER.find((p) => phases.has(p));
  if (phase) out.phase = phase;
  if (containerStatuses.length > 0) out.containerStatuses = containerStatuses;
  if (initContainerStatuses.length > 0) out.initContainerStatuses = initContainerStatuses;
  return out;
}

function pdbStatus(items: readonly AggregatedStatusItem[]): Json {
  const out: Json = { currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, disruptionsAllowed: 0 };
  const disrupted: Json = {};
  for (const item of items) {
    if (!item.status) continue;
    for (const k of ['currentHealthy', 'desiredHealthy', 'expectedPods', 'disruptionsAllowed']) out[k] = int(out[k]) + int(item.status[k]);
    for (const [pod, time] of Object.entries(rec(item.status.disruptedPods))) disrupted[`${item.clusterName}/${pod}`] = time;
  }
  if (Object.keys(disrupted).length > 0) out.disruptedPods = disrupted;
  return out;
}

/** Karmada sums the two replica counts and keeps nothing else (metrics and conditions are per member). */
function hpaStatus(items: readonly AggregatedStatusItem[]): Json {
  let current = 0;
  let desired = 0;
  for (const item of items) {
    if (!item.status) continue;
    current += int(item.status.currentReplicas);
    desired += int(item.status.desiredReplicas);
  }
  return { ...(current !== 0 ? { currentReplicas: current } : {}), desiredReplicas: desired };
}
