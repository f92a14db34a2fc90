// What the engine-ownership attacks share, on embedded members
// (engine-ownership.test.ts) and on real ones (test/real/isolation-members.ts):
// the Karmada API paths and marks a hostile tenant forges, and acme's victim
// objects (a namespace and a ConfigMap propagated to both members), and the
// hostile globex's own namespace and ConfigMap it propagates.
export const WORK_API = '/apis/work.karmada.io/v1alpha1';
export const BINDING_API = '/apis/work.karmada.io/v1alpha2';
export const PERMANENT_ID = 'resourcebinding.karmada.io/permanent-id';
export const TENANT_LABEL = 'tenancy.warren.dev/tenant';

/** A Karmada policy of this kind, named as the one ConfigMap it selects, with the rest of its spec (YAML lines indented by two). */
export function configMapPolicy(kind: 'PropagationPolicy' | 'OverridePolicy', at: { name: string; namespace: string }, rest: string): string {
  return `apiVersion: policy.karmada.io/v1alpha1
kind: ${kind}
metadata: { name: ${at.name}, namespace: ${at.namespace} }
spec:
  resourceSelectors: [{ apiVersion: v1, kind: ConfigMap, name: ${at.name} }]
${rest}
`;
}

export const ACME_SHOP = `
apiVersion: v1
kind: Namespace
metadata: { name: shop }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: settings, namespace: shop }
data: { owner: acme }
---
${configMapPolicy('PropagationPolicy', { name: 'settings', namespace: 'shop' }, '  placement: { clusterAffinity: { clusterNames: [member1, member2] } }')}`;

/** globex's namespace `app` and its ConfigMap `cfg`: what each attack file adds its policy (and more) to. */
export const GLOBEX_CFG = `
apiVersion: v1
kind: Namespace
metadata: { name: app }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: cfg, namespace: app }
data: { owner: globex }
`;

/** globex's ConfigMap propagated to both members (its Tenant allows member2 only). */
export const GLOBEX_APP = `${GLOBEX_CFG}---
${configMapPolicy('PropagationPolicy', { name: 'cfg', namespace: 'app' }, '  placement: { clusterAffinity: { clusterNames: [member1, member2] } }')}`;

/** What a ResourceBinding's aggregated status says of one cluster's apply (the engine's reason a copy was refused). */
export function appliedMessageOf(binding: unknown, cluster: string): string | undefined {
  const agg = (binding as { status?: { aggregatedStatus?: Array<{ clusterName?: string; appliedMessage?: string }> } } | undefined)?.status?.aggregatedStatus ?? [];
  return agg.find((a) => a.clusterName === cluster)?.appliedMessage;
}
