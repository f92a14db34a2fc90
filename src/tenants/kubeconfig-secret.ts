// Where a Tenant's kubeconfigs live: one Secret warren-system/tenant-<name>-kubeconfigs
// with a `<user>.kubeconfig` key per user. Onboarding writes it, cleanup deletes it,
// and provisioning hands its admin entry to a portal: the naming is the Tenant API's.
import { SYSTEM_NAMESPACE } from './platform-secrets.ts';

export const SECRETS_PATH = `/api/v1/namespaces/${SYSTEM_NAMESPACE}/secrets`;
export const KUBECONFIG_SUFFIX = '.kubeconfig';

export function kubeconfigSecretName(tenantName: string): string {
  return `tenant-${tenantName}-kubeconfigs`;
}

/**
 * The Secret key of a user's kubeconfig. Secret keys allow only [-._a-zA-Z0-9]:
 * anything else (an e-mail's @) becomes "_". Two users differing only there
 * would share a key; spec validation does not catch that yet.
 */
export function kubeconfigKey(user: string): string {
  return `${user.replace(/[^-._a-zA-Z0-9]/g, '_')}${KUBECONFIG_SUFFIX}`;
}
