// The tenant sees its quota (issue 14 item 9): a ResourceQuota `tenant-quota`
// in its `default` namespace, as Capsule users see theirs, with the Tenant's
// cpu/memory/storage limits as `hard` and the usage onboarding counted as
// `used`. `kubectl describe quota tenant-quota -n default` then says what the
// refusals say (they name the same quota: quota-decision.ts).
// It must inform, never enforce: the limit is tenant-wide and the gateway
// enforces it (ADR 10), while a ResourceQuota upstream binds per namespace and,
// with `requests.cpu` in `hard`, makes the host refuse every pod without cpu
// requests. So its keys carry the tenancy.warren.dev/ prefix: no quota
// evaluator counts them (admission ignores them) and kube's quota controller
// keeps the `used` written here ("we preserve the past usage observation"; the
// embedded apiserver's too). Only in `default`: one tenant-wide figure, and
// namespaces the tenant makes are left exactly as on any cluster (Kubernetes'
// conformance specs count the quotas in theirs).
// Usage is as of onboarding's last count (each pass: a Tenant change, the
// periodic resync), not live; the gateway's refusals are always current.
import type { KubeObject } from '../../core/types.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { TENANT_QUOTA_NAME, hasResourceLimits, type ResourceLimits } from '../../core/tenancy/quota/quota-decision.ts';
import type { TenantStatus } from '../../tenants/tenant-crd.ts';
import type { ObjectClient } from '../../kube/object-client.ts';

export const QUOTA_VIEW_PREFIX = 'tenancy.warren.dev/';

const FIELDS = [['cpu', 'requests.cpu'], ['memory', 'requests.memory'], ['storage', 'requests.storage']] as const;

/** spec.hard and status.used of the view; pure. */
export function quotaViewFigures(limits: ResourceLimits, usage: TenantStatus['usage']): { hard: Record<string, string>; used: Record<string, string> } {
  const hard: Record<string, string> = {};
  const used: Record<string, string> = {};
  for (const [field, key] of FIELDS) {
    const limit = limits[field];
    if (limit === undefined) continue;
    hard[`${QUOTA_VIEW_PREFIX}${key}`] = String(limit);
    used[`${QUOTA_VIEW_PREFIX}${key}`] = String(usage?.[field] ?? '0');
  }
  return { hard, used };
}

/**
 * Creates, updates or (no limits) removes the view in the tenant's `default` namespace upstream.
 * `namespaceJustCreated`: that namespace was made by this very pass, so no view can exist yet (no read).
 */
export async function ensureQuotaView(client: ObjectClient, id: string, limits: ResourceLimits | undefined, usage: TenantStatus['usage'],
  options: { namespaceJustCreated?: boolean } = {}): Promise<void> {
  const collection = `/api/v1/namespaces/${id}-default/resourcequotas`;
  const path = `${collection}/${TENANT_QUOTA_NAME}`;
  if (options.namespaceJustCreated && !hasResourceLimits(limits)) return;
  const existing = options.namespaceJustCreated ? undefined : await client.get(path);
  if (!hasResourceLimits(limits)) {
    if (existing) await client.remove(path);
    return;
  }
  const { hard, used } = quotaViewFigures(limits, usage);
  const metadata = { name: TENANT_QUOTA_NAME, namespace: `${id}-default`, labels: { [TENANT_LABEL]: id } };
  let stored: KubeObject = existing ?? await client.create(collection, { apiVersion: 'v1', kind: 'ResourceQuota', metadata, spec: { hard } });
  const spec = stored.spec as { hard?: Record<string, string> } | undefined;
  if (existing && (JSON.stringify(spec?.hard ?? {}) !== JSON.stringify(hard) || stored.metadata.labels?.[TENANT_LABEL] !== id)) {
    stored = await client.update(path, { ...stored, metadata: { ...stored.metadata, labels: { ...stored.metadata.labels, [TENANT_LABEL]: id } }, spec: { ...(spec ?? {}), hard } });
  }
  const status = stored.status as { hard?: Record<string, string>; used?: Record<string, string> } | undefined;
  if (JSON.stringify(status?.hard ?? {}) === JSON.stringify(hard) && JSON.stringify(status?.used ?? {}) === JSON.stringify(used)) return;
  await client.update(`${path}/status`, { ...stored, status: { hard, used } });
}
