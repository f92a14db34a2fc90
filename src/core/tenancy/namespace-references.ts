// References to namespaces that are not a plain namespace field, as
// forward/inverse pairs: a label selector over Namespaces (NetworkPolicy
// peers, pod affinity terms) and a cluster DNS name (a Service ExternalName,
// a pod's DNS search domains). Upstream, a selector over Namespaces matches
// every tenant's, and `web.shop.svc.cluster.local` names whichever tenant's
// Service sits in `shop`. Both are narrowed to the tenant's own namespaces:
// the selector ANDs the tenant label (every upstream Namespace a tenant
// creates carries it) and the namespace-name label takes upstream names; the
// DNS name's namespace label is prefixed. The inverse answers undefined for a
// reference that is not the tenant's, so the caller hides the object rather
// than show another tenant's prefix.
import { isObject } from '../types.ts';
import { addPrefix, stripPrefix, TENANT_LABEL } from './tenant-id.ts';

/** Set by the apiserver on every Namespace; upstream it holds the prefixed name (kind-converters.ts). */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

type Selector = Record<string, unknown>;

function mapNameValues(selector: Selector, map: (value: string) => string | undefined): boolean {
  if (isObject(selector.matchLabels)) {
    const value = selector.matchLabels[NAMESPACE_NAME_LABEL];
    if (typeof value === 'string') {
      const mapped = map(value);
      if (mapped === undefined) return false;
      selector.matchLabels[NAMESPACE_NAME_LABEL] = mapped;
    }
  }
  if (Array.isArray(selector.matchExpressions)) {
    for (const e of selector.matchExpressions) {
      if (!isObject(e) || e.key !== NAMESPACE_NAME_LABEL || !Array.isArray(e.values)) continue;
      const values = e.values.map((v) => (typeof v === 'string' ? map(v) : v));
      if (values.some((v) => v === undefined)) return false;
      e.values = values;
    }
  }
  return true;
}

/** A Namespace selector as the tenant wrote it → upstream: only the tenant's namespaces (a copy). */
export function toUpstreamNamespaceSelector(id: string, selector: Selector): Selector {
  const out = structuredClone(selector);
  mapNameValues(out, (v) => addPrefix(id, v));
  out.matchLabels = { ...(isObject(out.matchLabels) ? out.matchLabels : {}), [TENANT_LABEL]: id };
  return out;
}

/** Upstream → tenant; undefined when it is not narrowed to this tenant or names another's namespace. */
export function toTenantNamespaceSelector(id: string, selector: Selector): Selector | undefined {
  if (!isObject(selector.matchLabels) || selector.matchLabels[TENANT_LABEL] !== id) return undefined;
  const out = structuredClone(selector);
  const { [TENANT_LABEL]: _dropped, ...labels } = out.matchLabels as Record<string, unknown>;
  if (Object.keys(labels).length > 0) out.matchLabels = labels;
  else delete out.matchLabels;
  return mapNameValues(out, (v) => stripPrefix(id, v)) ? out : undefined;
}

/**
 * kube's default cluster domain (the kubelet's --cluster-domain, CoreDNS's zone). A name under any
 * other domain is an outside name: `api.svc.example.com` is left as written (it used to be taken for a
 * cluster name and prefixed, issue 13).
 */
export const CLUSTER_DOMAIN = 'cluster.local';

/**
 * Where a cluster DNS name holds a namespace: the label before `svc` or `pod` when that label ends the
 * name or is followed by exactly the cluster domain (`<svc>.<ns>.svc`, `<host>.<svc>.<ns>.svc`,
 * `_p._tcp.<svc>.<ns>.svc`, `<ip>.<ns>.pod`, the search domain `<ns>.svc`, each with or without
 * `.cluster.local` and a final dot); -1 when the name holds none. DNS is case-insensitive: so is this.
 */
export function dnsNamespaceIndex(labels: readonly string[], clusterDomain: string = CLUSTER_DOMAIN): number {
  const domain = clusterDomain.toLowerCase().split('.');
  const end = labels[labels.length - 1] === '' ? labels.length - 1 : labels.length; // a final dot
  for (const tail of [domain.length, 0]) {
    const at = end - 1 - tail;
    if (at < 1) continue;
    const kind = labels[at]?.toLowerCase();
    if (kind !== 'svc' && kind !== 'pod') continue;
    if (domain.every((d, k) => k >= tail || labels[at + 1 + k]?.toLowerCase() === d)) return at - 1;
  }
  return -1;
}

function mapDnsName(name: string, map: (ns: string) => string | undefined): string | undefined {
  const labels = name.split('.');
  const at = dnsNamespaceIndex(labels);
  if (at < 0) return name;
  const ns = map(labels[at]!.toLowerCase());
  if (ns === undefined) return undefined;
  labels[at] = ns;
  return labels.join('.');
}

export function toUpstreamDnsName(id: string, name: string): string {
  return mapDnsName(name, (ns) => addPrefix(id, ns)) ?? name;
}

/** undefined when the name points into a namespace that is not the tenant's. */
export function toTenantDnsName(id: string, name: string): string | undefined {
  return mapDnsName(name, (ns) => stripPrefix(id, ns));
}
