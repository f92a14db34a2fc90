// How tenant users, groups and ServiceAccounts are named upstream (in RBAC
// subjects and impersonation headers). Decision (ADR 0028):
// - every user or group X, ServiceAccount users and groups included, becomes
//   `warren:<id>:X`; a ServiceAccount subject `<ns>/<sa>` becomes the user
//   `warren:<id>:system:serviceaccount:<ns>:<sa>`. So a tenant binding never
//   grants anything to a real upstream identity, another tenant's users, or
//   the host ServiceAccount behind the tenant's own: the host token a tenant
//   Pod gets mounted authenticates as `system:serviceaccount:<id>-<ns>:<sa>`,
//   which no tenant binding names. The tenant's RBAC is evaluated by the
//   gateway in tenant terms, so it works as before.
// - Upstream bindings written before this decision name the host identity
//   (`system:serviceaccount:<id>-<ns>:<sa>`, `system:serviceaccounts:<id>-<ns>`):
//   they still read back in tenant terms (legacy-subjects.ts rewrites them).
import { stripPrefix } from './tenant-id.ts';

export const SA_USER = 'system:serviceaccount:';
export const SA_GROUP = 'system:serviceaccounts:';

export function tenantUserSpace(id: string): string {
  return `warren:${id}:`;
}

/** The tail after `head`, or undefined when `value` does not start with it or has nothing after it. */
function after(value: string, head: string): string | undefined {
  return value.startsWith(head) && value.length > head.length ? value.slice(head.length) : undefined;
}

/**
 * `<ns>:<name>` split at its last colon (a ServiceAccount name cannot hold one,
 * kube validates it as a DNS subdomain); undefined when either side is empty.
 */
export function splitServiceAccount(body: string): { namespace: string; name: string } | undefined {
  const colon = body.lastIndexOf(':');
  if (colon <= 0 || colon === body.length - 1) return undefined;
  return { namespace: body.slice(0, colon), name: body.slice(colon + 1) };
}

export function toUpstreamUser(id: string, user: string): string {
  return tenantUserSpace(id) + user;
}

export function toTenantUser(id: string, upstream: string): string | undefined {
  const own = after(upstream, tenantUserSpace(id));
  if (own !== undefined) return own;
  // Legacy: a ServiceAccount user stored as the host identity, in one of the tenant's namespaces.
  const sa = splitServiceAccount(after(upstream, SA_USER) ?? '');
  const namespace = sa && stripPrefix(id, sa.namespace);
  return sa && namespace !== undefined ? `${SA_USER}${namespace}:${sa.name}` : undefined;
}

export function toUpstreamUserGroup(id: string, group: string): string {
  return tenantUserSpace(id) + group;
}

export function toTenantUserGroup(id: string, upstream: string): string | undefined {
  const own = after(upstream, tenantUserSpace(id));
  if (own !== undefined) return own;
  // Legacy: a ServiceAccount group stored as the host's group of one of the tenant's namespaces.
  const ns = after(upstream, SA_GROUP);
  const namespace = ns === undefined || ns.includes(':') ? undefined : stripPrefix(id, ns);
  return namespace === undefined ? undefined : SA_GROUP + namespace;
}

/** The upstream user a tenant ServiceAccount subject stands for (not the host ServiceAccount). */
export function toUpstreamServiceAccountUser(id: string, namespace: string, name: string): string {
  return `${tenantUserSpace(id)}${SA_USER}${namespace}:${name}`;
}

/** The tenant ServiceAccount an upstream user names, if it is one of this tenant's (any shape). */
export function toTenantServiceAccount(id: string, upstream: string): { namespace: string; name: string } | undefined {
  const user = toTenantUser(id, upstream);
  return user === undefined ? undefined : splitServiceAccount(after(user, SA_USER) ?? '');
}
