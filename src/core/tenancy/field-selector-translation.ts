// Field selectors between tenant and upstream. Fields that hold a namespace
// get the prefix; metadata.name gets it only where names are prefixed
// (tenant cluster-scoped objects). An empty value is kept as is: no tenant
// namespace or name is empty, so '' means the same on both sides.
import { formatFieldSelector, parseFieldSelector, type FieldRequirement } from '../selectors/index.ts';
import { addPrefix, stripPrefix } from './tenant-id.ts';

export interface FieldSelectorOptions {
  /** True when metadata.name holds a prefixed name (tenant cluster-scoped resources, namespaces included). */
  prefixedNames: boolean;
  /**
   * How a prefixed metadata.name is spelled upstream and back, when not `<id>-<name>`
   * (CRDs: `foos.a.com` ⇄ `foos.<id>-a.com`).
   */
  names?: { toUpstream(id: string, name: string): string; toTenant(id: string, name: string): string | undefined };
}

// Namespace-valued fields of built-in kinds (core and events.k8s.io events).
const NAMESPACE_FIELDS = new Set(['metadata.namespace', 'involvedObject.namespace', 'regarding.namespace']);

function isPrefixed(field: string, options: FieldSelectorOptions): boolean {
  return NAMESPACE_FIELDS.has(field) || (options.prefixedNames && field === 'metadata.name');
}

function mapValues(reqs: FieldRequirement[], options: FieldSelectorOptions, map: (value: string, field: string) => string): FieldRequirement[] {
  return reqs.map((r) => (isPrefixed(r.field, options) && r.value !== '' ? { ...r, value: map(r.value, r.field) } : r));
}

/** Throws BadRequest for a malformed selector. */
export function toUpstreamFieldSelector(id: string, selector: string, options: FieldSelectorOptions): string {
  const names = options.names;
  return formatFieldSelector(mapValues(parseFieldSelector(selector), options, (v, field) => (field === 'metadata.name' && names ? names.toUpstream(id, v) : addPrefix(id, v))));
}

/**
 * Inverse. A value that is not this tenant's cannot come from a tenant's own
 * selector; it is shown as '' rather than with a foreign prefix.
 */
export function toTenantFieldSelector(id: string, upstream: string, options: FieldSelectorOptions): string {
  const names = options.names;
  return formatFieldSelector(mapValues(parseFieldSelector(upstream), options, (v, field) => (field === 'metadata.name' && names ? names.toTenant(id, v) : stripPrefix(id, v)) ?? ''));
}
