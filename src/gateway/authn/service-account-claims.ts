// The claims of a ServiceAccount token Warren issues (TokenRequest, ADR 0028),
// and how authentication reads them back. Shaped like kube's bound tokens
// (`kubernetes.io: {namespace, serviceaccount: {name, uid}}`, sub
// `system:serviceaccount:<ns>:<name>`), in the tenant's terms, plus Warren's
// tenant claims: the token names its tenant by id and by the Tenant object's
// uid (ADR 0025), and its ServiceAccount by uid, so a ServiceAccount deleted and
// made again under the same name does not inherit the old one's tokens.
import { isTenantUid } from '../../tenants/credentials/tenant-binding.ts';

export const KUBERNETES_CLAIM = 'kubernetes.io';
export const SERVICE_ACCOUNT_USER_PREFIX = 'system:serviceaccount:';
export const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';

export interface ServiceAccountRef {
  /** Tenant namespace (never prefixed). */
  namespace: string;
  name: string;
  uid: string;
}

// kube's rules: a namespace is a DNS label, a ServiceAccount name a DNS subdomain.
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function isServiceAccountName(name: string): boolean {
  return DNS_SUBDOMAIN.test(name);
}

export function isNamespaceName(name: string): boolean {
  return DNS_LABEL.test(name);
}

export function serviceAccountUser(ref: { namespace: string; name: string }): string {
  return `${SERVICE_ACCOUNT_USER_PREFIX}${ref.namespace}:${ref.name}`;
}

/** kube's ServiceAccount groups; system:authenticated is added by authorization, as for every identity. */
export function serviceAccountGroups(namespace: string): string[] {
  return [ALL_SERVICE_ACCOUNTS_GROUP, `${ALL_SERVICE_ACCOUNTS_GROUP}:${namespace}`];
}

export function serviceAccountClaim(ref: ServiceAccountRef): Record<string, unknown> {
  return { namespace: ref.namespace, serviceaccount: { name: ref.name, uid: ref.uid } };
}

/**
 * The ServiceAccount a verified payload names, undefined when it names none,
 * or a refusal (a string) when the claim is there but malformed or does not
 * agree with the subject: such a token is refused whole, never half-read.
 */
export function serviceAccountOf(payload: Record<string, unknown>): ServiceAccountRef | undefined | string {
  const claim = payload[KUBERNETES_CLAIM];
  const sub = payload.sub;
  const namesServiceAccount = typeof sub === 'string' && sub.startsWith(SERVICE_ACCOUNT_USER_PREFIX);
  if (claim === undefined) return namesServiceAccount ? 'a ServiceAccount user without a kubernetes.io claim is not a token Warren issued for it' : undefined;
  if (typeof claim !== 'object' || claim === null || Array.isArray(claim)) return 'malformed kubernetes.io claim';
  const { namespace, serviceaccount } = claim as Record<string, unknown>;
  const sa = typeof serviceaccount === 'object' && serviceaccount !== null ? serviceaccount as Record<string, unknown> : {};
  if (typeof namespace !== 'string' || !isNamespaceName(namespace)) return 'malformed kubernetes.io namespace';
  if (typeof sa.name !== 'string' || !isServiceAccountName(sa.name)) return 'malformed kubernetes.io serviceaccount name';
  if (typeof sa.uid !== 'string' || !isTenantUid(sa.uid)) return 'malformed kubernetes.io serviceaccount uid';
  const ref = { namespace, name: sa.name, uid: sa.uid };
  if (sub !== serviceAccountUser(ref)) return 'the subject does not name the ServiceAccount of the kubernetes.io claim';
  return ref;
}
