// kube's impersonation filter (k8s.io/apiserver/pkg/endpoints/filters/impersonation.go),
// over a tenant's own RBAC: Impersonate-User (a ServiceAccount when it reads
// system:serviceaccount:<ns>:<name>), Impersonate-Group, Impersonate-Extra-<key> and
// Impersonate-Uid, each attribute authorized separately with the verb `impersonate`,
// in that order; the first refusal is kube's 403. Every name stays in the tenant's
// terms: the impersonated identity keeps the caller's tenant, so it can only ever
// name users of that tenant's RBAC.
import { badRequest } from '../api-error.ts';
import { authorize, forbiddenError } from './authorize.ts';
import type { PolicyIndex } from './policy-index.ts';
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS, serviceAccountUsername } from './subjects.ts';
import type { AuthorizationAttributes, UserInfo } from './types.ts';

const AUTHENTICATION_GROUP = 'authentication.k8s.io';
const SA_PREFIX = 'system:serviceaccount:';
const EXTRA_PREFIX = 'impersonate-extra-';

/** What the headers ask for, before any check. */
export interface ImpersonationRequest {
  user: string;
  uid: string;
  /** In header order; empty when no Impersonate-Group was sent. */
  groups: string[];
  /** [key, value] in header order, keys lower-cased and %-decoded as kube does. */
  extra: Array<[string, string]>;
}

export interface ImpersonatedUser extends UserInfo {
  uid?: string;
  extra?: Record<string, string[]>;
}

/** kube's unescapeExtraKey: %-decoding, keeping the raw key when it is malformed. */
function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/**
 * Reads Impersonate-* header lines ([name, value], any case, in arrival order).
 * undefined when no user is asked for and nothing else either; a group, uid or extra
 * without a user is kube's 400 (1.20 answered 500; newer releases 400).
 */
export function impersonationRequestOf(lines: ReadonlyArray<readonly [string, string]>): ImpersonationRequest | undefined {
  const first = (name: string): string => lines.find(([n]) => n.toLowerCase() === name)?.[1] ?? '';
  const user = first('impersonate-user');
  const uid = first('impersonate-uid');
  const groups = lines.filter(([n]) => n.toLowerCase() === 'impersonate-group').map(([, v]) => v);
  const extra = lines.filter(([n]) => n.toLowerCase().startsWith(EXTRA_PREFIX))
    .map(([n, v]): [string, string] => [unescapeExtraKey(n.toLowerCase().slice(EXTRA_PREFIX.length)), v]);
  if (!user) {
    if (uid || groups.length > 0 || extra.length > 0) {
      throw badRequest(`requested ${describe({ user, uid, groups, extra })} without impersonating a user name`);
    }
    return undefined;
  }
  return { user, uid, groups, extra };
}

function describe(wanted: ImpersonationRequest): string {
  const parts = [
    ...wanted.groups.map((g) => `group ${JSON.stringify(g)}`),
    ...wanted.extra.map(([k, v]) => `extra ${JSON.stringify(k)}=${JSON.stringify(v)}`),
    ...(wanted.uid ? [`uid ${JSON.stringify(wanted.uid)}`] : []),
  ];
  return `[${parts.join(', ')}]`;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** kube's serviceaccount.SplitUsername: a valid namespace (DNS label) and name (DNS subdomain), or undefined. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SA_PREFIX)) return undefined;
  const parts = username.slice(SA_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace = '', name = ''] = parts;
  if (namespace.length > 63 || !DNS_LABEL.test(namespace)) return undefined;
  if (name.length > 253 || !name.split('.').every((label) => DNS_LABEL.test(label))) return undefined;
  return { namespace, name };
}

type Check = Pick<AuthorizationAttributes, 'apiGroup' | 'resource' | 'subresource' | 'name' | 'namespace'>;

/** The attributes kube authorizes, one per impersonated attribute, in kube's order. */
export function impersonationChecks(wanted: ImpersonationRequest): Check[] {
  const sa = splitServiceAccountUsername(wanted.user);
  const checks: Check[] = [sa
    ? { apiGroup: '', resource: 'serviceaccounts', subresource: '', name: sa.name, namespace: sa.namespace }
    : { apiGroup: '', resource: 'users', subresource: '', name: wanted.user, namespace: '' }];
  for (const group of wanted.groups) checks.push({ apiGroup: '', resource: 'groups', subresource: '', name: group, namespace: '' });
  for (const [key, value] of wanted.extra) checks.push({ apiGroup: AUTHENTICATION_GROUP, resource: 'userextras', subresource: key, name: value, namespace: '' });
  if (wanted.uid) checks.push({ apiGroup: AUTHENTICATION_GROUP, resource: 'uids', subresource: '', name: wanted.uid, namespace: '' });
  return checks;
}

/**
 * Authorizes every attribute for the requestor (throwing kube's 403 at the first
 * refusal) and returns the user the request then runs as. Groups, when none were
 * asked for: a ServiceAccount's fixed ones; then system:authenticated is added unless
 * the asked groups carry it or system:unauthenticated (system:unauthenticated for
 * system:anonymous), as kube does.
 */
export function impersonate(index: PolicyIndex, requestor: UserInfo, wanted: ImpersonationRequest): ImpersonatedUser {
  for (const check of impersonationChecks(wanted)) {
    const attrs: AuthorizationAttributes = { user: requestor, verb: 'impersonate', isResourceRequest: true, path: '', ...check };
    const decision = authorize(attrs, index);
    if (!decision.allowed) throw forbiddenError(attrs, decision.reason);
  }
  const sa = splitServiceAccountUsername(wanted.user);
  const groups = wanted.groups.length > 0 ? [...wanted.groups] : sa ? ['system:serviceaccounts', `system:serviceaccounts:${sa.namespace}`] : [];
  if (wanted.user !== ANONYMOUS) {
    if (!groups.includes(ALL_AUTHENTICATED) && !groups.includes(ALL_UNAUTHENTICATED)) groups.push(ALL_AUTHENTICATED);
  } else if (!groups.includes(ALL_UNAUTHENTICATED)) groups.push(ALL_UNAUTHENTICATED);
  const out: ImpersonatedUser = { name: sa ? serviceAccountUsername(sa.namespace, sa.name) : wanted.user, groups };
  if (wanted.uid) out.uid = wanted.uid;
  if (wanted.extra.length > 0) {
    // No prototype: an extra key is the tenant's to choose, "__proto__" included.
    const extra = Object.create(null) as Record<string, string[]>;
    for (const [key, value] of wanted.extra) (extra[key] ??= []).push(value);
    out.extra = extra;
  }
  return out;
}
