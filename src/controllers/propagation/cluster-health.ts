// Whether the engine's copy of a Cluster says how the member is now (issue 14,
// item 10). After a restart the engine lists Clusters as the previous process
// left them: a member that was down then still carries its NoExecute taints
// (added long ago, so every toleration has run out) until the restarted
// cluster controller probes it, a few seconds later. Failover acting on that
// copy evicted every member of every binding at once ("0/0 clusters are
// available"), however healthy the members were.
//
// So a Cluster's taints count only once the engine holds a copy at or after
// the cluster controller's first reconcile in this process: the controller
// says at which resourceVersion it confirmed a cluster's health, and the
// engine's informer must have seen that version (it then holds it or a later
// one). Versions are compared for equality only, as kube's rules allow. Without
// a cluster controller in the process (tests of the engine alone) every copy
// counts, as before. The wait is bounded: a cluster the controller cannot
// reconcile (its writes keep failing) counts as it is after MAX_WAIT_MS, so
// scheduling never stops on it.
import type { KubeObject } from '../../core/types.ts';

/** The resourceVersion at which the cluster controller of this process first confirmed a cluster's health, if it has. */
export type HealthConfirmedAt = (clusterName: string) => string | undefined;

export interface ClusterHealthView {
  /** Every Cluster version the engine's informer delivers (its initial list included). */
  observe(cluster: KubeObject): void;
  /** The engine's copy of this cluster reflects a probe made by this process. */
  confirmed(clusterName: string): boolean;
}

/** Versions remembered per unconfirmed cluster; the controller's first write follows the engine's start within seconds. */
const SEEN_PER_CLUSTER = 256;

/** After this long from the engine's start, an unconfirmed Cluster counts as it is (a member probe times out in 10 s). */
export const MAX_WAIT_MS = 60_000;

export function createClusterHealthView(confirmedAt: HealthConfirmedAt | undefined, now: () => number = Date.now): ClusterHealthView {
  const started = now();
  const latched = new Set<string>();
  const seen = new Map<string, string[]>();
  return {
    observe(cluster) {
      const name = cluster.metadata.name ?? '';
      const rv = cluster.metadata.resourceVersion;
      if (!confirmedAt || latched.has(name) || rv === undefined) return;
      const list = seen.get(name) ?? [];
      list.push(rv);
      if (list.length > SEEN_PER_CLUSTER) list.shift();
      seen.set(name, list);
    },
    confirmed(name) {
      if (!confirmedAt || latched.has(name) || now() - started >= MAX_WAIT_MS) return true;
      const rv = confirmedAt(name);
      if (rv === undefined || !(seen.get(name) ?? []).includes(rv)) return false;
      latched.add(name);
      seen.delete(name);
      return true;
    },
  };
}
