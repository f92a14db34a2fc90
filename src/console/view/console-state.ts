// The whole console state from the informers' stores (pure): what one live
// update carries. Built from what the watches hold, never from a fresh LIST.
import type { Cluster, ResourceBinding } from '../../core/propagation/karmada-types.ts';
import type { Tenant } from '../../tenants/tenant-crd.ts';
import type { ConsoleState } from './console-types.ts';
import { memberRow } from './member-rows.ts';
import { placementMap, replicasByTenant } from './placement-map.ts';
import { tenantRow } from './tenant-rows.ts';
import { byName } from './state-delta.ts';

export interface StateInputs {
  tenants: readonly Tenant[];
  clusters: readonly Cluster[];
  bindings: readonly ResourceBinding[];
  revision: string;
}

export function buildConsoleState(inputs: StateInputs): ConsoleState {
  const placement = placementMap(inputs.tenants, inputs.clusters, inputs.bindings);
  const replicas = replicasByTenant(placement);
  return {
    tenants: inputs.tenants.map((t) => tenantRow(t, replicas.get(t.metadata.name ?? '') ?? 0)).sort(byName),
    members: inputs.clusters.map((c) => memberRow(c, inputs.tenants)).sort(byName),
    placement,
    revision: inputs.revision,
  };
}
