// Bounded label values for per-tenant metrics (docs/adr/0009-metrics-cardinality.md).
// Every tenant-labelled series is multiplied by the number of tenants: kcp's
// grew from 25k to 160k series at 3,000 workspaces. So only the busiest N
// tenants get their own label value; everyone else is counted under "other".
// The top N is recomputed from each window's traffic; a tenant that drops out
// has its series removed (onEvict), so the number of series stays bounded,
// and sums over tenant stay right (new increments go to "other").
export const OTHER = 'other';

export type TenantLabelMode = 'top' | 'all' | 'none';

export interface TenantLabelOptions {
  /** top (default): the busiest `topN` tenants; all: every tenant (small installs); none: everything under "other". */
  mode?: TenantLabelMode;
  topN?: number;
}

export class TenantLabeler {
  private readonly mode: TenantLabelMode;
  private readonly topN: number;
  private labelled = new Set<string>();
  private traffic = new Map<string, number>();

  constructor(options: TenantLabelOptions = {}, private readonly onEvict: (tenant: string) => void = () => undefined) {
    this.mode = options.mode ?? 'top';
    this.topN = options.topN ?? 20;
  }

  /** The label value for a request of `tenant`, counting it as traffic. */
  labelFor(tenant: string): string {
    if (this.mode === 'all') return tenant;
    if (this.mode === 'none') return OTHER;
    this.traffic.set(tenant, (this.traffic.get(tenant) ?? 0) + 1);
    // Until the first window closes, free slots go first come: a small install sees every tenant at once.
    if (!this.labelled.has(tenant) && this.labelled.size < this.topN) this.labelled.add(tenant);
    return this.labelled.has(tenant) ? tenant : OTHER;
  }

  /** The label value for an event that is not traffic (a guard refusal): never earns a slot. */
  peek(tenant: string): string {
    if (this.mode === 'all') return tenant;
    return this.labelled.has(tenant) ? tenant : OTHER;
  }

  /** Closes a window: the top N by its traffic keep or get a label (ties by id, for a stable order). */
  refresh(): void {
    if (this.mode !== 'top') return;
    const ranked = [...this.traffic].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, this.topN).map(([id]) => id);
    const next = new Set(ranked);
    for (const tenant of this.labelled) if (!next.has(tenant)) this.onEvict(tenant);
    this.labelled = next;
    this.traffic = new Map();
  }

  labelledTenants(): string[] {
    return [...this.labelled].sort();
  }
}

/** Resource names are bounded too: tenants' CRDs add resources without end. */
export class BoundedValues {
  private readonly seen = new Set<string>();
  constructor(private readonly max: number) {}

  valueFor(value: string): string {
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.max) return OTHER;
    this.seen.add(value);
    return value;
  }
}
