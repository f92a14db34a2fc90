// What every reconciler of the engine is given: stores to read, the upstream to
// write, members to apply to, events to record, and the clock.
import type { Upstream } from '../../kube/upstream.ts';
import type { EventRecorder } from '../runtime/event-recorder.ts';
import type { WorkQueue } from '../../workqueue/work-queue.ts';
import type { Tenant } from '../../tenants/tenant-crd.ts';
import { scrubText } from '../../core/tenancy/status-translation.ts';
import type { PlacementContract } from '../../core/tenancy/pod-placement.ts';
import { tenantOfId, type EngineInformers } from './engine-informers.ts';
import type { MemberPool } from './member-pool.ts';
import type { AppliedRecord } from './applied-record.ts';
import type { EchoRecord } from './echo-record.ts';
import type { ClusterHealthView } from './cluster-health.ts';

export interface EngineSettings {
  /** Toleration of the not-ready/unreachable NoExecute taints when a policy names none (Karmada's webhook default: 300 s). */
  defaultTolerationSeconds: number;
  /** How long an evicted cluster keeps its copy while the new ones are not yet healthy (Karmada: 10 min). */
  gracefulEvictionTimeoutMs: number;
  /** The host runs workload controllers (a real cluster); false for a host without them (`warren up` told so), where a workload nobody propagates never runs (ADR 0023). */
  hostRunsWorkloads: boolean;
  /** The platform's placement contract for tenants whose spec.placement says nothing (ADR 0043): held on every member copy. */
  placement: PlacementContract;
}

export interface EngineContext {
  upstream: Upstream;
  informers: EngineInformers;
  members: MemberPool;
  events: EventRecorder;
  queue: WorkQueue;
  settings: EngineSettings;
  /** What was last applied where (per engine: a new leader starts afresh). */
  applied: AppliedRecord;
  /** The engine's own writes awaiting their watch events, which then wake nothing. */
  echoes: EchoRecord;
  /** Whether a Cluster's taints are this process's observation, not the previous one's (cluster-health.ts). */
  clusterHealth: ClusterHealthView;
  now(): Date;
  log(line: string): void;
}

/** The Tenant whose id this is (status.id, or spec.id before onboarding confirmed it). */
export function tenantById(ctx: EngineContext, id: string): Tenant | undefined {
  return tenantOfId(ctx.informers, id);
}

/**
 * Upstream or member text → what tenant `tenantId` may read: its own names unprefixed, any other known
 * tenant's names and host paths hidden (scrubText). Without the known ids another tenant's prefixed name
 * (a member webhook's "host already defined in ingress <other>-prod/web") reached the tenant as it was.
 */
export function scrubForTenant(ctx: Pick<EngineContext, 'informers'>, tenantId: string, text: string): string {
  return scrubText(tenantId, text, (id) => tenantOfId(ctx.informers, id) !== undefined);
}

/** An error's text, for logs and the messages a pass records. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
