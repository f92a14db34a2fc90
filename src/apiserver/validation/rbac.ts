// Role, ClusterRole, RoleBinding, ClusterRoleBinding (pkg/apis/rbac/validation).
import type { StatusCause } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import { index, invalidValue, notSupported, required } from './field-errors.ts';
import { isValidPathSegmentName } from './name-rules.ts';
import { subdomainName } from './object-name.ts';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (isObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

function validateRule(rule: Obj, at: string, namespaced: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  if (list(rule.verbs).length === 0) causes.push(required(`${at}.verbs`, 'verbs must contain at least one value'));
  const urls = list(rule.nonResourceURLs);
  if (urls.length > 0) {
    if (namespaced) causes.push(invalidValue(`${at}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (list(rule.apiGroups).length > 0 || list(rule.resources).length > 0 || list(rule.resourceNames).length > 0) {
      causes.push(invalidValue(`${at}.nonResourceURLs`, urls, 'nonResourceURLs cannot be used with resources'));
    }
    return causes;
  }
  if (list(rule.apiGroups).length === 0) causes.push(required(`${at}.apiGroups`, 'resource rules must supply at least one api group'));
  if (list(rule.resources).length === 0) causes.push(required(`${at}.resources`, 'resource rules must supply at least one resource'));
  return causes;
}

export function validateRole(obj: Obj, namespaced: boolean): StatusCause[] {
  // An aggregated ClusterRole's rules are filled in by the controller, so they are not checked.
  const causes: StatusCause[] = [];
  list(obj.rules).forEach((r, i) => causes.push(...validateRule(rec(r), index('rules', i), namespaced)));
  return causes;
}

function validateSubject(s: Obj, at: string, namespaced: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  const name = typeof s.name === 'string' ? s.name : '';
  if (!name) causes.push(required(`${at}.name`));
  const apiGroup = s.apiGroup ?? '';
  switch (s.kind) {
    case 'ServiceAccount':
      if (name) for (const msg of subdomainName(name, false)) causes.push(invalidValue(`${at}.name`, name, msg));
      if (apiGroup !== '') causes.push(notSupported(`${at}.apiGroup`, apiGroup, ['']));
      if (!namespaced && !s.namespace) causes.push(required(`${at}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== RBAC_GROUP) causes.push(notSupported(`${at}.apiGroup`, apiGroup, [RBAC_GROUP]));
      break;
    default:
      causes.push(notSupported(`${at}.kind`, s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return causes;
}

export function validateBinding(obj: Obj, namespaced: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  const ref = rec(obj.roleRef);
  if ((ref.apiGroup ?? '') !== RBAC_GROUP) causes.push(notSupported('roleRef.apiGroup', ref.apiGroup ?? '', [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(String(ref.kind ?? ''))) causes.push(notSupported('roleRef.kind', ref.kind ?? '', kinds));
  const name = typeof ref.name === 'string' ? ref.name : '';
  if (!name) causes.push(required('roleRef.name'));
  else for (const msg of isValidPathSegmentName(name)) causes.push(invalidValue('roleRef.name', name, msg));
  list(obj.subjects).forEach((s, i) => causes.push(...validateSubject(rec(s), index('subjects', i), namespaced)));
  return causes;
}

/** Go marshals the internal RoleRef (no json tags), hence the capitalised keys in the message. */
export function validateBindingUpdate(obj: Obj, old: Obj): StatusCause[] {
  const ref = rec(obj.roleRef);
  const was = rec(old.roleRef);
  if (ref.apiGroup === was.apiGroup && ref.kind === was.kind && ref.name === was.name) return [];
  const shown = { APIGroup: ref.apiGroup ?? '', Kind: ref.kind ?? '', Name: ref.name ?? '' };
  return [invalidValue('roleRef', shown, 'cannot change roleRef')];
}
