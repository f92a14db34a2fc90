// How tenant users and groups are named upstream (in RBAC subjects and
// impersonation headers). Decision:
// - service-account identities name real upstream service accounts, so only
//   their namespace is prefixed: `system:serviceaccount:<ns>:<sa>` →
//   `system:serviceaccount:<id>-<ns>:<sa>`, `system:serviceaccounts:<ns>` →
//   `system:serviceaccounts:<id>-<ns>`;
// - every other user or group X (including `system:authenticated`,
//   `system:masters`, `system:serviceaccounts`) becomes `warren:<id>:X`. So a
//   tenant binding can never grant anything to a real upstream identity or to
//   another tenant's users: the `warren:<id>:` namespace is the tenant's alone.
import { addPrefix, stripPrefix } from './tenant-id.ts';

const SA_USER = 'system:serviceaccount:';
const SA_GROUP = 'system:serviceaccounts:';

function userPrefix(id: string): string {
  return `warren:${id}:`;
}

/** Maps `<head><ns>:<rest>` or `<head><ns>` by its namespace; undefined when the shape does not fit. */
function mapNamespaced(value: string, head: string, withRest: boolean, map: (ns: string) => string | undefined): string | undefined {
  const body = value.slice(head.length);
  if (!withRest) {
    if (body === '' || body.includes(':')) return undefined;
    const ns = map(body);
    return ns === undefined ? undefined : head + ns;
  }
  const colon = body.indexOf(':');
  if (colon <= 0 || colon === body.length - 1) return undefined;
  const ns = map(body.slice(0, colon));
  return ns === undefined ? undefined : `${head}${ns}${body.slice(colon)}`;
}

function isServiceAccountUser(name: string): boolean {
  return name.startsWith(SA_USER) && mapNamespaced(name, SA_USER, true, (ns) => ns) !== undefined;
}

function isServiceAccountGroup(name: string): boolean {
  return name.startsWith(SA_GROUP) && mapNamespaced(name, SA_GROUP, false, (ns) => ns) !== undefined;
}

export function toUpstreamUser(id: string, user: string): string {
  if (isServiceAccountUser(user)) return mapNamespaced(user, SA_USER, true, (ns) => addPrefix(id, ns)) ?? user;
  return userPrefix(id) + user;
}

export function toTenantUser(id: string, upstream: string): string | undefined {
  if (upstream.startsWith(SA_USER)) return mapNamespaced(upstream, SA_USER, true, (ns) => stripPrefix(id, ns));
  const p = userPrefix(id);
  return upstream.startsWith(p) && upstream.length > p.length ? upstream.slice(p.length) : undefined;
}

export function toUpstreamUserGroup(id: string, group: string): string {
  if (isServiceAccountGroup(group)) return mapNamespaced(group, SA_GROUP, false, (ns) => addPrefix(id, ns)) ?? group;
  return userPrefix(id) + group;
}

export function toTenantUserGroup(id: string, upstream: string): string | undefined {
  if (upstream.startsWith(SA_GROUP)) return mapNamespaced(upstream, SA_GROUP, false, (ns) => stripPrefix(id, ns));
  const p = userPrefix(id);
  return upstream.startsWith(p) && upstream.length > p.length ? upstream.slice(p.length) : undefined;
}
