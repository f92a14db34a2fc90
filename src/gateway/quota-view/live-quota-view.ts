// Keeps the counts in each tenant's quota view (`tenant-quota`, core/tenancy/
// quota/quota-view.ts) live: the count quota's counters (ADR 31) tell this
// module each count they learn (a read, a committed create) and each one they
// must read again (a delete, an unknown outcome); a tenant with news gets its
// views' status.used rewritten once the news settles (debounced), with one
// label-selected LIST of its views and one status write per view that differs.
// A count nobody reported is read here as the counters read it (a metadata-only
// LIST, stopping past the limit), never by listing the objects themselves.
// A slow resync reads every count again: objects created or removed beside the
// gateway (garbage collection, host controllers, another replica) show within it.
// Also creates the view with each namespace a tenant creates (forwarder.ts), so
// the namespace never exists without it.
import type { Upstream } from '../../kube/upstream.ts';
import type { KubeObject } from '../../core/types.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { NOT_EXECUTION_SPACE } from '../../core/propagation/execution-space.ts';
import {
  liveKeys, mergeUsed, quotaViewObject, sameFigures, TENANT_QUOTA_NAME, viewHard, VIEW_COUNTS,
} from '../../core/tenancy/quota/quota-view.ts';
import type { TenantDirectory } from '../../tenants/tenant-directory.ts';
import type { CountListener } from '../admission/object-counts.ts';
import { countTenantObjects, type CountTarget } from '../admission/quota.ts';
import { levelled } from '../../observability/log-line.ts';

export interface LiveQuotaView {
  /** The counters' listener (createObjectCounts({ onCount })). */
  onCount: CountListener;
  /** Creates the view in a namespace the tenant just created (upstream name); never throws. */
  namespaceCreated(tenantId: string, upstreamNamespace: string): Promise<void>;
  stop(): void;
}

export interface LiveQuotaViewOptions {
  upstream: Upstream;
  tenants: TenantDirectory;
  /** How long news settles before the views are written (default 500 ms). */
  debounceMs?: number;
  /**
   * Least time from one write of a tenant's views to the next (default 2 s, the count
   * quota's own TTL). The debounce alone fired every 500 ms through a steady burst of
   * creates: 175 status PUTs, each with its LIST and its watch events, per 3,000 creates
   * (issue 18). A burst now costs one refresh per interval; quiet news still shows
   * after the debounce.
   */
  minIntervalMs?: number;
  /** Every count read again this often (default 60 s; 0: never). */
  resyncMs?: number;
  log?: (line: string) => void;
}

interface TenantState {
  /** counter key (group/resource) → count; missing: to be read. */
  known: Map<string, number>;
  timer: ReturnType<typeof setTimeout> | undefined;
  running: Promise<void> | undefined;
  again: boolean;
  /** When the last refresh started (0: never). */
  startedAt: number;
}

interface ViewObject extends KubeObject {
  spec?: { hard?: Record<string, string> };
  status?: { hard?: Record<string, string>; used?: Record<string, string> };
}

function targetOf(tenantId: string, counterKey: string, limit: number): CountTarget {
  const [group = '', resource = ''] = counterKey.split('/');
  const version = VIEW_COUNTS.find((c) => c.group === group && c.resource === resource)?.version ?? 'v1';
  const isNamespace = group === '' && resource === 'namespaces';
  return {
    key: counterKey,
    resource,
    collection: group ? `/apis/${group}/${version}/${resource}` : `/api/v1/${resource}`,
    selector: isNamespace ? `${TENANT_LABEL}=${tenantId},${NOT_EXECUTION_SPACE}` : `${TENANT_LABEL}=${tenantId}`,
    limit,
    crd: false,
  };
}

export function createLiveQuotaView(options: LiveQuotaViewOptions): LiveQuotaView {
  const { upstream, tenants } = options;
  const debounceMs = options.debounceMs ?? 500;
  const minIntervalMs = options.minIntervalMs ?? 2_000;
  const log = options.log ?? ((): void => undefined);
  const states = new Map<string, TenantState>();
  let stopped = false;

  const stateOf = (tenantId: string): TenantState => {
    let s = states.get(tenantId);
    if (!s) states.set(tenantId, (s = { known: new Map(), timer: undefined, running: undefined, again: false, startedAt: 0 }));
    return s;
  };

  const schedule = (tenantId: string): void => {
    if (stopped) return;
    const s = stateOf(tenantId);
    if (s.timer) return;
    const sinceLast = Date.now() - s.startedAt;
    s.timer = setTimeout(() => {
      s.timer = undefined;
      if (s.running) { s.again = true; return; }
      s.startedAt = Date.now();
      s.running = refresh(tenantId, s)
        .catch((err: unknown) => log(levelled('warn', `quota view of tenant ${tenantId} not refreshed: ${String(err)}`, { event: 'quota-view-refresh-failed', tenant: tenantId, error: String(err) })))
        .finally(() => {
          s.running = undefined;
          if (s.again) { s.again = false; schedule(tenantId); }
        });
    }, Math.max(debounceMs, minIntervalMs - sinceLast));
    s.timer.unref?.();
  };

  async function refresh(tenantId: string, s: TenantState): Promise<void> {
    const quota = tenants.byId(tenantId)?.quota;
    const keys = liveKeys(quota);
    if (keys.size === 0) return;
    for (const counterKey of keys.keys()) {
      if (s.known.has(counterKey)) continue;
      const limit = counterKey === '/namespaces' ? quota?.namespaces : quota?.objectsPerResource;
      const loaded = await countTenantObjects(upstream, tenantId, targetOf(tenantId, counterKey, limit ?? 0), limit ?? 0);
      s.known.set(counterKey, loaded.count);
    }
    const figures: Record<string, string> = {};
    for (const [counterKey, viewKey] of keys) figures[viewKey] = String(s.known.get(counterKey) ?? 0);
    const query = new URLSearchParams({ labelSelector: `${TENANT_LABEL}=${tenantId}`, fieldSelector: `metadata.name=${TENANT_QUOTA_NAME}` });
    const views = await upstream.request<{ items?: ViewObject[] }>('GET', `/api/v1/resourcequotas?${query.toString()}`);
    if (views.status !== 200) throw new Error(`listing the quota views: HTTP ${views.status}`);
    for (const view of views.body.items ?? []) {
      // The view's own spec.hard decides its keys: onboarding owns it, and may not have caught up with the Tenant yet.
      const hard = view.spec?.hard ?? {};
      const used = mergeUsed(view.status?.used, [...keys.values()], figures, hard);
      if (sameFigures(view.status?.hard, hard) && sameFigures(view.status?.used, used)) continue;
      const path = `/api/v1/namespaces/${view.metadata.namespace ?? ''}/resourcequotas/${TENANT_QUOTA_NAME}/status`;
      const written = await upstream.request('PUT', path, { ...view, status: { ...view.status, hard, used } });
      // Another writer (onboarding, kube's quota controller) moved it on: write again from a fresh read.
      if (written.status === 409) s.again = true;
      else if (written.status !== 200 && written.status !== 404) throw new Error(`writing the quota view in ${view.metadata.namespace ?? ''}: HTTP ${written.status}`);
    }
  }

  const resync = (): void => {
    for (const tenant of tenants.all()) {
      if (liveKeys(tenant.quota).size === 0) continue;
      stateOf(tenant.id).known.clear();
      schedule(tenant.id);
    }
  };
  const resyncMs = options.resyncMs ?? 60_000;
  const first = setTimeout(resync, debounceMs);
  first.unref?.();
  const interval = resyncMs > 0 ? setInterval(resync, resyncMs) : undefined;
  interval?.unref?.();

  return {
    onCount(tenantId, resource, count) {
      const s = stateOf(tenantId);
      if (resource === '*') s.known.clear();
      else if (count === undefined) s.known.delete(resource);
      else s.known.set(resource, count);
      if (resource === '*' || liveKeys(tenants.byId(tenantId)?.quota).has(resource)) schedule(tenantId);
    },
    async namespaceCreated(tenantId, upstreamNamespace) {
      const hard = viewHard(tenants.byId(tenantId)?.quota);
      if (Object.keys(hard).length === 0) return;
      const view = quotaViewObject(tenantId, upstreamNamespace, hard);
      try {
        const created = await upstream.request('POST', `/api/v1/namespaces/${upstreamNamespace}/resourcequotas`, view);
        // 409: already there. Anything else is repaired by onboarding's next pass; the namespace itself was made.
        if (created.status >= 300 && created.status !== 409) log(levelled('warn', `quota view in ${upstreamNamespace} not created: ${created.status}`, { event: 'quota-view-create-failed', tenant: tenantId, namespace: upstreamNamespace, status: created.status }));
      } catch (err) {
        log(levelled('warn', `quota view in ${upstreamNamespace} not created: ${String(err)}`, { event: 'quota-view-create-failed', tenant: tenantId, namespace: upstreamNamespace, error: String(err) }));
      }
      schedule(tenantId);
    },
    stop() {
      stopped = true;
      clearTimeout(first);
      if (interval) clearInterval(interval);
      for (const s of states.values()) if (s.timer) clearTimeout(s.timer);
    },
  };
}
