// Pod Security labels on a tenant's Namespaces are the platform's: translation
// forces them at the tenant's level (core/tenancy/pod-security.ts) where the
// tenant says nothing, and this admitter refuses a write that says something
// else. Before, `kubectl label ns web pod-security.kubernetes.io/enforce=privileged
// --overwrite` printed "labeled" while nothing changed: an edit that cannot
// apply must be refused, not dropped. A label left as it is stored passes (the
// tenant's level may have changed since it was written; translation rewrites it).
import { forbidden } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import { isPodSecurityLabel, podSecurityLabels, type PodSecurityLevel } from '../../core/tenancy/pod-security.ts';
import type { Admitter } from './admission-chain.ts';

/** The first Pod Security label the tenant asks to change, or undefined. */
export function podSecurityEdit(level: PodSecurityLevel, final: KubeObject, stored: KubeObject | undefined): { key: string; value: string } | undefined {
  const forced = podSecurityLabels(level);
  const storedLabels = stored?.metadata?.labels ?? {};
  for (const [key, value] of Object.entries(final.metadata?.labels ?? {})) {
    if (!isPodSecurityLabel(key)) continue;
    if (value === forced[key] || value === storedLabels[key]) continue;
    return { key, value };
  }
  return undefined;
}

export function podSecurityAdmitter(levelOf: (tenantId: string) => PodSecurityLevel): Admitter {
  return {
    name: 'pod-security-labels',
    start({ ctx, info }) {
      if (info.apiGroup !== '' || info.resource !== 'namespaces') return undefined;
      return {
        admit(final) {
          const level = levelOf(ctx.id);
          // For an apply, what was asked (the gateway forces the level, so the merge never shows it).
          const edit = (final.applied ? podSecurityEdit(level, final.applied, final.stored) : undefined) ?? podSecurityEdit(level, final.tenant, final.stored);
          if (!edit) return;
          const subject = { resource: 'namespaces', verb: info.verb, ...(info.name ? { name: info.name } : {}), ...(ctx.user !== undefined ? { user: ctx.user } : {}) };
          throw forbidden(subject, `the label ${edit.key} is set by the platform to "${forced(level, edit.key)}" for this tenant and cannot be set to "${edit.value}"`);
        },
      };
    },
  };
}

function forced(level: PodSecurityLevel, key: string): string {
  return podSecurityLabels(level)[key] ?? '(not set)';
}
