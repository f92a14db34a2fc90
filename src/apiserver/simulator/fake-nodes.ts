// kwok-style fake nodes: what a healthy kubelet on a 32-core, 256Gi linux/amd64
// machine would report. Nodes are marked with kwok's annotation so a kwok-aware
// tool (and our pod reconciler) knows their pods are simulated. Unlike kwok we
// put no NoSchedule taint on them: tenants' workloads must land without tolerations.
import { ApiError } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import type { ResourceApi } from '../registry/resource-api.ts';
import { kubeTime, type WorkloadCondition } from './conditions.ts';
import { DEFS } from './sim-context.ts';

export const FAKE_NODE_ANNOTATION = 'kwok.x-k8s.io/node';
const MANAGER = 'kwok';

export function fakeNodeName(index: number): string {
  return `sim-node-${index}`;
}

export function isSimulatedNode(node: KubeObject | undefined): boolean {
  return node?.metadata.annotations?.[FAKE_NODE_ANNOTATION] === 'fake';
}

/** The node object (metadata and spec) for sim-node-<index>, index from 1. */
export function buildFakeNode(index: number): KubeObject {
  const name = fakeNodeName(index);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      annotations: { [FAKE_NODE_ANNOTATION]: 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/role': 'agent',
        'node-role.kubernetes.io/agent': '',
        'node.kubernetes.io/instance-type': 'kwok',
        type: 'kwok',
      },
    },
    spec: { podCIDR: podCidr(index), podCIDRs: [podCidr(index)] },
  };
}

export function podCidr(index: number): string {
  return `10.${100 + (index % 150)}.0.0/16`;
}

export function nodeInternalIp(index: number): string {
  return `10.0.${Math.floor(index / 250)}.${(index % 250) + 2}`;
}

/** Kubelet's four node conditions, healthy, all heartbeating at `now`. */
export function fakeNodeStatus(index: number, kubeletVersion: string, previous: WorkloadCondition[] | undefined, now: string): Record<string, unknown> {
  const resources = { cpu: '32', memory: '256Gi', pods: '110', 'ephemeral-storage': '100Gi' };
  const rows: Array<[string, 'True' | 'False', string, string]> = [
    ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
    ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
    ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
    ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
  ];
  const conditions = rows.map(([type, status, reason, message]) => {
    const old = previous?.find((c) => c.type === type);
    const since = old && old.status === status ? old.lastTransitionTime ?? now : now;
    return { type, status, lastHeartbeatTime: now, lastTransitionTime: since, reason, message };
  });
  return {
    capacity: resources,
    allocatable: resources,
    conditions,
    addresses: [
      { type: 'InternalIP', address: nodeInternalIp(index) },
      { type: 'Hostname', address: fakeNodeName(index) },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      architecture: 'amd64',
      bootID: '',
      containerRuntimeVersion: 'kwok://fake',
      kernelVersion: '',
      kubeProxyVersion: kubeletVersion,
      kubeletVersion,
      machineID: '',
      operatingSystem: 'linux',
      osImage: '',
      systemUUID: '',
    },
    phase: 'Running',
  };
}

function indexOf(node: KubeObject): number | undefined {
  const match = /^sim-node-(\d+)$/.exec(node.metadata.name ?? '');
  return match ? Number(match[1]) : undefined;
}

/** Creates missing sim nodes and (re)writes every sim node's status: start-up and heartbeats. */
export function ensureFakeNodes(api: ResourceApi, count: number, kubeletVersion: string, now: string = kubeTime()): void {
  for (let index = 1; index <= count; index++) {
    let node: KubeObject;
    try {
      node = api.get(DEFS.nodes, '', fakeNodeName(index));
    } catch (err) {
      if (!(err instanceof ApiError && err.reason === 'NotFound')) throw err;
      node = api.create(DEFS.nodes, '', buildFakeNode(index), { fieldManager: MANAGER });
    }
    heartbeat(api, node, kubeletVersion, now);
  }
}

/** Writes the node's status with fresh heartbeat times, re-reading on conflicts (up to 10 tries). */
export function heartbeat(api: ResourceApi, node: KubeObject, kubeletVersion: string, now: string = kubeTime()): void {
  const index = indexOf(node);
  if (index === undefined || !isSimulatedNode(node)) return;
  for (let attempt = 0; ; attempt++) {
    const previous = (node.status as { conditions?: WorkloadCondition[] } | undefined)?.conditions;
    const status = fakeNodeStatus(index, kubeletVersion, previous, now);
    try {
      api.update(DEFS.nodes, '', node.metadata.name ?? '', { ...node, status }, { fieldManager: MANAGER, subresource: 'status' });
      return;
    } catch (err) {
      if (attempt >= 9 || !(err instanceof ApiError && err.reason === 'Conflict')) throw err;
      node = api.get(DEFS.nodes, '', node.metadata.name ?? '');
    }
  }
}
