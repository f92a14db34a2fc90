// The health taints Karmada's cluster controller keeps on a Cluster
// (taintClusterByCondition, processTaintBaseEviction):
//   Ready False    → cluster.karmada.io/not-ready:NoSchedule
//   Ready Unknown  → cluster.karmada.io/unreachable:NoSchedule
//   Ready True     → neither
//   no Ready yet   → not-ready:NoSchedule (a member just registered)
// Taints anyone else set are kept untouched; a taint already present keeps its
// timeAdded (tolerationSeconds count from it). NoExecute taints, which make the
// propagation engine evict, are Karmada's Failover feature: current Karmada no
// longer adds them by itself, older releases did after --failover-eviction-timeout
// (5 min). Here they are added only when `noExecuteAfterMs` is given.
import type { Condition } from '../runtime/conditions.ts';
import { rfc3339 } from '../runtime/conditions.ts';
import { TAINT_NOT_READY, TAINT_UNREACHABLE, type Taint, type TaintEffect } from '../../core/propagation/karmada-types.ts';

interface TaintKey {
  key: string;
  effect: TaintEffect;
}

export interface TaintInput {
  taints: readonly Taint[] | undefined;
  ready: Condition | undefined;
  now: Date;
  /** Add NoExecute taints once Ready has been False/Unknown this long (off when undefined). */
  noExecuteAfterMs?: number | undefined;
}

const matches = (t: Taint, k: TaintKey): boolean => t.key === k.key && t.effect === k.effect;

function update(taints: readonly Taint[], add: TaintKey[], remove: TaintKey[], now: Date): Taint[] {
  const kept = taints.filter((t) => !remove.some((k) => matches(t, k)));
  const missing = add.filter((k) => !kept.some((t) => matches(t, k)));
  return [...kept, ...missing.map((k) => ({ key: k.key, effect: k.effect, timeAdded: rfc3339(now) }))];
}

const notReady = (effect: TaintEffect): TaintKey => ({ key: TAINT_NOT_READY, effect });
const unreachable = (effect: TaintEffect): TaintKey => ({ key: TAINT_UNREACHABLE, effect });

/** The Cluster's spec.taints after the controller's rules; the same array content when nothing changes. */
export function buildClusterTaints(input: TaintInput): Taint[] {
  const { ready, now } = input;
  let taints = [...(input.taints ?? [])];
  switch (ready?.status) {
    case undefined:
      taints = update(taints, [notReady('NoSchedule')], [], now);
      break;
    case 'False':
      taints = update(taints, [notReady('NoSchedule')], [unreachable('NoSchedule')], now);
      break;
    case 'Unknown':
      taints = update(taints, [unreachable('NoSchedule')], [notReady('NoSchedule')], now);
      break;
    case 'True':
      taints = update(taints, [], [notReady('NoSchedule'), unreachable('NoSchedule'), notReady('NoExecute'), unreachable('NoExecute')], now);
      break;
  }
  if (input.noExecuteAfterMs !== undefined && ready && ready.status !== 'True') {
    const since = ready.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : now.getTime();
    if (now.getTime() >= since + input.noExecuteAfterMs) {
      taints = ready.status === 'False'
        ? update(taints, [notReady('NoExecute')], [unreachable('NoExecute')], now)
        : update(taints, [unreachable('NoExecute')], [notReady('NoExecute')], now);
    }
  }
  return taints;
}
