// What claims a template: the policy that matches it (Karmada's rules, in
// detector/), else the tenant's default placement, else nothing. The claim
// carries what the binding copies from its policy. Everything here is in the
// tenant's terms: namespaces without the tenant prefix.
import type { KubeObject } from '../../types.ts';
import { matchPolicy } from '../detector/index.ts';
import type { Placement, PropagationPolicy, PropagationSpec } from '../karmada-types.ts';

export interface Claim {
  /** 'PropagationPolicy' | 'ClusterPropagationPolicy' | 'DefaultPlacement' */
  source: 'PropagationPolicy' | 'ClusterPropagationPolicy' | 'DefaultPlacement';
  policyName?: string;
  placement: Placement;
  spec: Pick<PropagationSpec, 'propagateDeps' | 'conflictResolution' | 'preserveResourcesOnDeletion' | 'suspension' | 'failover'>;
}

// Karmada never propagates from its own namespaces nor, by the default of
// --skipped-propagating-namespaces ("kube-.*"), from any kube- one; nor do the
// objects every namespace gets by itself follow a default placement.
const SKIPPED_NAMESPACE = /^(kube-.*|karmada-system|karmada-cluster|karmada-es-.*)$/;
const AUTOMATIC_OBJECTS = new Set(['v1/ConfigMap/kube-root-ca.crt', 'v1/ServiceAccount/default']);

export function isSkippedNamespace(namespace: string): boolean {
  return SKIPPED_NAMESPACE.test(namespace);
}

export function claimOf(
  template: KubeObject,
  namespacePolicies: readonly PropagationPolicy[],
  clusterPolicies: readonly PropagationPolicy[],
  defaultPlacement: Placement | undefined,
): Claim | undefined {
  if (template.metadata.namespace && isSkippedNamespace(template.metadata.namespace)) return undefined;
  // Nor are those namespaces themselves propagated (the tenant's execution spaces among them).
  if (template.apiVersion === 'v1' && template.kind === 'Namespace' && isSkippedNamespace(template.metadata.name ?? '')) return undefined;
  const matched = matchPolicy(template, namespacePolicies, clusterPolicies);
  if (matched) {
    const spec = matched.policy.spec;
    return {
      source: matched.namespaced ? 'PropagationPolicy' : 'ClusterPropagationPolicy',
      policyName: matched.policy.metadata.name ?? '',
      placement: spec.placement ?? {},
      spec: pickDefined({
        propagateDeps: spec.propagateDeps,
        conflictResolution: spec.conflictResolution,
        preserveResourcesOnDeletion: spec.preserveResourcesOnDeletion,
        suspension: spec.suspension,
        failover: spec.failover,
      }),
    };
  }
  const key = `${template.apiVersion ?? ''}/${template.kind ?? ''}/${template.metadata.name ?? ''}`;
  if (defaultPlacement && !AUTOMATIC_OBJECTS.has(key)) return { source: 'DefaultPlacement', placement: defaultPlacement, spec: {} };
  return undefined;
}

function pickDefined<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}
