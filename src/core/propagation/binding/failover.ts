// Cluster failover, as Karmada's taint manager does it: a cluster that carries
// a NoExecute taint the placement does not tolerate loses its replicas; one
// tolerated for tolerationSeconds loses them once that time has passed since
// the taint was added. The not-ready and unreachable taints are tolerated for
// a default time when the policy says nothing of them (Karmada's webhook adds
// those tolerations to every policy).
import { toleratesTaint } from '../scheduler/taint-toleration.ts';
import { TAINT_NOT_READY, TAINT_UNREACHABLE, type Cluster, type Taint, type TargetCluster, type Toleration } from '../karmada-types.ts';

export interface Evictions {
  /** Clusters whose replicas must move now. */
  evict: string[];
  /** When to look again: the earliest toleration still running out. */
  recheckAfterMs?: number;
}

export function defaultTolerations(tolerations: readonly Toleration[] | undefined, seconds: number): Toleration[] {
  const list = [...(tolerations ?? [])];
  for (const key of [TAINT_NOT_READY, TAINT_UNREACHABLE]) {
    const named = list.some((t) => t.key === key && (t.effect === undefined || t.effect === 'NoExecute'));
    if (!named) list.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
  }
  return list;
}

/** How long to look again at a cluster whose health is not confirmed yet (its controller's first probe is seconds away). */
export const UNCONFIRMED_RECHECK_MS = 1_000;

/**
 * `confirmed` says whether a cluster's taints describe its health as observed now; absent, all do.
 * Taints nobody has confirmed since a restart are what the previous process saw (a member that was
 * down then may be up now): acting on them evicts healthy clusters. Such a cluster is not evicted
 * yet, only looked at again shortly.
 */
export function evictions(scheduled: readonly TargetCluster[], clusters: ReadonlyMap<string, Cluster>, tolerations: readonly Toleration[], now: Date,
  confirmed: (name: string) => boolean = () => true): Evictions {
  const evict: string[] = [];
  let recheck: number | undefined;
  for (const target of scheduled) {
    const cluster = clusters.get(target.name);
    if (!cluster) continue; // a removed cluster is the scheduler's concern, not failover's
    const noExecute = (cluster.spec.taints ?? []).some((t) => t.effect === 'NoExecute');
    if (noExecute && !confirmed(target.name)) {
      recheck = recheck === undefined ? UNCONFIRMED_RECHECK_MS : Math.min(recheck, UNCONFIRMED_RECHECK_MS);
      continue;
    }
    for (const taint of cluster.spec.taints ?? []) {
      if (taint.effect !== 'NoExecute') continue;
      const remaining = remainingToleration(taint, tolerations, now);
      if (remaining === 'forever') continue;
      if (remaining <= 0) {
        evict.push(target.name);
        break;
      }
      recheck = recheck === undefined ? remaining : Math.min(recheck, remaining);
    }
  }
  return recheck === undefined ? { evict } : { evict, recheckAfterMs: recheck };
}

// The first toleration that matches the taint decides, as in Karmada's
// GetMatchingTolerations: a later, longer one does not extend it.
function remainingToleration(taint: Taint, tolerations: readonly Toleration[], now: Date): number | 'forever' {
  const t = tolerations.find((x) => toleratesTaint(x, taint));
  if (!t) return 0;
  if (t.tolerationSeconds === undefined) return 'forever';
  const since = taint.timeAdded ? Date.parse(taint.timeAdded) : now.getTime();
  return since + Math.max(0, t.tolerationSeconds) * 1000 - now.getTime();
}
