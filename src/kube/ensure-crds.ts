// Installs Warren's CRDs upstream (create, or update to this version's schema)
// and waits until they are Established, so informers on them can start.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ApiError } from '../core/api-error.ts';
import type { KubeObject } from '../core/types.ts';
import type { Upstream } from './upstream.ts';

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

export function readCrdFiles(dir: string): KubeObject[] {
  return readdirSync(dir).filter((f) => f.endsWith('.yaml') || f.endsWith('.yml')).sort()
    .flatMap((f) => parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => d.toJS() as KubeObject))
    .filter((o) => o && o.kind === 'CustomResourceDefinition');
}

function established(crd: KubeObject): boolean {
  const conditions = ((crd.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []);
  return conditions.some((c) => c.type === 'Established' && c.status === 'True');
}

export async function ensureCrds(upstream: Upstream, crds: KubeObject[], timeoutMs = 30_000): Promise<void> {
  for (const crd of crds) {
    const name = crd.metadata.name ?? '';
    const current = await upstream.request<KubeObject>('GET', `${CRD_PATH}/${name}`);
    if (current.status === 404) {
      const created = await upstream.request('POST', CRD_PATH, crd);
      if (created.status !== 201 && created.status !== 409) throw new ApiError('InternalError', `cannot install CRD ${name}: HTTP ${created.status}`);
    } else if (current.status === 200) {
      const desired = { ...crd, metadata: { ...crd.metadata, resourceVersion: current.body.metadata.resourceVersion } };
      const updated = await upstream.request('PUT', `${CRD_PATH}/${name}`, desired);
      if (updated.status !== 200 && updated.status !== 409) throw new ApiError('InternalError', `cannot update CRD ${name}: HTTP ${updated.status}`);
    } else {
      throw new ApiError('InternalError', `cannot read CRD ${name}: HTTP ${current.status}`);
    }
  }
  const deadline = Date.now() + timeoutMs;
  for (const crd of crds) {
    const name = crd.metadata.name ?? '';
    for (;;) {
      const current = await upstream.request<KubeObject>('GET', `${CRD_PATH}/${name}`);
      if (current.status === 200 && established(current.body)) break;
      if (Date.now() > deadline) throw new ApiError('Timeout', `CRD ${name} did not become Established within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
