// Which (Cluster)PropagationPolicy claims a resource template, by Karmada's
// rules (pkg/detector: LookForMatchedPolicy, getHighestPriorityPropagationPolicy):
//  1. a PropagationPolicy in the template's namespace beats every ClusterPropagationPolicy;
//  2. within a kind, the higher spec.priority (default 0) wins;
//  3. then the implicit priority: name match > label-selector match > kind-only match;
//  4. then the policy name, ascending.
// Policies being deleted are skipped, as the detector does.
import type { KubeObject } from '../../types.ts';
import type { PropagationPolicy } from '../karmada-types.ts';
import { PRIORITY_MISMATCH, selectorsPriority } from './resource-match.ts';

export interface MatchedPolicy {
  policy: PropagationPolicy;
  /** true for a PropagationPolicy, false for a ClusterPropagationPolicy. */
  namespaced: boolean;
}

export function matchPolicy(
  template: KubeObject,
  namespacePolicies: readonly PropagationPolicy[],
  clusterPolicies: readonly PropagationPolicy[],
): MatchedPolicy | undefined {
  const namespace = template.metadata.namespace;
  if (namespace) {
    const own = namespacePolicies.filter((p) => (p.metadata.namespace ?? namespace) === namespace);
    const best = highestPriority(template, own);
    if (best) return { policy: best, namespaced: true };
  }
  const best = highestPriority(template, clusterPolicies);
  return best ? { policy: best, namespaced: false } : undefined;
}

/** The winner among policies of one kind, or undefined when none selects the template. */
export function highestPriority(template: KubeObject, policies: readonly PropagationPolicy[]): PropagationPolicy | undefined {
  let winner: PropagationPolicy | undefined;
  let winnerExplicit = -Infinity;
  let winnerImplicit = PRIORITY_MISMATCH as number;
  for (const policy of policies) {
    if (policy.metadata.deletionTimestamp) continue;
    const implicit = selectorsPriority(template, policy.spec?.resourceSelectors);
    if (implicit === PRIORITY_MISMATCH) continue;
    const explicit = policy.spec.priority ?? 0;
    const better = explicit > winnerExplicit
      || (explicit === winnerExplicit && implicit > winnerImplicit)
      || (explicit === winnerExplicit && implicit === winnerImplicit && (policy.metadata.name ?? '') < (winner?.metadata.name ?? ''));
    if (better) {
      winner = policy;
      winnerExplicit = explicit;
      winnerImplicit = implicit;
    }
  }
  return winner;
}
