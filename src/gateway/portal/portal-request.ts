// What a provisioning-API request asks for, checked before anything is written
// (pure): the PUT body (strict: unknown fields are a 400, a spec the
// onboarding controller would refuse is a 422) and the optimistic
// concurrency precondition (If-Match or metadata.resourceVersion).
import { badRequest, invalid } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import { validateTenantSpec } from '../../tenants/validate-spec.ts';
import { TENANT_GROUP, TENANT_API_VERSION, tenantSchema, type TenantSpec } from '../../tenants/tenant-crd.ts';
import { unknownFields } from './strict-fields.ts';

const TARGET = { group: TENANT_GROUP, kind: 'Tenant' };

export interface PutRequest {
  spec: TenantSpec;
  /** The resourceVersion the caller last saw, when it wants the write to fail if the Tenant moved on. */
  resourceVersion?: string;
}

/** An If-Match header's entity tag ("123" or W/"123"); `*` means any version, which is no precondition. */
export function ifMatchVersion(header: string | undefined): string | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"([^"]*)"\s*$/.exec(header);
  if (!match) throw badRequest(`If-Match must be one entity tag such as "12345", not ${JSON.stringify(header)}`);
  return match[1];
}

export function decodePut(name: string, body: KubeObject, ifMatch: string | undefined): PutRequest {
  const { apiVersion, kind, metadata, spec } = body as KubeObject & { spec?: unknown };
  if (apiVersion !== undefined && apiVersion !== TENANT_API_VERSION) throw badRequest(`apiVersion must be ${TENANT_API_VERSION} (or left out), not ${JSON.stringify(apiVersion)}`);
  if (kind !== undefined && kind !== 'Tenant') throw badRequest(`kind must be Tenant (or left out), not ${JSON.stringify(kind)}`);
  const unknown = [
    ...Object.keys(body).filter((k) => !['apiVersion', 'kind', 'metadata', 'spec'].includes(k)),
    ...Object.keys(metadata ?? {}).filter((k) => !['name', 'resourceVersion'].includes(k)).map((k) => `metadata.${k}`),
    ...unknownFields((tenantSchema().properties as { spec: Record<string, unknown> }).spec, spec ?? {}, 'spec'),
  ];
  if (unknown.length > 0) throw badRequest(`strict decoding error: ${unknown.map((f) => `unknown field ${JSON.stringify(f)}`).join(', ')}`);
  if (metadata?.name !== undefined && metadata.name !== name) {
    throw badRequest(`the name of the object (${String(metadata.name)}) does not match the name on the URL (${name})`);
  }
  if (spec !== undefined && (typeof spec !== 'object' || spec === null || Array.isArray(spec))) {
    throw invalid({ ...TARGET, name }, [{ type: 'FieldValueInvalid', field: 'spec', message: 'Invalid value: must be an object' }]);
  }
  const problems = validateTenantSpec({ apiVersion: TENANT_API_VERSION, kind: 'Tenant', metadata: { name }, spec: (spec ?? {}) as TenantSpec });
  if (problems.length > 0) {
    throw invalid({ ...TARGET, name }, problems.map((p) => {
      const at = p.indexOf(': ');
      return { type: 'FieldValueInvalid', field: p.slice(0, at), message: p.slice(at + 2) };
    }));
  }
  const fromBody = typeof metadata?.resourceVersion === 'string' && metadata.resourceVersion !== '' ? metadata.resourceVersion : undefined;
  const fromHeader = ifMatchVersion(ifMatch);
  if (fromBody && fromHeader && fromBody !== fromHeader) throw badRequest(`If-Match (${fromHeader}) and metadata.resourceVersion (${fromBody}) differ`);
  const resourceVersion = fromHeader ?? fromBody;
  return { spec: (spec ?? {}) as TenantSpec, ...(resourceVersion ? { resourceVersion } : {}) };
}

/** ?limit=N&continue=TOKEN of a list, checked: kube answers a bad limit with 400 too. */
export function listQuery(search: URLSearchParams): { limit?: number; continue?: string } {
  const out: { limit?: number; continue?: string } = {};
  const limit = search.get('limit');
  if (limit !== null) {
    if (!/^[0-9]+$/.test(limit) || Number(limit) > 10_000) throw badRequest(`limit must be a whole number up to 10000, not ${JSON.stringify(limit)}`);
    if (Number(limit) > 0) out.limit = Number(limit);
  }
  const token = search.get('continue');
  if (token) out.continue = token;
  const extra = [...search.keys()].filter((k) => k !== 'limit' && k !== 'continue');
  if (extra.length > 0) throw badRequest(`unknown query parameter ${JSON.stringify(extra[0])}: only limit and continue`);
  return out;
}
