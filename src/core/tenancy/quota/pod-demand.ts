// What one pod asks for, as kube's ResourceQuota counts requests.cpu and
// requests.memory: the propagation engine's pod sum (containers, raised to the
// largest init container, plus overhead: core/propagation/workload/resource-requests.ts),
// after kube's defaulting: a container that sets a limit but no request for a
// resource gets the limit as its request, so it counts the limit.
import { podRequests } from '../../propagation/workload/resource-requests.ts';
import { quantityOf, ZERO, type Rational } from './quantity-math.ts';

export interface PodDemand {
  cpu: Rational;
  memory: Rational;
}

type Resources = { requests?: Record<string, unknown>; limits?: Record<string, unknown> };

/** A container with requests defaulted from limits, per resource (kube's defaulting). */
function defaulted(container: unknown): unknown {
  if (typeof container !== 'object' || container === null) return container;
  const resources = (container as { resources?: Resources }).resources;
  if (!resources?.limits) return container;
  const requests: Record<string, unknown> = { ...resources.limits, ...(resources.requests ?? {}) };
  return { ...container, resources: { ...resources, requests } };
}

/** requests.cpu and requests.memory of one pod with this spec. */
export function buildPodDemand(spec: unknown): PodDemand {
  if (typeof spec !== 'object' || spec === null) return { cpu: ZERO, memory: ZERO };
  const s = spec as Record<string, unknown>;
  const withDefaults = {
    ...s,
    containers: Array.isArray(s.containers) ? s.containers.map(defaulted) : [],
    initContainers: Array.isArray(s.initContainers) ? s.initContainers.map(defaulted) : [],
  };
  const sums = podRequests(withDefaults) ?? {};
  return { cpu: quantityOf(sums.cpu) ?? ZERO, memory: quantityOf(sums.memory) ?? ZERO };
}
