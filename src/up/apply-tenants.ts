// Applies Tenant manifests (a folder of YAML) to the host: create, or update
// the spec of an existing Tenant, so re-running `up` converges.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ApiError } from '../core/api-error.ts';
import type { KubeObject } from '../core/types.ts';
import type { Upstream } from '../kube/upstream.ts';
import { TENANTS_PATH } from '../gateway/tenants/tenant-crd.ts';

export function readTenantManifests(dir: string): KubeObject[] {
  return readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort()
    .flatMap((f) => parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => d.toJS() as KubeObject))
    .filter((o) => o?.kind === 'Tenant');
}

export async function applyTenant(upstream: Upstream, tenant: KubeObject): Promise<void> {
  const name = tenant.metadata.name ?? '';
  const current = await upstream.request<KubeObject>('GET', `${TENANTS_PATH}/${name}`);
  if (current.status === 404) {
    const created = await upstream.request('POST', TENANTS_PATH, tenant);
    if (created.status === 201 || created.status === 409) return;
    throw new ApiError('InternalError', `tenant ${name}: ${JSON.stringify(created.body)}`);
  }
  const patched = await upstream.request('PATCH', `${TENANTS_PATH}/${name}`, { spec: tenant.spec }, { 'Content-Type': 'application/merge-patch+json' });
  if (patched.status !== 200) throw new ApiError('InternalError', `tenant ${name}: ${JSON.stringify(patched.body)}`);
}
