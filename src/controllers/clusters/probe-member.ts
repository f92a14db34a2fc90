// What the controller asks a member, through the member's own Upstream:
// health (/readyz, falling back to /healthz where /readyz is not served, as
// Karmada does), version (/version gitVersion), and Nodes and Pods for the
// resource summary. Pods are listed in pages and tallied as they come, never
// held all at once: a busy member may run tens of thousands.
import type { KubeList, KubeObject } from '../../core/types.ts';
import type { Upstream } from '../../kube/upstream.ts';
import type { ProbeOutcome } from './ready-condition.ts';
import { buildAllocatable, buildNodeSummary, createPodTally } from './resource-summary.ts';
import type { ClusterStatus } from '../../core/propagation/karmada-types.ts';

export async function probeHealth(member: Upstream): Promise<ProbeOutcome> {
  try {
    let answer = await member.request('GET', '/readyz');
    if (answer.status === 404) answer = await member.request('GET', '/healthz');
    return { online: true, healthy: answer.status === 200 };
  } catch {
    // Connection refused, reset, TLS failure or deadline: nobody answered.
    return { online: false, healthy: false };
  }
}

export async function readKubernetesVersion(member: Upstream): Promise<string | undefined> {
  try {
    const answer = await member.request<{ gitVersion?: string }>('GET', '/version');
    return answer.status === 200 ? answer.body?.gitVersion : undefined;
  } catch {
    return undefined;
  }
}

async function eachPage(member: Upstream, path: string, onItems: (items: KubeObject[]) => void, pageSize: number): Promise<void> {
  let token = '';
  do {
    const query = new URLSearchParams({ limit: String(pageSize) });
    if (token) query.set('continue', token);
    const answer = await member.request<KubeList>('GET', `${path}?${query.toString()}`);
    if (answer.status !== 200) throw new Error(`GET ${path}: HTTP ${answer.status}`);
    onItems(answer.body.items ?? []);
    token = answer.body.metadata?.continue ?? '';
  } while (token);
}

/** nodeSummary and resourceSummary; undefined when the member would not list them (the old summary is kept). */
export async function readResourceSummary(member: Upstream, pageSize = 500): Promise<Pick<ClusterStatus, 'nodeSummary' | 'resourceSummary'> | undefined> {
  try {
    const nodes: KubeObject[] = [];
    await eachPage(member, '/api/v1/nodes', (items) => nodes.push(...items), pageSize);
    const tally = createPodTally();
    await eachPage(member, '/api/v1/pods', (items) => items.forEach((pod) => tally.add(pod)), pageSize);
    return {
      nodeSummary: buildNodeSummary(nodes),
      resourceSummary: { allocatable: buildAllocatable(nodes), allocating: tally.allocating(), allocated: tally.allocated() },
    };
  } catch {
    return undefined;
  }
}
