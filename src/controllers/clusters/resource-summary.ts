// status.nodeSummary and status.resourceSummary of a Cluster, as Karmada's
// cluster status controller computes them (getNodeSummary, getResourceSummary):
//   allocatable = the sum of every Node's status.allocatable;
//   allocated   = requests of Pods bound to a node and not Succeeded/Failed
//                 (kube-scheduler stops counting those), plus their number as "pods";
//   allocating  = requests of Pods not yet bound.
// A Pod's request is the sum over its containers, raised to any larger init
// container's, plus spec.overhead: what kube-scheduler reserves for it.
// Pods arrive page by page (a member may hold many), so the tally is incremental.
import type { KubeObject } from '../../core/types.ts';
import type { ResourceList } from '../../core/propagation/karmada-types.ts';
import { quantityNumber } from '../../core/quantity.ts';
import { formatQuantity } from './quantity.ts';

type Amounts = Map<string, number>;

interface PodLike extends KubeObject {
  spec?: {
    nodeName?: string;
    containers?: Array<{ resources?: { requests?: Record<string, unknown> } }>;
    initContainers?: Array<{ resources?: { requests?: Record<string, unknown> } }>;
    overhead?: Record<string, unknown>;
  };
  status?: { phase?: string };
}

interface NodeLike extends KubeObject {
  status?: { allocatable?: Record<string, unknown>; conditions?: Array<{ type: string; status: string }> };
}

function add(into: Amounts, list: Record<string, unknown> | undefined, times = 1): void {
  for (const [name, raw] of Object.entries(list ?? {})) {
    const value = quantityNumber(raw);
    if (value !== undefined) into.set(name, (into.get(name) ?? 0) + value * times);
  }
}

export function podRequests(pod: PodLike): Amounts {
  const sum: Amounts = new Map();
  for (const c of pod.spec?.containers ?? []) add(sum, c.resources?.requests);
  for (const c of pod.spec?.initContainers ?? []) {
    const init: Amounts = new Map();
    add(init, c.resources?.requests);
    for (const [name, value] of init) if (value > (sum.get(name) ?? 0)) sum.set(name, value);
  }
  add(sum, pod.spec?.overhead);
  return sum;
}

function toList(amounts: Amounts, podCount: number): ResourceList {
  const list: ResourceList = { cpu: formatQuantity('cpu', amounts.get('cpu') ?? 0), memory: formatQuantity('memory', amounts.get('memory') ?? 0) };
  for (const [name, value] of [...amounts].sort(([a], [b]) => a.localeCompare(b))) {
    if (name !== 'cpu' && name !== 'memory' && name !== 'pods') list[name] = formatQuantity(name, value);
  }
  list.pods = String(podCount);
  return list;
}

export function buildNodeSummary(nodes: readonly NodeLike[]): { totalNum: number; readyNum: number } {
  const readyNum = nodes.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
  return { totalNum: nodes.length, readyNum };
}

export function buildAllocatable(nodes: readonly NodeLike[]): ResourceList {
  const sum: Amounts = new Map();
  for (const node of nodes) add(sum, node.status?.allocatable);
  const list: ResourceList = {};
  for (const [name, value] of [...sum].sort(([a], [b]) => a.localeCompare(b))) list[name] = formatQuantity(name, value);
  return list;
}

export interface PodTally {
  add(pod: PodLike): void;
  allocated(): ResourceList;
  allocating(): ResourceList;
}

export function createPodTally(): PodTally {
  const allocated: Amounts = new Map();
  const allocating: Amounts = new Map();
  let bound = 0;
  let pending = 0;
  return {
    add(pod) {
      const phase = pod.status?.phase;
      const requests = podRequests(pod);
      if (!pod.spec?.nodeName) {
        for (const [name, value] of requests) allocating.set(name, (allocating.get(name) ?? 0) + value);
        pending++;
      } else if (phase !== 'Succeeded' && phase !== 'Failed') {
        for (const [name, value] of requests) allocated.set(name, (allocated.get(name) ?? 0) + value);
        bound++;
      }
    },
    allocated: () => toList(allocated, bound),
    allocating: () => toList(allocating, pending),
  };
}
