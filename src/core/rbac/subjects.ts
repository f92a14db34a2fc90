// Who a binding's subjects are: kube's appliesToUser, the ServiceAccount user
// name, and the implicit group every authenticated user carries.
import type { Subject, UserInfo } from './types.ts';

export const ALL_AUTHENTICATED = 'system:authenticated';
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';
export const ANONYMOUS = 'system:anonymous';
const SA_PREFIX = 'system:serviceaccount:';

/** The user name a ServiceAccount authenticates as. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SA_PREFIX}${namespace}:${name}`;
}

/**
 * The user name a subject stands for, or undefined if it cannot match any user.
 * A ServiceAccount with no namespace takes the binding's (kube lets RoleBindings
 * omit it); in a ClusterRoleBinding there is none, so it matches nobody.
 */
export function subjectUserKey(subject: Subject, bindingNamespace: string): string | undefined {
  if (subject.kind === 'User') return subject.name;
  if (subject.kind !== 'ServiceAccount') return undefined;
  const namespace = subject.namespace || bindingNamespace;
  return namespace ? serviceAccountUsername(namespace, subject.name) : undefined;
}

/**
 * Whether a subject names this user. The subject's apiGroup is not consulted, as in
 * kube's authorizer (validation is what enforces it on write).
 */
export function appliesToUser(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  if (subject.kind === 'Group') return user.groups.includes(subject.name);
  const key = subjectUserKey(subject, bindingNamespace);
  return key !== undefined && key === user.name;
}

/** Index of the first subject that names the user, or -1; kube reports that one as the grant's source. */
export function firstApplyingSubject(user: UserInfo, subjects: readonly Subject[], bindingNamespace: string): number {
  return subjects.findIndex((s) => appliesToUser(user, s, bindingNamespace));
}

/**
 * kube's AuthenticatedGroupAdder: every authenticated user is in system:authenticated,
 * except the anonymous user and users already marked (un)authenticated. Idempotent, so
 * applying it to an already-authenticated user changes nothing.
 */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.name === ANONYMOUS) return user;
  if (user.groups.some((g) => g === ALL_AUTHENTICATED || g === ALL_UNAUTHENTICATED)) return user;
  return { name: user.name, groups: [...user.groups, ALL_AUTHENTICATED] };
}
