// The status a kubelet reports for a pod, in the order and wording of kubelet
// 1.29+ (PodReadyToStartContainers first). Pure builders: the previous status is
// passed in so unchanged conditions keep their transition times.
import { setPlainCondition, type WorkloadCondition } from './conditions.ts';

interface Container { name: string; image?: string; resources?: { requests?: Record<string, string>; limits?: Record<string, string> } }
export interface PodSpecLike { containers?: Container[]; initContainers?: Container[]; nodeName?: string }
export interface PodStatusLike {
  phase?: string;
  conditions?: WorkloadCondition[];
  hostIP?: string;
  podIP?: string;
  startTime?: string;
  containerStatuses?: Array<{ state?: { running?: { startedAt?: string }; [state: string]: unknown }; [field: string]: unknown }>;
  [field: string]: unknown;
}

/** Pod QoS class, as kubelet computes it from cpu and memory requests and limits. */
export function qosClass(spec: PodSpecLike): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const containers = [...(spec.containers ?? []), ...(spec.initContainers ?? [])];
  let any = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const limits = c.resources?.limits ?? {};
    // Requests default to limits when only limits are given.
    const requests = { ...limits, ...(c.resources?.requests ?? {}) };
    for (const r of ['cpu', 'memory']) {
      if (requests[r] !== undefined || limits[r] !== undefined) any = true;
      if (limits[r] === undefined || requests[r] !== limits[r]) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

function names(spec: PodSpecLike): string {
  return `[${(spec.containers ?? []).map((c) => c.name).join(' ')}]`;
}

function withConditions(previous: WorkloadCondition[], rows: Array<Omit<WorkloadCondition, 'lastTransitionTime'>>, now: string): WorkloadCondition[] {
  let conditions = previous;
  for (const row of rows) conditions = setPlainCondition(conditions, { ...row, lastProbeTime: null }, now);
  // Keep kubelet's order whatever order the previous status had.
  const order = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];
  return [...conditions].sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
}

export function unschedulableStatus(previous: PodStatusLike, message: string, now: string): PodStatusLike {
  return {
    phase: 'Pending',
    conditions: withConditions(previous.conditions ?? [], [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message }], now),
    qosClass: previous.qosClass,
  };
}

export function pendingStatus(spec: PodSpecLike, previous: PodStatusLike, hostIP: string, now: string): PodStatusLike {
  const unready = `containers with unready status: ${names(spec)}`;
  return {
    phase: 'Pending',
    conditions: withConditions(previous.conditions ?? [], [
      { type: 'PodReadyToStartContainers', status: 'False' },
      { type: 'Initialized', status: 'True' },
      { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: unready },
      { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: unready },
      { type: 'PodScheduled', status: 'True' },
    ], now),
    hostIP,
    hostIPs: [{ ip: hostIP }],
    startTime: previous.startTime ?? now,
    containerStatuses: (spec.containers ?? []).map((c) => ({
      name: c.name, image: c.image ?? '', imageID: '', ready: false, restartCount: 0, started: false,
      state: { waiting: { reason: 'ContainerCreating' } }, lastState: {},
    })),
    qosClass: qosClass(spec),
  };
}

export function runningStatus(spec: PodSpecLike, previous: PodStatusLike, ips: { hostIP: string; podIP: string }, now: string): PodStatusLike {
  const status: PodStatusLike = {
    phase: 'Running',
    conditions: withConditions(previous.conditions ?? [], [
      { type: 'PodReadyToStartContainers', status: 'True' },
      { type: 'Initialized', status: 'True' },
      { type: 'Ready', status: 'True' },
      { type: 'ContainersReady', status: 'True' },
      { type: 'PodScheduled', status: 'True' },
    ], now),
    hostIP: ips.hostIP,
    hostIPs: [{ ip: ips.hostIP }],
    podIP: ips.podIP,
    podIPs: [{ ip: ips.podIP }],
    startTime: previous.startTime ?? now,
    containerStatuses: (spec.containers ?? []).map((c) => ({
      name: c.name, image: c.image ?? '', imageID: '', ready: true, restartCount: 0, started: true,
      state: { running: { startedAt: now } }, lastState: {},
    })),
    qosClass: qosClass(spec),
  };
  if (spec.initContainers?.length) {
    status.initContainerStatuses = spec.initContainers.map((c) => ({
      name: c.name, image: c.image ?? '', imageID: '', ready: true, restartCount: 0, started: false,
      state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: now, finishedAt: now } }, lastState: {},
    }));
  }
  return status;
}

/** A pod whose containers all exited 0 (Job pods). */
export function succeededStatus(spec: PodSpecLike, previous: PodStatusLike, now: string): PodStatusLike {
  const startedAt = previous.containerStatuses?.[0]?.state?.running?.startedAt ?? previous.startTime ?? now;
  return {
    ...previous,
    phase: 'Succeeded',
    conditions: withConditions(previous.conditions ?? [], [
      { type: 'PodReadyToStartContainers', status: 'False' },
      { type: 'Initialized', status: 'True', reason: 'PodCompleted' },
      { type: 'Ready', status: 'False', reason: 'PodCompleted' },
      { type: 'ContainersReady', status: 'False', reason: 'PodCompleted' },
      { type: 'PodScheduled', status: 'True' },
    ], now),
    containerStatuses: (spec.containers ?? []).map((c) => ({
      name: c.name, image: c.image ?? '', imageID: '', ready: false, restartCount: 0, started: false,
      state: { terminated: { exitCode: 0, reason: 'Completed', startedAt, finishedAt: now } }, lastState: {},
    })),
  };
}
