// How many more replicas a member can take: Karmada's general estimator, which reads the
// Cluster's status.resourceSummary (allocatable − allocated − allocating).
//   - no resourceSummary → 0; the pod count left bounds everything (allocatable pods must be reported);
//   - per requested resource: floor(available / request), cpu in millicores, others in whole units,
//     both rounded up first as Quantity.Value()/MilliValue() do; a requested resource the cluster
//     does not report as allocatable → 0; zero requests are ignored;
//   - no requirements → the pod count left.
import type { Cluster, ReplicaRequirements, ResourceList } from '../karmada-types.ts';
import { ceilScaled, parseQuantity, subtract, type Rational } from './quantity.ts';

export const MAX_INT32 = 2_147_483_647;

const ZERO: Rational = { num: 0n, den: 1n };

function quantityOf(list: ResourceList | undefined, name: string): Rational | undefined {
  const text = list?.[name];
  return text === undefined ? undefined : parseQuantity(text);
}

function toInt32(n: bigint): number {
  if (n <= 0n) return 0;
  return n > BigInt(MAX_INT32) ? MAX_INT32 : Number(n);
}

export function availableReplicas(cluster: Cluster, requirements?: ReplicaRequirements): number {
  const summary = cluster.status?.resourceSummary;
  if (!summary) return 0;
  const pods = (list: ResourceList | undefined): bigint => ceilScaled(quantityOf(list, 'pods') ?? ZERO, 1n);
  let maximum = pods(summary.allocatable) - pods(summary.allocated) - pods(summary.allocating);
  if (maximum <= 0n) return 0;
  if (!requirements) return toInt32(maximum);

  for (const [name, text] of Object.entries(requirements.resourceRequest ?? {})) {
    const request = parseQuantity(text);
    if (!request || ceilScaled(request, 1n) <= 0n) continue;
    const allocatable = quantityOf(summary.allocatable, name);
    if (!allocatable) return 0;
    const available = subtract(subtract(allocatable, quantityOf(summary.allocated, name) ?? ZERO),
      quantityOf(summary.allocating, name) ?? ZERO);
    if (ceilScaled(available, 1n) <= 0n) return 0;
    const scale = name === 'cpu' ? 1000n : 1n;
    const fits = ceilScaled(available, scale) / ceilScaled(request, scale);
    if (fits < maximum) maximum = fits;
  }
  return toInt32(maximum);
}

/**
 * Karmada's calAvailableReplicas for the whole candidate list: a non-workload (replicas 0)
 * never limits, and an unbounded estimate counts as `replicas` so sums cannot overflow.
 */
export function estimateAvailable(clusters: readonly Cluster[], replicas: number,
  requirements?: ReplicaRequirements): Map<string, number> {
  const out = new Map<string, number>();
  for (const cluster of clusters) {
    const name = cluster.metadata.name ?? '';
    if (replicas === 0) { out.set(name, MAX_INT32); continue; }
    const n = availableReplicas(cluster, requirements);
    out.set(name, n === MAX_INT32 ? replicas : n);
  }
  return out;
}
