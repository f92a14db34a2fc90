// Tenant RBAC objects stored upstream before ADR 0028, in today's form.
//
// Two shapes were written then and still hold host power until rewritten:
// - ClusterRole label keys (and aggregationRule selector keys) as the tenant
//   wrote them: the host's aggregation controller folds a role labelled
//   `rbac.authorization.k8s.io/aggregate-to-admin` into the host's `admin`;
// - binding subjects naming the host identity of a tenant ServiceAccount
//   (`ServiceAccount <id>-<ns>/<sa>`, `system:serviceaccount:<id>-<ns>:<sa>`,
//   `system:serviceaccounts:<id>-<ns>`): a real grant to the host token a
//   tenant Pod gets mounted.
// Both still read back in tenant terms, so the rewrite is the translator's own
// round trip (upstream → tenant → upstream) of those fields only: the same
// code that writes today's objects decides today's form, and an object
// already in it comes back unchanged (the migration is idempotent). A subject
// that does not read back as the tenant's is dropped: the tenant never saw it.
import type { KubeObject } from '../types.ts';
import { jsonEqual } from '../json-equal.ts';
import { toTenantObject, toUpstreamObject } from './object-translation.ts';
import { TENANT_LABEL } from './tenant-id.ts';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
export type LegacyRbacKind = 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';

const FIELDS: Record<LegacyRbacKind, (obj: KubeObject) => Record<string, unknown>> = {
  ClusterRole: (obj) => ({ labels: obj.metadata.labels, aggregationRule: obj.aggregationRule }),
  RoleBinding: (obj) => ({ subjects: obj.subjects }),
  ClusterRoleBinding: (obj) => ({ subjects: obj.subjects }),
};

function roundTrip(id: string, kind: LegacyRbacKind, obj: KubeObject): KubeObject | undefined {
  const ctx = { id };
  // Upstream list items carry no kind: the caller's collection says what it is.
  const copy: KubeObject = { ...structuredClone(obj), apiVersion: `${RBAC_GROUP}/v1`, kind };
  delete copy.metadata.managedFields; // not rewritten: the update keeps the live ones
  const view = toTenantObject(ctx, copy);
  if (!view) return undefined;
  try {
    return toUpstreamObject(ctx, view, { type: { group: RBAC_GROUP, kind } });
  } catch {
    return undefined; // a legacy shape the translator refuses today (e.g. an invalid subject): left for the tenant to fix
  }
}

/**
 * The object to write back in today's form, or undefined when it already is
 * (or is not a tenant's object at all). Only the fields above change.
 */
export function migrateLegacyRbac(kind: LegacyRbacKind, obj: KubeObject): KubeObject | undefined {
  const id = obj.metadata.labels?.[TENANT_LABEL];
  if (!id) return undefined;
  const today = roundTrip(id, kind, obj);
  if (!today) return undefined;
  const before = FIELDS[kind](obj);
  const after = FIELDS[kind](today);
  if (jsonEqual(before, after)) return undefined;
  const out: KubeObject = structuredClone(obj);
  delete out.metadata.managedFields;
  if (kind === 'ClusterRole') {
    out.metadata.labels = today.metadata.labels;
    if (today.aggregationRule !== undefined) out.aggregationRule = today.aggregationRule;
  } else {
    out.subjects = today.subjects ?? [];
  }
  return out;
}
