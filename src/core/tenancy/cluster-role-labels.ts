// Label keys of tenant ClusterRoles, tenant ⇄ upstream (ADR 0028).
//
// The host's clusterrole-aggregation controller folds into a ClusterRole with
// an aggregationRule every ClusterRole its selectors match. Stored upstream
// with the tenant's own label keys, a tenant ClusterRole labelled
// `rbac.authorization.k8s.io/aggregate-to-admin: "true"` joined the HOST's
// `admin` role (checked on 1.20: a `*/*/*` tenant role made host `admin`
// `*/*/*`), and so would any key some host rule selects. Which keys a host
// selects is the host's business and may change, so every key moves into a
// space that is the tenant's alone: `p/n` → `<id>.p/n`, `n` → `<id>/n`. The
// tenant label itself is Warren's and is not mapped. Selectors a tenant writes
// (aggregationRule, list and watch labelSelector) are mapped the same way, so
// the tenant's own aggregation keeps working, on the host and in the gateway.
//
// Keys stored before this mapping (no `<id>.`/`<id>/` head) read back as they
// are: the tenant's own objects keep aggregating in the gateway until they are
// written again, which stores them mapped. Host aggregation of such legacy
// keys stops only when they are rewritten (ADR 0028, migration).
import { TENANT_LABEL } from './tenant-id.ts';

/** kube's bound on a label key's prefix (a DNS subdomain). */
export const MAX_LABEL_PREFIX = 253;

export function toUpstreamRoleLabelKey(id: string, key: string): string {
  if (key === TENANT_LABEL) return key;
  return key.includes('/') ? `${id}.${key}` : `${id}/${key}`;
}

/** The tenant spelling of an upstream key; a key stored before the mapping reads as it is. */
export function toTenantRoleLabelKey(id: string, upstream: string): string {
  if (upstream.startsWith(`${id}/`) && upstream.length > id.length + 1) return upstream.slice(id.length + 1);
  if (upstream.startsWith(`${id}.`) && upstream.indexOf('/') > id.length + 1) return upstream.slice(id.length + 1);
  return upstream;
}

/** Whether the upstream key is in the tenant's mapped space (written since the mapping). */
export function isMappedRoleLabelKey(id: string, upstream: string): boolean {
  return toTenantRoleLabelKey(id, upstream) !== upstream;
}

/** A mapped key whose prefix would be longer than kube allows: the tenant's key, for a 422. */
export function overlongRoleLabelKey(id: string, labels: Record<string, unknown> | undefined): string | undefined {
  for (const key of Object.keys(labels ?? {})) {
    const mapped = toUpstreamRoleLabelKey(id, key);
    const slash = mapped.indexOf('/');
    if (slash > MAX_LABEL_PREFIX) return key;
  }
  return undefined;
}

/** Maps every key of a label map (the tenant label passes unmapped). */
export function mapLabelKeys(labels: Record<string, string> | undefined, map: (key: string) => string): Record<string, string> | undefined {
  if (!labels) return labels;
  const out: Record<string, string> = {};
  // Mapped keys win over a legacy key that reads the same (both may exist after an upgrade).
  const entries = Object.entries(labels);
  for (const [key, value] of entries) out[map(key)] = value;
  for (const [key, value] of entries) if (map(key) !== key) out[map(key)] = value;
  return out;
}
