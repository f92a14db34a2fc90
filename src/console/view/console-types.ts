// The console's view models: what the console API and its live stream send to
// the browser. Plain data, already in the words the pages show; no credential,
// no secret reference, nothing a tenant could use to reach another tenant.

export interface UsageBar {
  /** namespaces, cpu, memory, storage. */
  resource: string;
  used: string;
  limit: string;
  /** used / limit, 0..1 (over-quota clamps at 1; `over` says so). */
  fraction: number;
  over: boolean;
}

export interface TenantRow {
  name: string;
  id: string;
  displayName: string;
  phase: string;
  users: string[];
  admins: string[];
  usage: UsageBar[];
  /** Members the tenant may use (status.clusters, as onboarding resolved them). */
  members: string[];
  createdAt: string;
  suspended: boolean;
  /** Replicas the propagation engine scheduled for this tenant, all members together. */
  replicas: number;
}

export type MemberHealth = 'Ready' | 'NotReady' | 'Unknown';

export interface ResourceLine {
  resource: string;
  allocatable: string;
  allocated: string;
  fraction: number;
}

export interface MemberRow {
  name: string;
  health: MemberHealth;
  healthReason: string;
  version: string;
  taints: string[];
  region: string;
  zone: string;
  provider: string;
  resources: ResourceLine[];
  nodes: string;
  /** Names of the tenants allowed on this member. */
  tenants: string[];
}

export interface PlacedWorkload {
  kind: string;
  /** In the tenant's terms (no upstream prefix); empty for cluster-scoped kinds. */
  namespace: string;
  name: string;
  replicas: number;
  ready: number;
  applied: boolean;
  health: string;
}

export interface PlacementCell {
  tenant: string;
  member: string;
  replicas: number;
  ready: number;
  workloads: PlacedWorkload[];
}

export interface PlacementMap {
  tenants: string[];
  members: string[];
  /** Only cells with something placed; a missing cell is zero. */
  cells: PlacementCell[];
  /** Member health, so the map can mark a down member. */
  health: Record<string, MemberHealth>;
}

export interface ConsoleState {
  tenants: TenantRow[];
  members: MemberRow[];
  placement: PlacementMap;
  /** Upstream resourceVersions seen, so a client can tell two states apart. */
  revision: string;
}

export interface BindingRow {
  kind: string;
  namespace: string;
  name: string;
  replicas: number;
  placement: { member: string; replicas: number }[];
  scheduled: string;
  applied: string;
  health: string;
}

export interface EventRow {
  type: string;
  reason: string;
  /** Kind/name of what the event is about. */
  object: string;
  /** The tenant's namespace it happened in (tenant terms); '' for the Tenant's own events. */
  namespace: string;
  message: string;
  count: number;
  lastSeen: string;
}

export interface TenantDetail {
  row: TenantRow;
  conditions: { type: string; status: string; reason: string; message: string; lastTransitionTime: string }[];
  events: EventRow[];
  namespaces: { name: string; phase: string }[];
  quota: UsageBar[];
  podSecurity: string;
  bindings: BindingRow[];
}
