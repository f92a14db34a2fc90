// A tenant's short id and the prefix it puts on everything it owns upstream.
// The id has a fixed length (6), so `<id>-<rest>` splits without ambiguity:
// the prefix is always the first 7 characters, whatever <rest> holds.
// This file is the one home of the id's format: the generator's alphabet, the
// config schema, the base-URL router, help texts and the prefix parsers derive
// from it, and a unit test holds the Tenant CRD's pattern to it. The isolation
// guard keeps its own deliberate copy (core/tenancy/isolation-guard.ts), so one
// edit here cannot silently widen what the guard lets through.

export const TENANT_ID_LENGTH = 6;
/** The first character of an id, then the other five: `[a-z][a-z0-9]{5}`. */
export const TENANT_ID_FIRST_CHARS = 'abcdefghijklmnopqrstuvwxyz';
export const TENANT_ID_REST_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** The id as a regular-expression source without anchors, for schemas, routers and messages. */
export const TENANT_ID_PATTERN = `[a-z][a-z0-9]{${TENANT_ID_LENGTH - 1}}`;
const TENANT_ID = new RegExp(`^${TENANT_ID_PATTERN}$`);

/** The label every upstream object created through the gateway carries; invisible to tenants. */
export const TENANT_LABEL = 'tenancy.warren.dev/tenant';

export function isTenantId(value: string): boolean {
  return TENANT_ID.test(value);
}

/** Refuses a malformed id early: a bad id would make every mapping ambiguous. */
export function assertTenantId(id: string): void {
  if (!isTenantId(id)) throw new TypeError(`invalid tenant id ${JSON.stringify(id)}: want ${TENANT_ID_PATTERN}`);
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

/** The id whose prefix (`<id>-`) starts value, if value has one (and something after it). */
export function prefixOwner(value: string): string | undefined {
  if (value.length <= TENANT_ID_LENGTH + 1 || value[TENANT_ID_LENGTH] !== '-') return undefined;
  const id = value.slice(0, TENANT_ID_LENGTH);
  return isTenantId(id) ? id : undefined;
}
