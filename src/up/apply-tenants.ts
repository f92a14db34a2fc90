// Applies Tenant manifests (a folder of YAML) to the host the way `warren apply`
// does: server-side apply with field manager `warren`, forced (the manifests own
// the fields they name), carrying kubectl's last-applied annotation. So
// re-running `up`, `warren apply -f tenants/` or `kubectl apply -f tenants/`
// after `up` all find the Tenants unchanged.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ApiError } from '../core/api-error.ts';
import { withLastApplied } from '../core/patch/last-applied-configuration.ts';
import type { KubeObject } from '../core/types.ts';
import type { Upstream } from '../kube/upstream.ts';
import { TENANTS_PATH } from '../tenants/tenant-crd.ts';

export const FIELD_MANAGER = 'warren';

export function readTenantManifests(dir: string): KubeObject[] {
  return readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort()
    .flatMap((f) => parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => d.toJS() as KubeObject))
    .filter((o) => o?.kind === 'Tenant');
}

/** Server-side applies one manifest at `path` (the object's own URL); the upstream's answer, as is. */
export function applyManifest(upstream: Upstream, path: string, manifest: KubeObject): ReturnType<Upstream['request']> {
  return upstream.request<KubeObject>('PATCH', `${path}?fieldManager=${FIELD_MANAGER}&force=true&fieldValidation=Strict`, withLastApplied(manifest), {
    'Content-Type': 'application/apply-patch+yaml',
  });
}

export async function applyTenant(upstream: Upstream, tenant: KubeObject): Promise<void> {
  const name = tenant.metadata.name ?? '';
  const answer = await applyManifest(upstream, `${TENANTS_PATH}/${name}`, tenant);
  if (answer.status !== 200 && answer.status !== 201) throw new ApiError('InternalError', `tenant ${name}: ${JSON.stringify(answer.body)}`);
}
