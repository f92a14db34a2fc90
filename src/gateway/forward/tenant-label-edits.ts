// The tenant label (tenancy.warren.dev/tenant) is the platform's: translation
// forces it on every object, and tenants never see it. A write that names it
// (to set it, change it, remove it, or select on it) cannot do what it says:
// before, `kubectl label ns web tenancy.warren.dev/tenant-` printed "unlabeled"
// and nothing changed. Such a write is refused with a 403 that says why.
// Checked on the request body as the tenant sent it (a patch included): a
// merge patch that removes the label leaves no trace in the final object,
// since the tenant's view never had the label to remove.
import { forbidden } from '../../core/api-error.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import { isObject } from '../../core/types.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';

// JSON Pointer spelling of the key, as a JSON patch path names it.
const POINTER_KEY = TENANT_LABEL.replace(/~/g, '~0').replace(/\//g, '~1');
const MAX_DEPTH = 100;

/** Does the value (a body or a patch) mention the tenant label as a key, or as a JSON patch path segment? */
export function mentionsTenantLabel(value: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH) return true; // deeper than any object kube accepts: refuse rather than skip
  if (Array.isArray(value)) return value.some((v) => mentionsTenantLabel(v, depth + 1));
  if (!isObject(value)) return false;
  // for...in, not Object.entries(): no array of pairs for a map of thousands (ADR 0026). Parsed JSON has own keys only.
  for (const key in value) {
    const v = value[key];
    if (key === TENANT_LABEL) return true;
    if ((key === 'path' || key === 'from') && typeof v === 'string' && v.split('/').includes(POINTER_KEY)) return true;
    if (mentionsTenantLabel(v, depth + 1)) return true;
  }
  return false;
}

export function refuseTenantLabelEdit(info: RequestInfo, user: string | undefined, value: unknown): void {
  if (!mentionsTenantLabel(value)) return;
  const subject = {
    resource: info.resource, verb: info.verb,
    ...(info.apiGroup ? { group: info.apiGroup } : {}),
    ...(info.name ? { name: info.name } : {}),
    ...(info.subresource ? { subresource: info.subresource } : {}),
    ...(info.namespace && info.resource !== 'namespaces' ? { namespace: info.namespace } : {}),
    ...(user !== undefined ? { user } : {}),
  };
  throw forbidden(subject, `the label ${TENANT_LABEL} is set by the platform on every object and cannot be set, changed, removed or selected on`);
}
