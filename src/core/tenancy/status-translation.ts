// Status errors (and any upstream text) in tenant terms: the tenant's own
// prefix is removed wherever it starts a name, and `warren:<id>:` user names
// are shortened. Only this tenant's id can appear in what its requests reach
// upstream (every name it sends is prefixed with its own id), so removing it
// leaves no id at all. Trap: a tenant's own name that happens to start with
// `<id>-` is shortened too; the text is for humans, so we accept that.
import type { Status, StatusCause, StatusDetails } from '../types.ts';
import { tenantGroupOf } from './kind-treatment.ts';
import { stripPrefix } from './tenant-id.ts';

/** Removes `<id>-` where it starts a name (not inside a longer word) and `warren:<id>:`. */
export function scrubText(id: string, text: string): string {
  return text.replaceAll(`warren:${id}:`, '').replace(new RegExp(`(?<![a-z0-9-])${id}-`, 'g'), '');
}

function scrubCause(id: string, cause: StatusCause): StatusCause {
  const out: StatusCause = { ...cause };
  if (cause.message !== undefined) out.message = scrubText(id, cause.message);
  if (cause.field !== undefined) out.field = scrubText(id, cause.field);
  return out;
}

function scrubDetails(id: string, details: StatusDetails): StatusDetails {
  const out: StatusDetails = { ...details };
  if (details.name !== undefined) out.name = stripPrefix(id, details.name) ?? scrubText(id, details.name);
  if (details.group !== undefined) {
    const group = tenantGroupOf(id, details.group);
    if (group === undefined) delete out.group;
    else out.group = group;
  }
  if (details.causes) out.causes = details.causes.map((c) => scrubCause(id, c));
  return out;
}

/** Upstream Status → tenant Status (a new object). */
export function toTenantStatus(id: string, status: Status): Status {
  const out: Status = { ...status };
  if (status.message !== undefined) out.message = scrubText(id, status.message);
  if (status.details) out.details = scrubDetails(id, status.details);
  return out;
}
