// The per-tenant propagation engine, composed: informers over the upstream,
// one work queue sharded by tenant (a tenant applying 10,000 templates gets
// one turn in each round, like every other tenant), workers that run the
// detector/scheduler for templates and the executor for bindings, and the
// member pool that applies to members and watches what it applied.
import { SAFE_PLACEMENT } from '../../core/tenancy/pod-placement.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { createEventRecorder, type EventRecorder } from '../runtime/event-recorder.ts';
import { createWorkQueue } from '../../workqueue/work-queue.ts';
import { startWorkers, type ReconcileResult } from '../runtime/workers.ts';
import type { WorkQueue } from '../../workqueue/work-queue.ts';
import type { EngineContext, EngineSettings } from './engine-context.ts';
import { bindingByUid, startEngineInformers } from './engine-informers.ts';
import { parseKey, tenantOfKey } from './engine-keys.ts';
import { createMemberPool, type ConnectMember } from './member-pool.ts';
import { echoKeyOf, keyOfBinding, keysForChange } from './route-changes.ts';
import { reconcileTemplate } from './detect-template.ts';
import { reconcileBinding } from './sync-binding.ts';
import { purgeTenantFromMembers } from './purge-tenant.ts';
import { createAppliedRecord } from './applied-record.ts';
import { createEchoRecord, memberEchoKey } from './echo-record.ts';
import { createOnDemandKinds } from './on-demand-kinds.ts';
import { tenantEventRecorder } from './tenant-events.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { createTenantClients } from './tenant-clients.ts';
import { createClusterHealthView, type HealthConfirmedAt } from './cluster-health.ts';

/**
 * Requests the engine runs at once against the host, and against each member (defaults of
 * PropagationOptions.requestsInFlight). Beyond these they wait in their tenant's line (fair-gate.ts), so
 * one tenant's backlog cannot queue ahead of another tenant's next request in a client's
 * first-come-first-served socket queue. Every request in flight is also one the server answers before
 * a newcomer's: 64 at the host cost another tenant's template about 5 s in a 1,000-template burst, 16
 * about 0.1 s over idle (ADR 16). 16 still allows about 300 requests/s to a server 50 ms away.
 */
const HOST_REQUESTS_IN_FLIGHT = 16;
const MEMBER_REQUESTS_IN_FLIGHT = 16;

export interface PropagationOptions {
  upstream: Upstream;
  connect: ConnectMember;
  log: (line: string) => void;
  /** Workers for the detector/scheduler and, separately, for the executor (default 16 and 48): a burst of
   * binding work (member applies) must not starve scheduling, and the executor mostly waits on members. */
  workers?: { templates?: number; bindings?: number };
  /** Requests in flight against the host and against each member (default 16 and 16); the rest wait their tenant's turn. */
  requestsInFlight?: { host?: number; member?: number };
  settings?: Partial<EngineSettings>;
  now?: () => Date;
  /** Each reconcile's duration and outcome (metrics). */
  observe?: (kind: 'template' | 'binding', seconds: number, ok: boolean) => void;
  /** The cluster controller of this process: at which version it confirmed a cluster's health (cluster-health.ts); absent, every Cluster copy counts. */
  clusterHealthConfirmedAt?: HealthConfirmedAt;
}

export interface RunningPropagation {
  synced(): Promise<void>;
  /** Keys waiting, for metrics and tests. */
  queueLength(): number;
  /** Member clusters as the engine sees them (metrics, status). */
  clusters(): Array<{ name: string; ready: boolean }>;
  /** Bindings by FullyApplied state (metrics). */
  bindingCounts(): { total: number; fullyApplied: number };
  /** Template kinds the upstream does not serve (ADR 0024), as "group/version/resource" (metrics). */
  unservedKinds(): string[];
  /** Removes what the engine made on the members for a tenant that is being deleted. */
  purgeTenant(id: string): Promise<void>;
  stop(): void;
}

export function startPropagation(options: PropagationOptions): RunningPropagation {
  // Two queues, each sharded by tenant: templates (detector, scheduler) and bindings (executor).
  const queueOptions = { shardOf: tenantOfKey, backoff: { initialMs: 500, maxMs: 30_000 } };
  const templateQueue = createWorkQueue(queueOptions);
  const bindingQueue = createWorkQueue(queueOptions);
  const queue = routedQueue(templateQueue, bindingQueue);
  const echoes = createEchoRecord();
  // Informers keep the plain client: their lists and watches are the engine's own, not a tenant's.
  const eventRecorder = (host: Upstream): EventRecorder => tenantEventRecorder((clusterScopedNamespace) => createEventRecorder({ upstream: host, component: 'karmada-controller-manager', log: options.log, ...(clusterScopedNamespace ? { clusterScopedNamespace } : {}) }));
  const clients = createTenantClients({
    host: options.upstream,
    connect: options.connect,
    hostInFlight: options.requestsInFlight?.host ?? HOST_REQUESTS_IN_FLIGHT,
    memberInFlight: options.requestsInFlight?.member ?? MEMBER_REQUESTS_IN_FLIGHT,
    events: eventRecorder,
  });
  const upstream = clients.host;
  const clusterHealth = createClusterHealthView(options.clusterHealthConfirmedAt);
  const informers = startEngineInformers(options.upstream, (event) => {
    if (event.kind === 'cluster' && event.type !== 'DELETED') clusterHealth.observe(event.obj);
    // A tenant's policies or CRDs changed: the kinds it propagates may have too.
    if (event.kind === 'policy' || event.kind === 'clusterPolicy' || event.kind === 'crd') {
      const tenant = event.obj.metadata.labels?.[TENANT_LABEL];
      if (tenant) onDemand.refresh(tenant);
    }
    const wake = (): void => { for (const key of keysForChange(informers, event)) queue.add(key); };
    const echoKey = echoKeyOf(event);
    if (echoKey === undefined) wake();
    else if (event.type === 'DELETED') {
      echoes.forget(echoKey);
      wake();
    } else echoes.route(echoKey, event.obj, wake);
  }, options.log);
  const onDemand = createOnDemandKinds(informers);
  const members = createMemberPool({
    upstream: options.upstream,
    connect: clients.connect,
    log: options.log,
    onMemberChange: (uid, { cluster, resource, type, obj }) => {
      // The copy the executor just applied, coming back: nothing new to reflect.
      const wake = (): void => {
        const binding = bindingByUid(informers, uid);
        if (binding) queue.add(keyOfBinding(binding));
      };
      const key = memberEchoKey(cluster, resource, obj.metadata.namespace ?? '', obj.metadata.name ?? '');
      if (type === 'DELETED') {
        echoes.forget(key);
        wake();
      } else echoes.route(key, obj, wake);
    },
  });
  const ctx: EngineContext = {
    upstream,
    informers,
    members,
    events: eventRecorder(upstream),
    queue,
    applied: createAppliedRecord(),
    echoes,
    clusterHealth,
    settings: { defaultTolerationSeconds: 300, gracefulEvictionTimeoutMs: 600_000, hostRunsWorkloads: true, placement: SAFE_PLACEMENT, ...options.settings },
    now: options.now ?? (() => new Date()),
    log: options.log,
  };
  let workers: Array<{ stop(): void }> = [];
  let stopped = false;
  const ready = informers.synced().then(() => {
    if (stopped) return;
    // Everything seen during the initial lists was queued; workers start on a whole view.
    const reconcile = async (key: string): Promise<ReconcileResult | void> => {
      const parsed = parseKey(key, informers.resourceById);
      if (!parsed) return;
      const started = performance.now();
      let ok = false;
      try {
        // The reconcile's requests and Events wait in its tenant's lines (tenant-clients.ts).
        const bound = clients.bind(ctx, parsed.tenant);
        const result = await (parsed.type === 'template'
          ? reconcileTemplate(bound, parsed.tenant, parsed.resource, parsed.namespace, parsed.name)
          : reconcileBinding(bound, parsed.tenant, parsed.namespace, parsed.name));
        ok = true;
        return result;
      } finally {
        options.observe?.(parsed.type, (performance.now() - started) / 1000, ok);
      }
    };
    workers = [
      startWorkers({ name: 'propagation-detector', queue: templateQueue, count: options.workers?.templates ?? 16, log: options.log, reconcile }),
      startWorkers({ name: 'propagation-executor', queue: bindingQueue, count: options.workers?.bindings ?? 48, log: options.log, reconcile }),
    ];
  });
  ready.catch(() => undefined);
  return {
    synced: () => ready,
    queueLength: () => queue.length(),
    clusters: () => [...informers.clusters.store.values()].map((c) => ({
      name: c.metadata.name ?? '',
      ready: c.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True') === true,
    })),
    bindingCounts: () => {
      let fullyApplied = 0;
      for (const store of [informers.bindings.store, informers.clusterBindings.store]) {
        for (const b of store.values()) if (b.status?.conditions?.some((c) => c.type === 'FullyApplied' && c.status === 'True')) fullyApplied++;
      }
      return { total: informers.bindings.store.size + informers.clusterBindings.store.size, fullyApplied };
    },
    unservedKinds: () => informers.unservedKinds().map((r) => `${r.group}/${r.version}/${r.resource}`),
    purgeTenant: (id) => purgeTenantFromMembers(informers, members, id, options.log),
    stop() {
      stopped = true;
      for (const w of workers) w.stop();
      queue.shutDown();
      informers.stop();
      members.stop();
    },
  };
}

/** One queue to the rest of the engine; keys go to the template or binding queue by their type. */
function routedQueue(templates: WorkQueue, bindings: WorkQueue): WorkQueue {
  const pick = (key: string): WorkQueue => (key.includes('|T|') ? templates : bindings);
  return {
    add: (key) => pick(key).add(key),
    addAfter: (key, ms) => pick(key).addAfter(key, ms),
    addRateLimited: (key) => pick(key).addRateLimited(key),
    forget: (key) => pick(key).forget(key),
    get: () => Promise.reject(new Error('routed queue: take keys from the template or binding queue')),
    done: (key) => pick(key).done(key),
    length: () => templates.length() + bindings.length(),
    shutDown: () => { templates.shutDown(); bindings.shutDown(); },
  };
}
