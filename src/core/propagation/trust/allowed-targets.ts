// The clusters a binding may be applied to: those its spec names that the
// Tenant allows now (Tenant.spec.clusters resolved against the registered
// Clusters), checked when the engine writes, not only when it schedules. A
// binding naming any other cluster gets nothing there, and says so.
import type { TargetCluster } from '../karmada-types.ts';

export function splitTargets(targets: readonly TargetCluster[], allowed: ReadonlySet<string>): { allowed: TargetCluster[]; refused: TargetCluster[] } {
  const seen = new Set<string>();
  const out = { allowed: [] as TargetCluster[], refused: [] as TargetCluster[] };
  for (const t of targets) {
    if (typeof t?.name !== 'string' || seen.has(t.name)) continue; // a name listed twice is applied once
    seen.add(t.name);
    (allowed.has(t.name) ? out.allowed : out.refused).push(t);
  }
  return out;
}

export const notAllowedMessage = (cluster: string): string => `cluster ${cluster} is not one of the tenant's clusters; nothing is applied there`;
