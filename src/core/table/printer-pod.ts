// The pod printer (printPod): READY counts, the STATUS reason from init and
// app container states, RESTARTS with "(5m ago)", and the wide columns.
import type { KubeObject } from '../types.ts';
import { ageSince } from './human-duration.ts';
import { arr, int, rec, str } from './cell-format.ts';
import { AGE_COLUMN, NAME_COLUMN, col, type Printer, type TableRowCondition } from './table-types.ts';

type Obj = Record<string, unknown>;

const isRestartableInit = (c: Obj | undefined): boolean => c?.restartPolicy === 'Always';

function terminatedReason(t: Obj, prefix: string): string {
  if (str(t.reason)) return `${prefix}${str(t.reason)}`;
  return int(t.signal) !== 0 ? `${prefix}Signal:${int(t.signal)}` : `${prefix}ExitCode:${int(t.exitCode)}`;
}

interface Tally { restarts: number; lastRestart: number }

function noteRestart(t: Tally, status: Obj): void {
  t.restarts += int(status.restartCount);
  const finished = Date.parse(str(rec(rec(status.lastState).terminated).finishedAt));
  if (!Number.isNaN(finished) && finished > t.lastRestart) t.lastRestart = finished;
}

export function podStatusCells(pod: KubeObject, now: Date): { ready: string; reason: string; restarts: string } {
  const spec = rec(pod.spec);
  const status = rec(pod.status);
  const conditions = arr(status.conditions).map(rec);
  let reason = str(status.reason) || str(status.phase);
  if (conditions.some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) reason = 'SchedulingGated';
  const initSpecs = new Map(arr(spec.initContainers).map(rec).map((c) => [str(c.name), c]));
  let total = arr(spec.containers).length + [...initSpecs.values()].filter(isRestartableInit).length;
  let ready = 0;
  const all: Tally = { restarts: 0, lastRestart: 0 };
  const sidecars: Tally = { restarts: 0, lastRestart: 0 };
  let initializing = false;
  const initStatuses = arr(status.initContainerStatuses).map(rec);
  for (const [i, c] of initStatuses.entries()) {
    noteRestart(all, c);
    const restartable = isRestartableInit(initSpecs.get(str(c.name)));
    if (restartable) noteRestart(sidecars, c);
    const state = rec(c.state);
    const terminated = state.terminated ? rec(state.terminated) : undefined;
    const waiting = state.waiting ? rec(state.waiting) : undefined;
    if (terminated && int(terminated.exitCode) === 0) continue;
    if (restartable && c.started === true) {
      if (c.ready === true) ready++;
      continue;
    }
    if (terminated) reason = terminatedReason(terminated, 'Init:');
    else if (waiting && str(waiting.reason) && waiting.reason !== 'PodInitializing') reason = `Init:${str(waiting.reason)}`;
    else reason = `Init:${i}/${initSpecs.size}`;
    initializing = true;
    break;
  }
  const initialized = conditions.some((c) => c.type === 'Initialized' && c.status === 'True');
  let tally = all;
  if (!initializing || initialized) {
    tally = sidecars;
    let hasRunning = false;
    const statuses = arr(status.containerStatuses).map(rec);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i] as Obj;
      noteRestart(tally, c);
      const state = rec(c.state);
      const waiting = rec(state.waiting);
      const terminated = state.terminated ? rec(state.terminated) : undefined;
      if (str(waiting.reason)) reason = str(waiting.reason);
      else if (terminated) reason = terminatedReason(terminated, '');
      else if (c.ready === true && state.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = conditions.some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
    }
  }
  if (pod.metadata.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && status.phase !== 'Succeeded' && status.phase !== 'Failed') reason = 'Terminating';
  total = Math.max(total, 0);
  let restarts = String(tally.restarts);
  if (tally.restarts !== 0 && tally.lastRestart !== 0) {
    restarts = `${tally.restarts} (${ageSince(new Date(tally.lastRestart).toISOString(), now)} ago)`;
  }
  return { ready: `${ready}/${total}`, reason, restarts };
}

function readinessGates(pod: KubeObject): string {
  const gates = arr(rec(pod.spec).readinessGates).map(rec);
  if (gates.length === 0) return '<none>';
  const conditions = arr(rec(pod.status).conditions).map(rec);
  const trueCount = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True').length;
  return `${trueCount}/${gates.length}`;
}

export const podPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    col('Status', 'string', 'The aggregate status of the containers in this pod.'),
    col('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    AGE_COLUMN,
    col('IP', 'string', 'podIP is the IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', 1),
    col('Node', 'string', 'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename', 1),
    col('Nominated Node', 'string', 'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.', 1),
    col('Readiness Gates', 'string', 'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates', 1),
  ],
  cells(pod, now) {
    const { ready, reason, restarts } = podStatusCells(pod, now);
    const status = rec(pod.status);
    const ip = str(rec(arr(status.podIPs)[0]).ip) || '<none>';
    return [
      pod.metadata.name ?? '', ready, reason, restarts, ageSince(pod.metadata.creationTimestamp, now),
      ip, str(rec(pod.spec).nodeName) || '<none>', str(status.nominatedNodeName) || '<none>', readinessGates(pod),
    ];
  },
  conditions(pod): TableRowCondition[] | undefined {
    const phase = rec(pod.status).phase;
    if (phase === 'Succeeded') return [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
    if (phase === 'Failed') return [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];
    return undefined;
  },
};
