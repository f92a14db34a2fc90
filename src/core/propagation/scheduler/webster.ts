// The Webster (Sainte-Laguë) method, as Karmada ≥ 1.16 divides replicas (pkg/util/helper
// webstermethod.go): seats go one at a time to the party with the highest votes/(2·seats+1).
// Priorities are compared exactly by cross-multiplication (Karmada compares float64
// quotients; they agree wherever the floats are exact).
// Ties, in order:
//   1. more previous replicas first: the dispenser's LastReplicas "inertia" rule, so a
//      re-run does not move a replica between equal-weight clusters (our reading of how the
//      1.16 dispenser uses the queue's custom tie-breaker);
//   2. fewer seats first: Karmada's default, it favours small clusters for HA and HPA;
//   3. the lexicographically smaller name.
// Without tie 1 (no previous replicas) this is exactly Karmada's default queue order.
// Parties with zero votes never win a seat while any party has votes.

export interface Party {
  name: string;
  votes: number;
  /** Replicas the cluster held before (tie-break 1 only). */
  previous?: number;
  /** Seats the party starts with (per-cluster minReplicas); the caller keeps their sum within `seats`. */
  min?: number;
  /** Seats the party never exceeds (per-cluster maxReplicas). */
  max?: number;
}

function outranks(a: Party, aSeats: number, b: Party, bSeats: number): boolean {
  let left: number | bigint = a.votes * (2 * bSeats + 1);
  let right: number | bigint = b.votes * (2 * aSeats + 1);
  if (!Number.isSafeInteger(left) || !Number.isSafeInteger(right)) {
    left = BigInt(a.votes) * BigInt(2 * bSeats + 1);
    right = BigInt(b.votes) * BigInt(2 * aSeats + 1);
  }
  if (left !== right) return left > right;
  const ap = a.previous ?? 0;
  const bp = b.previous ?? 0;
  if (ap !== bp) return ap > bp;
  if (aSeats !== bSeats) return aSeats < bSeats;
  return a.name < b.name;
}

/**
 * Hands out `seats` among `parties`; returns seats per party name. A linear scan per seat
 * is plenty for member-cluster counts and keeps the order rule in one readable place.
 * Bounds: each party starts at its min and stops at its max, i.e. Webster's divisor method
 * with bounds (the sequential form reaches the same result). A zero-vote party gets only
 * its min while any party has votes. When every party that may still win is at its max,
 * fewer than `seats` are handed out: the caller checks the sum.
 */
export function allocateWebsterSeats(seats: number, parties: readonly Party[]): Map<string, number> {
  const result = new Map<string, number>(parties.map((p) => [p.name, p.min ?? 0]));
  if (parties.length === 0) return result;
  const anyVotes = parties.some((p) => p.votes > 0);
  const open = (p: Party): boolean => (p.max === undefined || (result.get(p.name) ?? 0) < p.max) && (p.votes > 0 || !anyVotes);
  const started = [...result.values()].reduce((s, n) => s + n, 0);
  for (let s = started; s < seats; s++) {
    let best: Party | undefined;
    for (const p of parties) {
      if (!open(p)) continue;
      if (!best || outranks(p, result.get(p.name) ?? 0, best, result.get(best.name) ?? 0)) best = p;
    }
    if (!best) break;
    result.set(best.name, (result.get(best.name) ?? 0) + 1);
  }
  return result;
}
