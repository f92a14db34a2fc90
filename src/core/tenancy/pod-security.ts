// Pod Security Admission labels on a tenant's upstream namespaces, at the
// tenant's level. The onboarding controller writes them on the namespaces it
// creates; the gateway forces them on every namespace a tenant creates or
// changes, so a tenant can never weaken them.
import type { KubeObject } from '../types.ts';

export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';

const PSA_MODES = ['enforce', 'audit', 'warn'] as const;
const PSA_PREFIX = 'pod-security.kubernetes.io/';

/** Any label of the Pod Security Admission's prefix: the platform's alone on tenant namespaces. */
export function isPodSecurityLabel(key: string): boolean {
  return key.startsWith(PSA_PREFIX);
}

export function podSecurityLabels(level: PodSecurityLevel): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const mode of PSA_MODES) {
    labels[`pod-security.kubernetes.io/${mode}`] = level;
    labels[`pod-security.kubernetes.io/${mode}-version`] = 'latest';
  }
  return labels;
}

/**
 * Sets the labels on an upstream Namespace object (in place), whatever the
 * object says it is: the caller knows from the request that it is a Namespace.
 * Any other label under the Pod Security prefix goes.
 */
export function forceNamespacePodSecurity(obj: KubeObject, level: PodSecurityLevel): KubeObject {
  const labels = Object.fromEntries(Object.entries(obj.metadata.labels ?? {}).filter(([key]) => !isPodSecurityLabel(key)));
  obj.metadata.labels = { ...labels, ...podSecurityLabels(level) };
  return obj;
}
