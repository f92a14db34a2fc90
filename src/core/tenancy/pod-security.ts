// Pod Security Admission labels on a tenant's upstream namespaces, at the
// tenant's level. The onboarding controller writes them on the namespaces it
// creates; the gateway forces them on every namespace a tenant creates or
// changes, so a tenant can never weaken them.
import type { KubeObject } from '../types.ts';

export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';

const PSA_MODES = ['enforce', 'audit', 'warn'] as const;

export function podSecurityLabels(level: PodSecurityLevel): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const mode of PSA_MODES) {
    labels[`pod-security.kubernetes.io/${mode}`] = level;
    labels[`pod-security.kubernetes.io/${mode}-version`] = 'latest';
  }
  return labels;
}

/** Sets the labels on an upstream Namespace object (in place); other kinds are left alone. */
export function forcePodSecurity(obj: KubeObject, level: PodSecurityLevel): KubeObject {
  if (obj.kind !== 'Namespace' || (obj.apiVersion !== undefined && obj.apiVersion !== 'v1')) return obj;
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), ...podSecurityLabels(level) };
  return obj;
}
