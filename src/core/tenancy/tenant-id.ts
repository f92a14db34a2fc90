// A tenant's short id and the prefix it puts on everything it owns upstream.
// The id has a fixed length (6), so `<id>-<rest>` splits without ambiguity:
// the prefix is always the first 7 characters, whatever <rest> holds.

export const TENANT_ID_LENGTH = 6;
const TENANT_ID = /^[a-z][a-z0-9]{5}$/;

/** The label every upstream object created through the gateway carries; invisible to tenants. */
export const TENANT_LABEL = 'tenancy.warren.dev/tenant';

export function isTenantId(value: string): boolean {
  return TENANT_ID.test(value);
}

/** Refuses a malformed id early: a bad id would make every mapping ambiguous. */
export function assertTenantId(id: string): void {
  if (!isTenantId(id)) throw new TypeError(`invalid tenant id ${JSON.stringify(id)}: want [a-z][a-z0-9]{5}`);
}

export function tenantPrefix(id: string): string {
  return `${id}-`;
}

/** `x` → `<id>-x`. */
export function addPrefix(id: string, value: string): string {
  return `${id}-${value}`;
}

/** `<id>-x` → `x`; undefined when the value is not this tenant's (or is the bare prefix). */
export function stripPrefix(id: string, value: string): string | undefined {
  const prefix = tenantPrefix(id);
  if (!value.startsWith(prefix) || value.length === prefix.length) return undefined;
  return value.slice(prefix.length);
}
