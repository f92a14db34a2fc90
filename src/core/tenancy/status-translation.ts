// Status errors (and any upstream text) in tenant terms. Upstream text is
// written about upstream objects, so it can name three things a tenant must
// never see: its own prefix (`<id>-`, `warren:<id>:`), which is shortened away;
// another tenant's prefixed names and user names, which are hidden whole; and
// the host's own layout (a storage key such as real kube's
// `Key: /registry/configmaps/<id>-shop/x` in a uid-precondition 409, a file
// path in a store error), hidden whole. Every upstream message a tenant reads
// passes through scrubText, so this is the one place that must be total.
// Traps: a tenant's own name that happens to start with `<id>-` is shortened
// too, and one that starts with a known tenant's id (a Pod `bbbbbb-web` when
// bbbbbb is a tenant) is hidden: the text is for humans, and hiding too much
// is the safe side; so is a word holding another tenant's prefixed name after
// a `-` (`x-bbbbbb-shop`). Which ids are tenants comes from the caller (the
// gateway's tenant directory); without it only the caller's own id is recognised.
import type { Status, StatusCause, StatusDetails } from '../types.ts';
import { tenantGroupOf } from './kind-treatment.ts';
import { prefixOwner, stripPrefix, TENANT_ID_LENGTH, TENANT_ID_PATTERN } from './tenant-id.ts';

/** Is this id a tenant's (any tenant, the caller's included)? */
export type KnownTenantIds = (id: string) => boolean;

/** What stands where something not the tenant's was. */
export const HIDDEN = '<hidden>';

/**
 * An absolute path of two or more segments that does not start inside a word,
 * URL or other path: storage keys and host files. The server's own paths (`/api/…`,
 * `/apis/…`, `/openapi/…`, health) are the tenant's vocabulary and pass (their names still go
 * through the name rule below).
 */
const HOST_PATH = /(?<![\w.:/@-])\/(?!(?:apis?|openapi|healthz|livez|readyz)\/)[\w.@+~-]+(?:\/[\w.@+~-]*)+/g;
/**
 * A file URL (a native ESM stack line, `file:///work/…/log.ts:10:5`): its path is a host path, but
 * starts after `//`, where HOST_PATH does not look (so that a URL's own path is kept).
 */
const FILE_URL = /\bfile:\/\/[\w.-]*(?:\/[\w.@+~%-]*)+/g;
/** `warren:<id>:<user>`, a user name in some tenant's space. */
const USER_SPACE = new RegExp(`warren:(${TENANT_ID_PATTERN}):([^\\s"',;)\\]}]*)`, 'g');
/** A name-like token that starts a name (nothing name-like before it). */
const NAME_TOKEN = /(?<![a-z0-9-])[a-z0-9][a-z0-9-]*/g;

const isOther = (id: string, owner: string | undefined, known: KnownTenantIds | undefined): boolean =>
  owner !== undefined && owner !== id && known?.(owner) === true;

/**
 * Another tenant's prefixed name after a `-` inside the token (`x-<other>-shop`). Nothing upstream is known to
 * write one (every upstream name starts with its owner's prefix), but the rule is about the text, not about who
 * wrote it: hidden whole like a name that starts with it. One look per `-`, so linear in the token.
 */
function otherPrefixInside(id: string, token: string, known: KnownTenantIds | undefined): boolean {
  for (let dash = token.indexOf('-'); dash >= 0; dash = token.indexOf('-', dash + 1)) {
    const start = dash + 1;
    if (token.length - start <= TENANT_ID_LENGTH + 1) return false;
    if (token[start + TENANT_ID_LENGTH] === '-' && isOther(id, prefixOwner(token.slice(start, start + TENANT_ID_LENGTH + 2)), known)) return true;
  }
  return false;
}

function scrubName(id: string, token: string, known: KnownTenantIds | undefined): string {
  // The caller's own name is its own text, whatever it holds (a name `x-<other>-y` it chose is kept).
  const own = stripPrefix(id, token);
  if (own !== undefined) return own;
  return isOther(id, prefixOwner(token), known) || otherPrefixInside(id, token, known) ? HIDDEN : token;
}

/** The name rule alone, for text that is the tenant's data rather than a message (Table cells). */
export function scrubNames(id: string, text: string, known?: KnownTenantIds): string {
  return text.replace(NAME_TOKEN, (token) => scrubName(id, token, known));
}

/** Any upstream text → the same text with nothing of another tenant's or of the host's, and the caller's names in its own terms. */
export function scrubText(id: string, text: string, known?: KnownTenantIds): string {
  return text
    .replace(FILE_URL, HIDDEN)
    .replace(HOST_PATH, HIDDEN)
    .replace(USER_SPACE, (_all, owner: string, user: string) => (owner === id ? user : HIDDEN))
    .replace(NAME_TOKEN, (token) => scrubName(id, token, known));
}

function scrubCause(id: string, cause: StatusCause, known: KnownTenantIds | undefined): StatusCause {
  const out: StatusCause = { ...cause };
  if (cause.message !== undefined) out.message = scrubText(id, cause.message, known);
  if (cause.field !== undefined) out.field = scrubText(id, cause.field, known);
  return out;
}

function scrubDetails(id: string, details: StatusDetails, known: KnownTenantIds | undefined): StatusDetails {
  const out: StatusDetails = { ...details };
  if (details.name !== undefined) out.name = scrubText(id, details.name, known);
  if (details.group !== undefined) {
    const group = tenantGroupOf(id, details.group);
    if (group === undefined) delete out.group;
    else out.group = group;
  }
  if (details.kind !== undefined) out.kind = scrubText(id, details.kind, known);
  if (details.causes) out.causes = details.causes.map((c) => scrubCause(id, c, known));
  return out;
}

/** Upstream Status → tenant Status (a new object). */
export function toTenantStatus(id: string, status: Status, known?: KnownTenantIds): Status {
  const out: Status = { ...status };
  if (status.message !== undefined) out.message = scrubText(id, status.message, known);
  if (status.details) out.details = scrubDetails(id, status.details, known);
  return out;
}
