// A replica's resource request, as Karmada's GenerateReplicaRequirements sums it
// (util.Resource.AddPodTemplateRequest, after kube's PodRequests): the sum over
// containers, raised to any single init container's request that is larger
// (init containers run one at a time), plus the pod overhead.
// Quantities are summed exactly (the scheduler's rational parser) and printed
// as an integer when whole, otherwise in millis rounded up ("1500m").
import { parseQuantity } from '../scheduler/quantity.ts';
import type { Rational } from '../scheduler/quantity.ts';
import type { ResourceList } from '../karmada-types.ts';

type Sums = Map<string, Rational>;

function requestsOf(container: unknown): Sums {
  const out: Sums = new Map();
  const requests = (container as { resources?: { requests?: Record<string, unknown> } } | null)?.resources?.requests;
  for (const [name, text] of Object.entries(requests ?? {})) {
    const q = typeof text === 'string' ? parseQuantity(text) : typeof text === 'number' ? parseQuantity(String(text)) : undefined;
    if (q) out.set(name, q);
  }
  return out;
}

function add(a: Rational, b: Rational): Rational {
  return { num: a.num * b.den + b.num * a.den, den: a.den * b.den };
}

function greater(a: Rational, b: Rational): boolean {
  return a.num * b.den > b.num * a.den;
}

export function format(q: Rational): string {
  if (q.num % q.den === 0n) return String(q.num / q.den);
  const milli = q.num * 1000n;
  const ceil = milli > 0n ? (milli + q.den - 1n) / q.den : milli / q.den;
  return `${ceil}m`;
}

/** Per-replica requests of a pod spec; undefined when nothing is requested. */
export function podRequests(spec: Record<string, unknown>): ResourceList | undefined {
  const total: Sums = new Map();
  for (const c of Array.isArray(spec.containers) ? spec.containers : []) {
    for (const [k, v] of requestsOf(c)) total.set(k, add(total.get(k) ?? { num: 0n, den: 1n }, v));
  }
  for (const c of Array.isArray(spec.initContainers) ? spec.initContainers : []) {
    for (const [k, v] of requestsOf(c)) {
      const cur = total.get(k);
      if (!cur || greater(v, cur)) total.set(k, v);
    }
  }
  for (const [k, v] of Object.entries((spec.overhead ?? {}) as Record<string, unknown>)) {
    const q = typeof v === 'string' ? parseQuantity(v) : undefined;
    if (q) total.set(k, add(total.get(k) ?? { num: 0n, den: 1n }, q));
  }
  if (total.size === 0) return undefined;
  const out: ResourceList = {};
  for (const k of [...total.keys()].sort()) out[k] = format(total.get(k) as Rational);
  return out;
}
