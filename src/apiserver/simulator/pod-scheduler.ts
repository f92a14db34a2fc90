// A minimal kube-scheduler: the least-loaded ready, schedulable node that matches
// the pod's nodeSelector (ties broken by name, which spreads pods round-robin).
// Affinity, taints and resource fit are not evaluated, and capacity (pods: 110)
// is not enforced: member clusters in benchmarks hold far more pods than 3 nodes
// would admit, and they must still report Ready.
import type { KubeObject } from '../../core/types.ts';
import { labelsMatch } from './labels-match.ts';

export interface SchedulingResult {
  nodeName?: string;
  /** The scheduler's message when no node fits. */
  message?: string;
}

function isReadySchedulable(node: KubeObject): boolean {
  if ((node.spec as { unschedulable?: boolean } | undefined)?.unschedulable) return false;
  const conditions = (node.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions;
  return conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

export function pickNode(nodes: Iterable<KubeObject>, podSpec: { nodeSelector?: Record<string, string> }, loadOf: (nodeName: string) => number): SchedulingResult {
  let best: { name: string; load: number } | undefined;
  let total = 0;
  let mismatched = 0;
  let unready = 0;
  for (const node of nodes) {
    total++;
    const name = node.metadata.name ?? '';
    if (!labelsMatch(podSpec.nodeSelector, node.metadata.labels)) { mismatched++; continue; }
    if (!isReadySchedulable(node)) { unready++; continue; }
    const load = loadOf(name);
    if (!best || load < best.load || (load === best.load && name < best.name)) best = { name, load };
  }
  if (best) return { nodeName: best.name };
  const reasons: string[] = [];
  if (mismatched) reasons.push(`${mismatched} node(s) didn't match Pod's node affinity/selector`);
  if (unready) reasons.push(`${unready} node(s) were unschedulable`);
  const detail = reasons.length ? ` ${reasons.join(', ')}.` : '';
  return { message: `0/${total} nodes are available:${detail} preemption: 0/${total} nodes are available: ${total} Preemption is not helpful for scheduling.` };
}
