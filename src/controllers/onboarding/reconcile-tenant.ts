// The onboarding reconciler: one Tenant, phase after phase, each in its own
// file and each idempotent, so a reconcile interrupted anywhere (crash,
// conflict, upstream down) is finished by the next one with nothing issued
// twice. Progress and failures land in conditions and Events.
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import type { KeyPairPem } from '../../pki/certificates.ts';
import { tenantPath, type Tenant, type TenantStatus } from '../../tenants/tenant-crd.ts';
import { isConditionTrue, setCondition, type ConditionInput } from '../runtime/conditions.ts';
import type { EventType } from '../runtime/event-recorder.ts';
import type { ReconcileResult } from '../runtime/controller.ts';
import type { ObjectClient } from '../../kube/object-client.ts';
import { CLEANUP_FINALIZER, ConditionType, Reason } from '../../tenants/tenant-conditions.ts';
import { certificateLifetimeMs, validateTenantSpec } from '../../tenants/validate-spec.ts';
import { decideTenantId, platformIds } from './assign-id.ts';
import { ensureTenantNamespaces } from './reconcile-namespaces.ts';
import { ensureTenantRbac } from './reconcile-rbac.ts';
import { reconcileCredentials } from './reconcile-credentials.ts';
import { computeUsage } from './compute-usage.ts';
import { ensureQuotaView } from './quota-view.ts';
import { hasResourceLimits } from '../../core/tenancy/quota/quota-decision.ts';
import { cleanupTenant } from './cleanup-tenant.ts';
import { setFinalizer, writeTenantStatus } from './tenant-status.ts';
import { resolveTenantClusters } from './resolve-clusters.ts';
import type { KubeObject } from '../../core/types.ts';
import type { OwnWrites } from './own-writes.ts';

export interface OnboardingDeps {
  client: ObjectClient;
  /** Every Tenant known (the informer's store), for id uniqueness. */
  tenants: () => Iterable<Tenant>;
  /** The known Tenants holding an id (an informer index); default: a scan of tenants(). */
  tenantsWithId?: (id: string) => Iterable<Tenant>;
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
  /**
   * The resourceVersion the informer holds for this Tenant, if any: when it is already the
   * one this process last wrote (ownWrites), the echo is known without reading the Tenant.
   */
  informerResourceVersion?: (name: string) => string | undefined;
}

/** Longest Event message written (client-go's recorder truncates at 1,024 characters too). */
const MAX_EVENT_MESSAGE = 1_024;

/** How often a Tenant whose cleanup is waiting on the upstream is looked at again. */
export const CLEANUP_POLL_MS = 1_000;
/** An IdConflict may resolve when the other Tenant goes; look again now and then. */
export const CONFLICT_RETRY_MS = 30_000;

export async function reconcileTenant(deps: OnboardingDeps, name: string): Promise<ReconcileResult> {
  // The watch event of our own last write: nothing new to act on, and no need to read
  // the Tenant to know it. Anything newer (someone else's change) moves the informer's
  // resourceVersion past ours and queues the Tenant again, and that pass runs in full.
  const known = deps.informerResourceVersion?.(name);
  const early = known !== undefined ? deps.ownWrites?.echo(name, known) : undefined;
  if (early) return early;
  // Fresh from the upstream, not the informer: our own last write may not be in it yet.
  const read = await deps.client.get<Tenant>(tenantPath(name));
  if (!read) {
    deps.ownWrites?.forget(name);
    return {}; // gone: nothing to do
  }
  let tenant: Tenant = read;
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
    ...(deps.tenantsWithId ? { holders: deps.tenantsWithId } : {}),
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
  // A first onboarding reports its steps (id, namespaces, RBAC, certificates) in the one
  // Ready Event that ends it, not in an Event each: five Event writes were a fifth of a new
  // tenant's upstream writes (issue 4). Each step keeps its own condition; a step outside a
  // first onboarding (repair, rotation, revocation) still gets its own Event; and if the
  // first onboarding stops short of Ready, the steps done so far are written one by one.
  const firstOnboarding = !tenant.status?.phase || tenant.status.phase === 'Pending';
  const steps: Array<{ reason: string; message: string }> = [];
  const step = (reason: string, message: string): void => {
    if (firstOnboarding) steps.push({ reason, message });
    else void record(tenant, 'Normal', reason, message);
  };
  const flushSteps = (): void => {
    for (const s of steps.splice(0)) void record(tenant, 'Normal', s.reason, s.message);
  };
  if (decision.kind === 'assign') {
    // status.id first, before anything exists upstream under it: from here on
    // the id is taken, by this process (reserved) and by everyone (status).
    deps.reserved.add(id);
    status.id = id;
    condition({ type: ConditionType.IdAssigned, status: 'True', reason: Reason.IdAssigned, message: `id ${id}` });
    tenant = await writeTenantStatus(deps.client, tenant, status);
    step(Reason.IdAssigned, `assigned id ${id}`);
  }
  tenant = await setFinalizer(deps.client, tenant, CLEANUP_FINALIZER, true);

  try {
    const spec = tenant.spec ?? {};
    // Never onboarded before: its objects are almost surely missing, so create without reading first.
    const fresh = (phase: string): { likelyMissing?: boolean } => (isConditionTrue(status.conditions, phase) ? {} : { likelyMissing: true });
    const namespaces = await ensureTenantNamespaces(deps.client, id, spec.podSecurity ?? 'baseline', fresh(ConditionType.NamespacesReady));
    condition({ type: ConditionType.NamespacesReady, status: 'True', reason: Reason.NamespacesReady, message: '' });
    if (namespaces.some((o) => o !== 'unchanged')) step(Reason.NamespacesReady, 'namespaces default, kube-system, kube-public, kube-node-lease ensured');

    const rbacChanged = (await ensureTenantRbac(deps.client, id, spec.users ?? [], fresh(ConditionType.RbacReady))).some((o) => o !== 'unchanged');
    condition({ type: ConditionType.RbacReady, status: 'True', reason: Reason.RbacReady, message: '' });
    if (rbacChanged) step(Reason.RbacReady, 'cluster roles and the tenant-admins binding ensured');

    const revokeBefore = spec.credentials?.revokeBefore ? new Date(spec.credentials.revokeBefore) : undefined;
    const creds = await reconcileCredentials({
      client: deps.client, tenantName: name, id, users: spec.users ?? [], lifetimeMs: certificateLifetimeMs(tenant),
      ...(tenant.metadata.uid ? { tenantUid: tenant.metadata.uid } : {}),
      now: deps.now(), tenantCa: deps.tenantCa, gatewayUrl: deps.gatewayUrl, gatewayCaPem: deps.gatewayCaPem,
      ...(revokeBefore ? { revokeBefore } : {}),
      ...(fresh(ConditionType.CredentialsReady).likelyMissing ? { likelyMissing: true } : {}),
    });
    for (const { user, why } of creds.plan.issue) {
      const reason = why === 'rotate' ? Reason.CredentialsRotated : why === 'revoke' ? Reason.CredentialsRevoked : Reason.CredentialsIssued;
      step(reason, `certificate for user ${user.name} issued (${why})`);
    }
    status.kubeconfigSecretRef = creds.secretRef;
    if (creds.plan.revokedUpTo) status.credentialsNotBefore = creds.plan.revokedUpTo.toISOString();
    condition({ type: ConditionType.CredentialsReady, status: 'True', reason: Reason.CredentialsIssued, message: '' });

    // A tenant whose id was made up by this very reconcile, and whose four namespaces were
    // all just created, has exactly those four: nothing else can carry an id that did not
    // exist a moment ago. That saves a LIST whose cost grows with every upstream namespace.
    // Otherwise (and on every later pass, the periodic resync included) usage is counted.
    const brandNew = decision.kind === 'assign' && !tenant.spec?.id && namespaces.every((o) => o === 'created');
    const onlyNewNamespaces = brandNew && !hasResourceLimits(spec.quota);
    status.usage = onlyNewNamespaces ? { namespaces: namespaces.length } : await computeUsage(deps.client, id, spec.quota);
    // What the tenant reads of its quota (issue 14 item 9): kept beside the usage it shows.
    await ensureQuotaView(deps.client, id, spec.quota, status.usage, { brandNew });
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
      else if (!wasReady) {
        const done = steps.splice(0).map((s) => s.message);
        const message = `tenant ${name} is ready (id ${id})${done.length ? `: ${done.join('; ')}` : ''}`;
        void record(tenant, 'Normal', Reason.Ready, message.length > MAX_EVENT_MESSAGE ? `${message.slice(0, MAX_EVENT_MESSAGE - 1)}…` : message);
      }
    }
    flushSteps(); // a first onboarding that ended Suspended: its steps, one Event each
    status.observedGeneration = generation;
    await Promise.all(events);
    const written = await writeTenantStatus(deps.client, tenant, status);
    const rv = written.metadata.resourceVersion;
    if (deps.ownWrites && rv !== undefined && rv !== tenant.metadata.resourceVersion) deps.ownWrites.wrote(name, rv, creds.plan.requeueAfterMs);
    return creds.plan.requeueAfterMs !== undefined ? { requeueAfterMs: creds.plan.requeueAfterMs } : {};
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    condition({ type: ConditionType.Ready, status: 'False', reason: Reason.ReconcileFailed, message });
    flushSteps();
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
