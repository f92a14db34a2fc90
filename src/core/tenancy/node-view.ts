// A tenant's read-only view of nodes (ADR 30): virtual nodes, one for each node
// its own pods are bound to, built from those pods alone. Nothing is read from
// the upstream Node objects, so nothing of them can leak by construction: not
// the host's labels, addresses, taints or provider ID, not the images other
// tenants pulled (status.images), not the volumes attached for them, not a
// capacity or an allocatable that says how big the host is. A node shows only
// while one of the tenant's pods is bound to it; its name is the pod's
// spec.nodeName, which the tenant reads on its pods anyway.
import { createHash } from 'node:crypto';
import { badRequest } from '../api-error.ts';
import type { KubeObject } from '../types.ts';
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector } from '../selectors/index.ts';

/** Marks a node as virtual (vcluster marks its fake nodes the same way). */
export const VIRTUAL_NODE_LABEL = 'warren.dev/virtual-node';

/**
 * What every virtual node reports. Fixed on purpose: real figures would tell
 * the host's size, and a free figure (capacity minus requests) would move with
 * other tenants' pods.
 */
export const VIRTUAL_NODE_CAPACITY: Readonly<Record<string, string>> = { cpu: '8', memory: '32Gi', pods: '110', 'ephemeral-storage': '100Gi' };

export interface NodeViewOptions {
  tenantId: string;
  /** The upstream's gitVersion, shown as the kubelet's (what `kubectl get nodes` prints in VERSION). */
  kubeletVersion: string;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function rvNumber(value: unknown): number {
  const n = Number(str(value));
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/** A stable uid per tenant and node name: another tenant's node of the same name has another uid. */
function virtualUid(tenantId: string, nodeName: string): string {
  const h = createHash('sha256').update(`warren/virtual-node/${tenantId}/${nodeName}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

interface NodeSeed { name: string; created: string; rv: number }

/** The nodes the tenant's pods are bound to, with the earliest pod and latest version of each. */
function seedsOf(pods: readonly KubeObject[]): NodeSeed[] {
  const seeds = new Map<string, NodeSeed>();
  for (const pod of pods) {
    const name = str((pod.spec as Record<string, unknown> | undefined)?.nodeName);
    if (name === '') continue;
    const created = str(pod.metadata?.creationTimestamp);
    const rv = rvNumber(pod.metadata?.resourceVersion);
    const seen = seeds.get(name);
    if (!seen) seeds.set(name, { name, created, rv });
    else {
      if (created !== '' && (seen.created === '' || created < seen.created)) seen.created = created;
      seen.rv = Math.max(seen.rv, rv);
    }
  }
  return [...seeds.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function virtualNode(seed: NodeSeed, options: NodeViewOptions): KubeObject {
  const since = seed.created || new Date(0).toISOString().replace(/\.\d+Z$/, 'Z');
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: seed.name,
      uid: virtualUid(options.tenantId, seed.name),
      resourceVersion: String(seed.rv),
      creationTimestamp: since,
      labels: {
        'kubernetes.io/hostname': seed.name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        [VIRTUAL_NODE_LABEL]: 'true',
      },
    },
    spec: {},
    status: {
      capacity: { ...VIRTUAL_NODE_CAPACITY },
      allocatable: { ...VIRTUAL_NODE_CAPACITY },
      conditions: [{
        type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'virtual node: the tenant\'s pods run here',
        lastHeartbeatTime: since, lastTransitionTime: since,
      }],
      addresses: [{ type: 'Hostname', address: seed.name }],
      daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
      nodeInfo: {
        machineID: '', systemUUID: '', bootID: '', kernelVersion: '', osImage: '', containerRuntimeVersion: '',
        kubeletVersion: options.kubeletVersion, kubeProxyVersion: options.kubeletVersion, operatingSystem: 'linux', architecture: 'amd64',
      },
    },
  };
}

/** The tenant's virtual nodes, by name, from its own pods (any namespace, any spelling: only spec.nodeName and metadata are read). */
export function virtualNodes(pods: readonly KubeObject[], options: NodeViewOptions): KubeObject[] {
  return seedsOf(pods).map((seed) => virtualNode(seed, options));
}

/** Node fields kube-apiserver accepts in a field selector (others are a 400, as there). */
function nodeField(node: KubeObject, field: string): string | undefined {
  switch (field) {
    case 'metadata.name': return str(node.metadata?.name);
    case 'metadata.namespace': return '';
    case 'spec.unschedulable': return (node.spec as Record<string, unknown> | undefined)?.unschedulable === true ? 'true' : 'false';
    default: return undefined;
  }
}

export interface NodeSelection {
  labelSelector?: string | null;
  fieldSelector?: string | null;
}

/** Builds a matcher from a request's selectors; throws 400 for an unsupported field, as kube does. */
export function nodeMatcher(selection: NodeSelection): (node: KubeObject) => boolean {
  const labels = parseLabelSelector(selection.labelSelector ?? '');
  const fields = parseFieldSelector(selection.fieldSelector ?? '');
  for (const req of fields) {
    if (!['metadata.name', 'metadata.namespace', 'spec.unschedulable'].includes(req.field)) {
      throw badRequest(`field label not supported: ${req.field}`);
    }
  }
  return (node) => matchesLabels(labels, node.metadata?.labels) && matchesFields(fields, (field) => nodeField(node, field));
}

/** The list's resourceVersion: the pods' list version, so a watch from it starts where the list ended. */
export function nodeListVersion(nodes: readonly KubeObject[], podListVersion: string | undefined): string {
  if (podListVersion && rvNumber(podListVersion) > 0) return podListVersion;
  return String(nodes.reduce((max, n) => Math.max(max, rvNumber(n.metadata?.resourceVersion)), 0));
}
