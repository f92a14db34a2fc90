// One-off migration at controller start (ADR 0028): every tenant ClusterRole,
// RoleBinding and ClusterRoleBinding still in the form written before that ADR
// is rewritten in today's form (core/tenancy/legacy-rbac.ts decides which and
// how). Idempotent: an object already in today's form is not written, so each
// start after the first lists and writes nothing. A conflict (someone wrote
// the object meanwhile) is retried from a fresh read; that write went through
// the gateway, which writes today's form, so usually nothing is left to do.
import { ApiError } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import { migrateLegacyRbac, type LegacyRbacKind } from '../../core/tenancy/legacy-rbac.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import type { ObjectClient } from '../../kube/object-client.ts';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const COLLECTIONS: Array<{ kind: LegacyRbacKind; path: string }> = [
  { kind: 'ClusterRole', path: `${RBAC}/clusterroles` },
  { kind: 'ClusterRoleBinding', path: `${RBAC}/clusterrolebindings` },
  { kind: 'RoleBinding', path: `${RBAC}/rolebindings` },
];
const ATTEMPTS = 3;

function pathOf(collection: string, obj: KubeObject): string {
  const { namespace, name } = obj.metadata;
  const base = namespace ? collection.replace(/\/rolebindings$/, `/namespaces/${encodeURIComponent(namespace)}/rolebindings`) : collection;
  return `${base}/${encodeURIComponent(name ?? '')}`;
}

async function migrateOne(client: ObjectClient, kind: LegacyRbacKind, path: string, listed: KubeObject): Promise<boolean> {
  let current: KubeObject | undefined = listed;
  for (let attempt = 1; current; attempt++) {
    const today = migrateLegacyRbac(kind, current);
    if (!today) return false;
    try {
      await client.update(path, today);
      return true;
    } catch (err) {
      if (attempt >= ATTEMPTS || !(err instanceof ApiError) || err.code !== 409) throw err;
      current = await client.get(path);
    }
  }
  return false;
}

/** Rewrites what is left in the old form; resolves with how many objects were written. */
export async function migrateLegacyTenantRbac(client: ObjectClient, log: (line: string) => void): Promise<number> {
  let written = 0;
  for (const { kind, path } of COLLECTIONS) {
    for (const obj of await client.list(path, TENANT_LABEL)) {
      const at = pathOf(path, obj);
      try {
        if (await migrateOne(client, kind, at, obj)) {
          written++;
          log(`onboarding: rewrote ${kind} ${obj.metadata.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata.name ?? ''} of tenant ${obj.metadata.labels?.[TENANT_LABEL] ?? ''} in today's form (ADR 0028)`);
        }
      } catch (err) {
        log(`onboarding: cannot rewrite ${kind} ${at} in today's form yet: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
  return written;
}
