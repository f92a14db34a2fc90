// A tenant's recent events for its detail page: the Tenant's own (onboarding
// records them in the host's `default` namespace) and those in each of the
// tenant's namespaces (its pods, Deployments, the engine's binding events).
// Bounded: at most MAX_NAMESPACES namespaces (by name) and MAX_PER_NAMESPACE
// events read from each, so a tenant with hundreds of namespaces costs a
// fixed number of reads; the page shows the newest 50 of what was read.
import type { KubeObject } from '../../core/types.ts';
import type { Upstream } from '../../kube/upstream.ts';

const MAX_NAMESPACES = 20;
const MAX_PER_NAMESPACE = 200;

interface ListAnswer { items?: KubeObject[] }

export async function tenantEvents(upstream: Upstream, tenant: string, upstreamNamespaces: readonly string[]): Promise<KubeObject[]> {
  const selector = encodeURIComponent(`involvedObject.kind=Tenant,involvedObject.name=${tenant}`);
  const reads = [
    `/api/v1/namespaces/default/events?fieldSelector=${selector}`,
    ...[...upstreamNamespaces].sort().slice(0, MAX_NAMESPACES).map((ns) => `/api/v1/namespaces/${encodeURIComponent(ns)}/events?limit=${MAX_PER_NAMESPACE}`),
  ];
  const answers = await Promise.all(reads.map((path) => upstream.request<ListAnswer>('GET', path).catch(() => undefined)));
  // A namespace that went meanwhile (404) or a failed read leaves its events out; the page shows the rest.
  return answers.flatMap((a) => (a?.status === 200 ? a.body.items ?? [] : []));
}
