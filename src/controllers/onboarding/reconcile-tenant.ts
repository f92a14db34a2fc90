// The onboarding reconciler: one Tenant, phase after phase, each in its own
// file and each idempotent, so a reconcile interrupted anywhere (crash,
// conflict, upstream down) is finished by the next one with nothing issued
// twice. Progress and failures land in conditions and Events.
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import type { KeyPairPem } from '../../pki/certificates.ts';
import type { Tenant, TenantStatus } from '../../gateway/tenants/tenant-crd.ts';
import { isConditionTrue, setCondition, type ConditionInput } from '../runtime/conditions.ts';
import type { EventType } from '../runtime/event-recorder.ts';
import type { ReconcileResult } from '../runtime/controller.ts';
import type { ObjectClient } from './object-client.ts';
import { CLEANUP_FINALIZER, ConditionType, Reason } from './reasons.ts';
import { certificateLifetimeMs, validateTenantSpec } from './validate-spec.ts';
import { decideTenantId, platformIds } from './assign-id.ts';
import { ensureTenantNamespaces } from './reconcile-namespaces.ts';
import { ensureTenantRbac } from './reconcile-rbac.ts';
import { reconcileCredentials } from './reconcile-credentials.ts';
import { computeUsage } from './compute-usage.ts';
import { cleanupTenant } from './cleanup-tenant.ts';
import { setFinalizer, tenantPath, writeTenantStatus } from './tenant-status.ts';
import { resolveTenantClusters } from './resolve-clusters.ts';
import type { KubeObject } from '../../core/types.ts';
import type { OwnWrites } from './own-writes.ts';

export interface OnboardingDeps {
  client: ObjectClient;
  /** Every Tenant known (the informer's store), for id uniqueness. */
  tenants: () => Iterable<Tenant>;
  /** Ids this process assigned; kept until the Tenant holding one is gone. */
  reserved: Set<string>;
  record: (tenant: Tenant, type: EventType, reason: string, message: string) => Promise<void>;
  tenantCa: () => Promise<KeyPairPem>;
  gatewayUrl: string;
  gatewayCaPem: string;
  now: () => Date;
  onTenantDeleted?: (id: string) => Promise<void> | void;
  random?: (max: number) => number;
  /** Registered member Clusters; undefined until known (status.clusters is then left as it is). */
  clusters?: () => readonly KubeObject[] | undefined;
  /** The platform's ids, shared between reconciles (platform-ids-source.ts); default: LIST namespaces each time. */
  platformIds?: () => Promise<ReadonlySet<string>>;
  /** Skips the echo of this process's own last write (own-writes.ts); default: every reconcile runs in full. */
  ownWrites?: OwnWrites;
}

/** How often a Tenant whose cleanup is waiting on the upstream is looked at again. */
export const CLEANUP_POLL_MS = 1_000;
/** An IdConflict may resolve when the other Tenant goes; look again now and then. */
export const CONFLICT_RETRY_MS = 30_000;

export async function reconcileTenant(deps: OnboardingDeps, name: string): Promise<ReconcileResult> {
  // Fresh from the upstream, not the informer: our own last write may not be in it yet.
  let tenant = await deps.client.get<Tenant>(tenantPath(name));
  if (!tenant) {
    deps.ownWrites?.forget(name);
    return {}; // gone: nothing to do
  }
  if (tenant.metadata.deletionTimestamp) return finalize(deps, tenant);
  const echo = deps.ownWrites?.echo(name, tenant.metadata.resourceVersion);
  if (echo) return echo;

  const generation = tenant.metadata.generation;
  const status: TenantStatus = structuredClone(tenant.status ?? {});
  const condition = (input: ConditionInput): void => {
    status.conditions = setCondition(status.conditions, input, { ...(generation !== undefined ? { generation } : {}), now: deps.now() });
  };
  status.phase ??= 'Pending';

  const problems = validateTenantSpec(tenant);
  if (problems.length > 0) {
    const message = problems.join('; ');
    condition({ type: ConditionType.Ready, status: 'False', reason: Reason.InvalidSpec, message });
    await deps.record(tenant, 'Warning', Reason.InvalidSpec, message);
    await writeTenantStatus(deps.client, tenant, status);
    return {};
  }

  // Only a tenant still waiting for its id needs to know which prefixes the platform already uses.
  const platform = tenant.status?.id ? undefined
    : deps.platformIds ? await deps.platformIds() : platformIds(await deps.client.list('/api/v1/namespaces'), TENANT_LABEL);
  const decision = decideTenantId({
    tenant, all: deps.tenants(), reserved: deps.reserved, ...(platform ? { platform } : {}), ...(deps.random ? { random: deps.random } : {}),
  });
  if (decision.kind === 'conflict') {
    const message = `id ${decision.id} is already held by tenant ${decision.holder}`;
    condition({ type: ConditionType.IdAssigned, status: 'False', reason: Reason.IdConflict, message });
    condition({ type: ConditionType.Ready, status: 'False', reason: Reason.IdConflict, message });
    await deps.record(tenant, 'Warning', Reason.IdConflict, message);
    await writeTenantStatus(deps.client, tenant, status);
    return { requeueAfterMs: CONFLICT_RETRY_MS };
  }
  const id = decision.id;
  // Events are best effort and never throw (event-recorder.ts): written alongside
  // the next phases, and all awaited before the final status write, so a Ready
  // tenant's events are already there when a client sees it Ready.
  const events: Promise<void>[] = [];
  const record: OnboardingDeps['record'] = (...args) => {
    const written = deps.record(...args);
    events.push(written);
    return written;
  };
  if (decision.kind === 'assign') {
    // status.id first, before anything exists upstream under it: from here on
    // the id is taken, by this process (reserved) and by everyone (status).
    deps.reserved.add(id);
    status.id = id;
    condition({ type: ConditionType.IdAssigned, status: 'True', reason: Reason.IdAssigned, message: `id ${id}` });
    tenant = await writeTenantStatus(deps.client, tenant, status);
    void record(tenant, 'Normal', Reason.IdAssigned, `assigned id ${id}`);
  }
  tenant = await setFinalizer(deps.client, tenant, CLEANUP_FINALIZER, true);

  try {
    const spec = tenant.spec ?? {};
    // Never onboarded before: its objects are almost surely missing, so create without reading first.
    const fresh = (phase: string): { likelyMissing?: boolean } => (isConditionTrue(status.conditions, phase) ? {} : { likelyMissing: true });
    const created = (await ensureTenantNamespaces(deps.client, id, spec.podSecurity ?? 'baseline', fresh(ConditionType.NamespacesReady))).some((o) => o !== 'unchanged');
    condition({ type: ConditionType.NamespacesReady, status: 'True', reason: Reason.NamespacesReady, message: '' });
    if (created) void record(tenant, 'Normal', Reason.NamespacesReady, 'namespaces default, kube-system, kube-public, kube-node-lease ensured');

    const rbacChanged = (await ensureTenantRbac(deps.client, id, spec.users ?? [], fresh(ConditionType.RbacReady))).some((o) => o !== 'unchanged');
    condition({ type: ConditionType.RbacReady, status: 'True', reason: Reason.RbacReady, message: '' });
    if (rbacChanged) void record(tenant, 'Normal', Reason.RbacReady, 'cluster roles and the tenant-admins binding ensured');

    const revokeBefore = spec.credentials?.revokeBefore ? new Date(spec.credentials.revokeBefore) : undefined;
    const creds = await reconcileCredentials({
      client: deps.client, tenantName: name, id, users: spec.users ?? [], lifetimeMs: certificateLifetimeMs(tenant),
      now: deps.now(), tenantCa: deps.tenantCa, gatewayUrl: deps.gatewayUrl, gatewayCaPem: deps.gatewayCaPem,
      ...(revokeBefore ? { revokeBefore } : {}),
    });
    for (const { user, why } of creds.plan.issue) {
      const reason = why === 'rotate' ? Reason.CredentialsRotated : why === 'revoke' ? Reason.CredentialsRevoked : Reason.CredentialsIssued;
      void record(tenant, 'Normal', reason, `certificate for user ${user.name} issued (${why})`);
    }
    status.kubeconfigSecretRef = creds.secretRef;
    if (creds.plan.revokedUpTo) status.credentialsNotBefore = creds.plan.revokedUpTo.toISOString();
    condition({ type: ConditionType.CredentialsReady, status: 'True', reason: Reason.CredentialsIssued, message: '' });

    status.usage = await computeUsage(deps.client, id, spec.quota);
    const registered = deps.clusters?.();
    if (registered) status.clusters = resolveTenantClusters(spec.clusters, registered);

    const wasSuspended = tenant.status?.phase === 'Suspended';
    if (spec.suspended === true) {
      status.phase = 'Suspended';
      condition({ type: ConditionType.Ready, status: 'False', reason: Reason.Suspended, message: 'the tenant is suspended: writes are refused' });
      if (!wasSuspended) void record(tenant, 'Normal', Reason.Suspended, 'tenant suspended: writes are refused, reads still work');
    } else {
      const wasReady = tenant.status?.phase === 'Ready';
      status.phase = 'Ready';
      condition({ type: ConditionType.Ready, status: 'True', reason: Reason.Ready, message: '' });
      if (wasSuspended) void record(tenant, 'Normal', Reason.Resumed, 'suspension lifted');
      else if (!wasReady) void record(tenant, 'Normal', Reason.Ready, `tenant ${name} is ready (id ${id})`);
    }
    status.observedGeneration = generation;
    await Promise.all(events);
    const written = await writeTenantStatus(deps.client, tenant, status);
    const rv = written.metadata.resourceVersion;
    if (deps.ownWrites && rv !== undefined && rv !== tenant.metadata.resourceVersion) deps.ownWrites.wrote(name, rv, creds.plan.requeueAfterMs);
    return creds.plan.requeueAfterMs !== undefined ? { requeueAfterMs: creds.plan.requeueAfterMs } : {};
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    condition({ type: ConditionType.Ready, status: 'False', reason: Reason.ReconcileFailed, message });
    void record(tenant, 'Warning', Reason.ReconcileFailed, message);
    await Promise.all(events);
    await writeTenantStatus(deps.client, tenant, status).catch(() => undefined);
    throw err;
  }
}

async function finalize(deps: OnboardingDeps, tenant: Tenant): Promise<ReconcileResult> {
  if (!tenant.metadata.finalizers?.includes(CLEANUP_FINALIZER)) return {};
  const name = tenant.metadata.name ?? '';
  const id = tenant.status?.id;
  if (tenant.status?.phase !== 'Terminating') {
    const status: TenantStatus = { ...structuredClone(tenant.status ?? {}), phase: 'Terminating' };
    tenant = await writeTenantStatus(deps.client, tenant, status);
    await deps.record(tenant, 'Normal', Reason.Terminating, 'removing everything of the tenant upstream');
  }
  if (id) {
    const { remaining } = await cleanupTenant(deps.client, id, name);
    if (remaining > 0) return { requeueAfterMs: CLEANUP_POLL_MS };
    await deps.onTenantDeleted?.(id);
    deps.reserved.delete(id);
  }
  await setFinalizer(deps.client, tenant, CLEANUP_FINALIZER, false);
  return {};
}
