// Binding → Works → members, and status back. For each scheduled cluster: the
// manifest (replicas for that cluster, then its overrides), the Work recording
// it, and the object applied on the member. Clusters no longer scheduled lose
// their Work and their copy, except clusters being evicted by failover, which
// keep theirs until the new copies are healthy. Then the binding's
// aggregatedStatus and FullyApplied condition, and the template's own status.
import { createHash } from 'node:crypto';
import type { KubeObject } from '../../core/types.ts';
import type { ResourceBinding, TargetCluster, Work } from '../../core/propagation/karmada-types.ts';
import { CONDITION_APPLIED } from '../../core/propagation/karmada-types.ts';
import { buildWork, manifestFor, memberManifest, pruneTemplate } from '../../core/propagation/binding/build-work.ts';
import { aggregatedStatusOf, fullyAppliedCondition, type ClusterOutcome } from '../../core/propagation/binding/binding-status.ts';
import { clusterOfExecutionNamespace, executionNamespace, workName } from '../../core/propagation/detector/index.ts';
import { aggregateStatus, interpretHealth } from '../../core/propagation/status/index.ts';
import { toTenantNamespace, toUpstreamNamespace } from '../../core/tenancy/names.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { scrubText } from '../../core/tenancy/status-translation.ts';
import { jsonEqual } from '../../core/json-equal.ts';
import { rfc3339, setCondition } from '../runtime/conditions.ts';
import type { ReconcileResult } from '../runtime/workers.ts';
import { ensureBindingStatus, releaseBinding, updateBindingSpec } from './binding-writes.ts';
import { tenantById, type EngineContext } from './engine-context.ts';
import { tenantContextOf, tenantViews } from './tenant-views.ts';
import { bindingOf, ofTenant, templateOf, worksOfBinding } from './engine-informers.ts';
import { applyToMember, ConflictError, deleteFromMember, ensureMemberNamespace, forgetMemberNamespace } from './member-apply.ts';
import { judgeBinding, type MemberAddress } from '../../core/propagation/trust/binding-trust.ts';
import { inTenantSpace, ownedByBinding } from '../../core/propagation/trust/member-ownership.ts';
import { notAllowedMessage, splitTargets } from '../../core/propagation/trust/allowed-targets.ts';
import { scopeRbacForMember } from '../../core/propagation/trust/member-rbac.ts';
import { resolveTenantClusters } from '../../core/propagation/tenant-clusters.ts';
import { BINDING_FINALIZER, BINDING_NAME_ANNOTATION, BINDING_NAMESPACE_ANNOTATION, CLUSTER_BINDING_NAME_ANNOTATION, CLUSTER_PERMANENT_ID_LABEL, MANAGED_LABEL, PERMANENT_ID_LABEL, WORK_CREATOR_ANNOTATION, WORK_NAME_ANNOTATION, WORK_NAMESPACE_ANNOTATION } from './member-labels.ts';
import { deleteWork, ensureExecutionSpace, ensureWork, writeWorkStatus } from './work-writes.ts';
import { isNamespaceRow, namespacedPath, type TemplateResource } from './template-resources.ts';
import { podSecurityLabels } from '../../core/tenancy/pod-security.ts';
import { splitApiVersion } from '../../core/tenancy/names.ts';
import { clustersToPropagate, syncDependencies } from './dependencies.ts';
import { memberEchoKey, templateStatusEchoKey } from './echo-record.ts';
import { ensureStatus } from './status-writes.ts';
import { writeHeldStatus } from './template-hold.ts';

export async function reconcileBinding(ctx: EngineContext, tenantId: string, namespace: string, name: string): Promise<ReconcileResult | void> {
  // namespace '' is a ClusterResourceBinding (a cluster-scoped template's).
  const binding = bindingOf(ctx.informers, namespace, name);
  await syncDependencies(ctx, tenantId, namespace, name, binding);
  if (!binding) return;
  const resource = ctx.informers.resourceOf(binding.spec.resource.apiVersion, binding.spec.resource.kind);
  if (!resource) {
    // A custom kind whose CRD is gone: nothing left to address its copies by, so the binding may go.
    if (binding.metadata.deletionTimestamp) await releaseBinding(ctx, binding, BINDING_FINALIZER);
    return;
  }
  // Nothing upstream is trusted (ADR 19): a binding steers member writes only if all it names is this tenant's.
  const verdict = judgeBinding(tenantId, binding, resource);
  if (!verdict.ok) {
    ctx.log(`propagation: ignoring binding ${namespace ? `${namespace}/` : ''}${name} of tenant ${tenantId}: ${verdict.reason}`);
    if (binding.metadata.deletionTimestamp) await releaseBinding(ctx, binding, BINDING_FINALIZER); // its finalizer is ours; members are not touched
    else await ctx.events.record(binding, 'Warning', 'BindingIgnored', `The propagation engine ignores this binding: ${scrubText(tenantId, verdict.reason)}`);
    return;
  }
  const uid = binding.metadata.uid ?? '';
  const scope: RemovalScope = { resource, address: verdict.address, uid, tenantId, workName: workName(resource.kind, verdict.tenantName, namespace ? toTenantNamespace(tenantId, namespace) : undefined) };
  // Only the Works in the slots the engine writes for this binding: a label naming the binding is no proof.
  const works = worksOfBinding(ctx.informers, uid).filter((w) => isSlotOf(scope, w));
  const clusters = new Map([...ctx.informers.clusters.store.values()].map((c) => [c.metadata.name ?? '', c]));

  if (binding.metadata.deletionTimestamp) {
    const preserve = binding.spec.preserveResourcesOnDeletion === true;
    await removeFrom(ctx, [...clusters.keys()], works, scope, !preserve);
    await releaseBinding(ctx, binding, BINDING_FINALIZER);
    return;
  }
  const template = templateOf(ctx.informers, resource, tenantId, namespace, binding.spec.resource.name);
  const tenant = tenantById(ctx, tenantId);
  const tenantNamespace = namespace ? toTenantNamespace(tenantId, namespace) : '';
  if (!template || !tenant || tenantNamespace === undefined) return;
  const tctx = tenantContextOf(ctx.informers, tenantId);
  const pruned = pruneTemplate(tctx, template);
  if (!pruned) return;

  // Applied only where the Tenant allows now, whatever spec.clusters says (checked here, not only when scheduling).
  const allowedNames = new Set(resolveTenantClusters(tenant.spec?.clusters, [...clusters.values()]));
  const { allowed: targets, refused } = splitTargets(clustersToPropagate(binding.spec), allowedNames);
  const evicting: TargetCluster[] = (binding.spec.gracefulEvictionTasks ?? [])
    .filter((t) => !targets.some((c) => c.name === t.fromCluster))
    .map((t) => ({ name: t.fromCluster, ...(t.replicas !== undefined ? { replicas: t.replicas } : {}) }));
  const suspension = binding.spec.suspension;
  const suspendedEverywhere = tenant.spec?.suspended === true || suspension?.dispatching === true;
  const suspendedOn = new Set(suspension?.dispatchingOnClusters?.clusterNames ?? []);
  const divided = binding.spec.placement?.replicaScheduling?.replicaSchedulingType === 'Divided';
  const overrides = tenantViews(tctx, ofTenant(ctx.informers.overrides, tenantId).filter((p) => p.metadata.namespace === namespace));
  const clusterOverrides = tenantViews(tctx, ofTenant(ctx.informers.clusterOverrides, tenantId));
  // A ClusterResourceBinding's marks also carry Karmada's clusterresourcebinding keys; the engine routes by PERMANENT_ID_LABEL.
  const marks: { labels: Record<string, string>; annotations: Record<string, string> } = namespace ? {
    labels: { [MANAGED_LABEL]: 'true', [PERMANENT_ID_LABEL]: uid },
    annotations: { [BINDING_NAME_ANNOTATION]: name, [BINDING_NAMESPACE_ANNOTATION]: tenantNamespace },
  } : {
    labels: { [MANAGED_LABEL]: 'true', [PERMANENT_ID_LABEL]: uid, [CLUSTER_PERMANENT_ID_LABEL]: uid },
    annotations: { [CLUSTER_BINDING_NAME_ANNOTATION]: name },
  };

  const sync = async (target: TargetCluster): Promise<Outcome> => {
    const cluster = clusters.get(target.name);
    const outcome = (applied: boolean, message?: string, memberObject?: KubeObject): ClusterOutcome =>
      ({ cluster: target.name, applied, ...(message ? { message } : {}), ...(memberObject ? { memberObject } : {}) });
    if (!cluster) return outcome(false, `cluster ${target.name} is not registered`);
    let manifest: KubeObject;
    try {
      manifest = manifestFor(pruned, target, cluster, divided, overrides, clusterOverrides).manifest;
    } catch (err) {
      await ctx.events.record(binding, 'Warning', 'ApplyOverridePolicyFailed', `Apply override policy failed on cluster ${target.name}: ${message(err)}`);
      return outcome(false, message(err));
    }
    const space = executionNamespace(target.name);
    const wName = scope.workName; // tenant terms
    // The Work is written while the member is applied to, not before: the host and the member work at once.
    const workWrite = writeWork(ctx, tenantId, space, wName, manifest, marks, binding, suspendedEverywhere || suspendedOn.has(target.name));
    workWrite.catch(() => undefined); // awaited on every path below
    const observed = ctx.members.observed(target.name, resource, namespace, binding.spec.resource.name);
    if (suspendedEverywhere || suspendedOn.has(target.name)) {
      await workWrite;
      return outcome(observed.obj !== undefined, 'dispatching is suspended', observed.obj);
    }
    if (cluster.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'False')) {
      // The Work says so too (kubectl get works shows APPLIED False): a member that cannot be reached is a failure the tenant should see there.
      const text = `cluster ${target.name} is not ready`;
      await writeWorkApplied(ctx, await workWrite, false, 'AppliedFailed', text, observed.obj, resource);
      return outcome(false, text, observed.obj);
    }
    const member = await ctx.members.client(cluster);
    if (!member) {
      await workWrite;
      return outcome(false, `no credentials for cluster ${target.name}`, observed.obj);
    }
    await ctx.members.watch(cluster, resource);
    // A Namespace template gets the tenant's Pod Security labels on the member, whatever the template says.
    const memberLabels = isNamespaceRow(resource) ? { ...marks.labels, ...podSecurityLabels(tenant.spec?.podSecurity ?? 'baseline') } : marks.labels;
    const scoped = scopeRbacForMember(memberManifest(tctx, manifest, { labels: memberLabels, annotations: { ...marks.annotations, [WORK_NAME_ANNOTATION]: wName, [WORK_NAMESPACE_ANNOTATION]: space } }));
    if (!scoped.ok) {
      // A cluster-wide grant is refused on members (ADR 20): the Work says why, nothing is applied, and a copy an
      // earlier engine applied goes (only if it carries this binding's marks).
      await deleteFromMember(member, resource, { tenantId, bindingUid: uid, address: verdict.address }).catch((err: unknown) => ctx.log(`propagation: cannot remove ${resource.kind} ${verdict.address.name} from ${target.name} yet: ${message(err)}`));
      await writeWorkApplied(ctx, await workWrite, false, 'AppliedFailed', scoped.reason, undefined, resource);
      return { ...outcome(false, scoped.reason), permanent: true };
    }
    const memberObj = scoped.obj;
    if (!inTenantSpace(tenantId, resource, memberObj, verdict.address)) {
      // The template's own translation put it elsewhere than the binding's address: never write there.
      await workWrite;
      return { ...outcome(false, 'the object does not translate to the tenant\'s space on the member'), permanent: true };
    }
    const applyKey = `${target.name}|${namespace}|${resource.kind}|${binding.spec.resource.name}`;
    const hash = createHash('sha1').update(JSON.stringify(memberObj)).digest('hex');
    let current = observed.obj;
    let failure: string | undefined;
    if (!ctx.applied.unchanged(applyKey, hash, observed.synced ? observed.obj : undefined)) {
      try {
        if (namespace) await ensureMemberNamespace(member, namespace, tenantId, tenant.spec?.podSecurity ?? 'baseline');
        const echoKey = memberEchoKey(target.name, resource, namespace, binding.spec.resource.name);
        let result: KubeObject | undefined;
        ctx.echoes.begin(echoKey);
        try {
          // A member namespace `<id>-<ns>` is the tenant's by its name: one the engine made implicitly is taken over.
          result = await applyToMember(member, resource, memberObj, { tenantId, existing: observed.synced ? observed.obj : 'unknown', overwrite: binding.spec.conflictResolution === 'Overwrite' });
        } finally {
          ctx.echoes.end(echoKey, result); // the member's event for this apply wakes nothing
        }
        current = result;
        ctx.applied.record(applyKey, hash, current);
      } catch (err) {
        if (err instanceof Error && /not ?found/i.test(err.message)) forgetMemberNamespace(member, namespace);
        // The member speaks in upstream names; the tenant reads this, so the prefix goes.
        failure = scrubText(tenantId, err instanceof ConflictError ? err.message : `failed to apply on cluster ${target.name}: ${message(err)}`);
      }
    }
    const work = await workWrite;
    if (failure !== undefined) {
      await writeWorkApplied(ctx, work, false, 'AppliedFailed', failure, undefined, resource);
      return outcome(false, failure, observed.obj);
    }
    await writeWorkApplied(ctx, work, true, 'AppliedSuccessful', 'Manifest has been successfully applied', current, resource);
    return outcome(true, undefined, current);
  };

  const outcomes: Outcome[] = await Promise.all(targets.map(sync));
  for (const t of refused) {
    const text = notAllowedMessage(t.name);
    outcomes.push({ cluster: t.name, applied: false, message: text, permanent: true });
    ctx.log(`propagation: binding ${namespace ? `${namespace}/` : ''}${name} of tenant ${tenantId}: ${text}`);
    await ctx.events.record(binding, 'Warning', 'ClusterNotAllowed', text);
  }

  // Clusters that are neither scheduled (and allowed) nor being evicted lose their Work and their copy.
  const keep = new Set([...targets, ...evicting].map((t) => t.name));
  const gone = [...new Set([...clusters.keys(), ...works.map((w) => clusterOfWork(tenantId, w) ?? '')])].filter((c) => c && !keep.has(c));
  await removeFrom(ctx, gone, works, scope, true);

  const items = aggregatedStatusOf(outcomes);
  // Failover: purge the evicted copies once every new one is healthy, or after the timeout.
  let current: ResourceBinding = binding;
  const tasks = binding.spec.gracefulEvictionTasks ?? [];
  if (tasks.length > 0) {
    const healthy = items.length > 0 && items.every((i) => i.applied && i.health === 'Healthy');
    const expired = (t: { creationTimestamp?: string }): boolean => Date.parse(t.creationTimestamp ?? '') + ctx.settings.gracefulEvictionTimeoutMs <= ctx.now().getTime();
    const done = tasks.filter((t) => healthy || expired(t) || targets.some((c) => c.name === t.fromCluster));
    if (done.length > 0) {
      await removeFrom(ctx, done.map((t) => t.fromCluster).filter((c) => !targets.some((x) => x.name === c)), works, scope, true);
      const rest = tasks.filter((t) => !done.includes(t));
      const { gracefulEvictionTasks: _dropped, ...spec } = binding.spec;
      current = await updateBindingSpec(ctx, binding, rest.length > 0 ? { ...spec, gracefulEvictionTasks: rest } : spec);
      for (const t of done) await ctx.events.record(binding, 'Normal', 'EvictWorkloadFromClusterSucceed', `Evicted workload from cluster ${t.fromCluster}`);
    }
  }

  // Built on the latest copy: the detector's Scheduled condition may have landed since this pass read the binding.
  let before: string | undefined;
  // The informer's copy only moves forward: unless this pass rewrote the spec, it is the freshest base (no 409 to retry).
  const base = current === binding ? bindingOf(ctx.informers, namespace, name) ?? current : current;
  const written = await ensureBindingStatus(ctx, base, (latest) => {
    // A spec changed meanwhile (new placement, new replicas) was not what these outcomes applied: its own pass will judge it.
    if (latest.metadata.generation !== current.metadata.generation) return undefined;
    before = JSON.stringify(latest.status?.conditions?.find((c) => c.type === 'FullyApplied')?.status);
    const status = { ...(latest.status ?? {}), aggregatedStatus: items };
    status.conditions = setCondition(status.conditions, fullyAppliedCondition(items), { now: ctx.now(), ...(latest.metadata.generation !== undefined ? { generation: latest.metadata.generation } : {}) });
    return status;
  });
  const after = JSON.stringify(written.status?.conditions?.find((c) => c.type === 'FullyApplied')?.status);
  if (before !== after && after === '"True"') await ctx.events.record(written, 'Normal', 'SyncWorkSucceed', 'Sync work of resourceBinding successful.');

  await writeTemplateStatus(ctx, resource, template, items);
  // A refusal (cluster not allowed, cluster-wide grant) does not heal by retrying: a change to the binding or the Tenant wakes it.
  const failed = outcomes.some((o) => !o.applied && !o.permanent) && !suspendedEverywhere;
  const waitingEviction = (current.spec.gracefulEvictionTasks ?? []).length > 0;
  return failed ? { requeueAfterMs: 2_000 } : waitingEviction ? { requeueAfterMs: 1_000 } : undefined;
}

async function writeWork(ctx: EngineContext, tenantId: string, space: string, wName: string, manifest: KubeObject,
  marks: { labels: Record<string, string>; annotations: Record<string, string> }, binding: ResourceBinding, suspended: boolean): Promise<Work> {
  const upstreamSpace = toUpstreamNamespace(tenantId, space);
  await ensureExecutionSpace(ctx.upstream, upstreamSpace, tenantId);
  // The creator mark: Works are read-only to tenants (ADR 19), so only the engine writes this annotation.
  const workMarks = { tenantLabel: { [TENANT_LABEL]: tenantId }, labels: marks.labels, annotations: { ...marks.annotations, [WORK_CREATOR_ANNOTATION]: binding.metadata.uid ?? '' } };
  return ensureWork(ctx, buildWork(wName, upstreamSpace, manifest, workMarks, {
    suspendDispatching: suspended, preserveResourcesOnDeletion: binding.spec.preserveResourcesOnDeletion === true,
  }));
}

async function writeWorkApplied(ctx: EngineContext, work: Work, applied: boolean, reason: string, text: string, memberObj: KubeObject | undefined, resource: TemplateResource): Promise<void> {
  const now = ctx.now();
  await writeWorkStatus(ctx, work, (latest) => {
    const conditions = setCondition(latest.status?.conditions, { type: CONDITION_APPLIED, status: applied ? 'True' : 'False', reason, message: text }, { now });
    const manifest = latest.spec.workload.manifests[0];
    const manifestStatuses = memberObj && manifest ? [{
      identifier: { ordinal: 0, ...splitApiVersion(manifest.apiVersion ?? ''), kind: resource.kind, ...(manifest.metadata.namespace ? { namespace: manifest.metadata.namespace } : {}), name: manifest.metadata.name ?? '' }, // the manifest's (tenant) group
      // Health only: the reflected status lives in the binding's aggregatedStatus, and carrying it here too
      // would rewrite every Work on every member status change (one more host write per cluster per change).
      health: interpretHealth(memberObj),
    }] : [];
    return { conditions, manifestStatuses };
  });
}

/** A refusal (`permanent`) is not retried on a timer: it heals only when the binding or the Tenant changes. */
type Outcome = ClusterOutcome & { permanent?: boolean };

/** What the engine may remove for one binding: one address on each member, and the Works in its slots. */
interface RemovalScope {
  resource: TemplateResource;
  address: MemberAddress;
  uid: string;
  tenantId: string;
  /** The Work's name in every execution space (tenant terms = upstream: Work names are not prefixed). */
  workName: string;
}

/**
 * A Work the engine wrote for this binding: its creator mark (not the permanent-id label, which says nothing
 * about who wrote it), in the tenant's execution space for some cluster, at the name the engine gives it.
 */
function isSlotOf(scope: RemovalScope, work: Work): boolean {
  return scope.uid !== '' && work.metadata.annotations?.[WORK_CREATOR_ANNOTATION] === scope.uid && work.metadata.name === scope.workName
    && work.metadata.labels?.[TENANT_LABEL] === scope.tenantId && clusterOfWork(scope.tenantId, work) !== undefined;
}

/**
 * Deletes the binding's Works for these clusters, and (when asked) its copies there: each copy is read
 * on the member and deleted only if it carries this binding's and tenant's marks (member-apply.ts).
 * Unreachable members are retried later.
 */
async function removeFrom(ctx: EngineContext, clusterNames: readonly string[], works: readonly Work[], scope: RemovalScope, deleteCopies: boolean): Promise<void> {
  const { resource, address, tenantId, uid } = scope;
  await Promise.all(clusterNames.map(async (clusterName) => {
    const cluster = ctx.informers.clusters.store.get(clusterName);
    const observed = ctx.members.observed(clusterName, resource, address.namespace, address.name);
    const ours = observed.obj !== undefined && ownedByBinding(tenantId, uid, resource, observed.obj, address);
    const work = works.find((w) => clusterOfWork(tenantId, w) === clusterName);
    if (deleteCopies && cluster && (ours || (!observed.synced && work))) {
      const member = await ctx.members.client(cluster);
      try {
        const result = member ? await deleteFromMember(member, resource, { tenantId, bindingUid: uid, address }) : 'absent';
        if (result === 'not-ours') ctx.log(`propagation: ${resource.kind} ${address.namespace ? `${address.namespace}/` : ''}${address.name} on ${clusterName} is not the copy of binding ${uid}; left alone`);
        ctx.applied.forget(`${clusterName}|${address.namespace}|${resource.kind}|${address.name}`);
      } catch (err) {
        ctx.log(`propagation: cannot remove ${resource.kind} ${address.namespace}/${address.name} from ${clusterName} yet: ${message(err)}`);
      }
    }
    if (work) await deleteWork(ctx, work.metadata.namespace ?? '', work.metadata.name ?? '');
  }));
}

function clusterOfWork(tenantId: string, work: Work): string | undefined {
  const space = toTenantNamespace(tenantId, work.metadata.namespace ?? '');
  return space === undefined ? undefined : clusterOfExecutionNamespace(space);
}

async function writeTemplateStatus(ctx: EngineContext, resource: TemplateResource, template: KubeObject, items: ReturnType<typeof aggregatedStatusOf>): Promise<void> {
  if (!resource.hasStatus) return;
  const now = rfc3339(ctx.now()); // new conditions' times (Job, Deployment); unchanged ones keep theirs
  // A kind with a held form: the tenant's status is an annotation (ADR 0023), the host's controllers own `.status`.
  if (await writeHeldStatus(ctx, resource, template, (view) => aggregateStatus(view, items, { now }))) return;
  const status = aggregateStatus(template, items, { now });
  if (status === undefined || jsonEqual(template.status ?? {}, status)) return;
  const [ns, name] = [template.metadata.namespace ?? '', template.metadata.name ?? ''];
  // Retried on a conflict: the previous pass's write of this status may not be in the informer yet.
  await ensureStatus(ctx, {
    path: `${namespacedPath(resource, ns)}/${encodeURIComponent(name)}`, echoKey: templateStatusEchoKey(resource, ns, name), current: template, missingOk: true,
    cached: () => ctx.informers.templates.get(resource)?.store.get(`${ns}/${name}`),
    build: (latest) => aggregateStatus(latest, items, { now }) ?? latest.status ?? {},
  });
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

