// Cluster taints against placement.clusterTolerations, with Kubernetes' toleration
// semantics (v1helper.ToleratesTaint / FindMatchingUntoleratedTaint):
//   - a toleration with an effect only matches taints of that effect;
//   - a toleration with a key only matches that key; an empty key with Exists matches all;
//   - Exists ignores the value; Equal (or no operator) needs the same value.
// Karmada's TaintToleration filter looks only at NoSchedule and NoExecute taints;
// PreferNoSchedule never filters.
import type { Taint, TaintEffect, Toleration } from '../karmada-types.ts';

const FILTERING_EFFECTS: readonly TaintEffect[] = ['NoSchedule', 'NoExecute'];

export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? 'Equal') {
    case 'Exists': return true;
    case 'Equal': return (toleration.value ?? '') === (taint.value ?? '');
    default: return false;
  }
}

/** The first NoSchedule/NoExecute taint no toleration covers, in the cluster's order. */
export function findUntoleratedTaint(tolerations: readonly Toleration[] | undefined,
  taints: readonly Taint[] | undefined): Taint | undefined {
  return (taints ?? []).find((taint) => FILTERING_EFFECTS.includes(taint.effect)
    && !(tolerations ?? []).some((t) => toleratesTaint(t, taint)));
}

/** True when every NoSchedule and NoExecute taint is tolerated. */
export function toleratesTaints(tolerations: readonly Toleration[] | undefined, taints: readonly Taint[] | undefined): boolean {
  return findUntoleratedTaint(tolerations, taints) === undefined;
}

/** corev1.Taint.ToString: "key=value:Effect", or "key:Effect" without a value. */
export function formatTaint(taint: Taint): string {
  return taint.value ? `${taint.key}=${taint.value}:${taint.effect}` : `${taint.key}:${taint.effect}`;
}
