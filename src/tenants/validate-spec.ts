// Phase 1: is the Tenant's spec one the controller can act on? The CRD's own
// schema refuses most bad input at admission (422); this re-checks with the
// same schema (a Tenant written before the CRD changed, or to an upstream
// without schema validation) and adds the rules a schema cannot say.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parseGoDuration } from '../core/protobuf/go-duration.ts';
import { tenantSchema, type Tenant } from './tenant-crd.ts';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

let validator: ValidateFunction | undefined;

function compiled(): ValidateFunction {
  if (validator) return validator;
  const ajv = new Ajv({ allErrors: true, strict: false, logger: false });
  addFormats(ajv);
  ajv.addFormat('int64', true);
  ajv.addFormat('int32', true);
  validator = ajv.compile(tenantSchema());
  return validator;
}

/** Shortest certificate lifetime accepted: rotation at 2/3 of it must still leave the gateway time to see it. */
export const MIN_CERTIFICATE_LIFETIME_MS = 3_000;
export const DEFAULT_CERTIFICATE_LIFETIME = '720h';

/** The certificate lifetime in ms; throws on a malformed Go duration. */
export function certificateLifetimeMs(tenant: Tenant): number {
  const ns = parseGoDuration(tenant.spec?.credentials?.certificateLifetime ?? DEFAULT_CERTIFICATE_LIFETIME);
  return Number(ns / 1_000_000n);
}

/** Problems with the spec, as "field: message" lines; empty when valid. */
export function validateTenantSpec(tenant: Tenant): string[] {
  const problems: string[] = [];
  const validate = compiled();
  if (!validate({ ...tenant, status: undefined })) {
    for (const e of validate.errors ?? []) problems.push(`${e.instancePath.replace(/^\//, '').replaceAll('/', '.') || '<root>'}: ${e.message ?? 'invalid'}`);
  }
  const spec = tenant.spec ?? {};
  if (spec.id && tenant.status?.id && spec.id !== tenant.status.id) {
    problems.push(`spec.id: field is immutable once assigned (status.id is ${tenant.status.id})`);
  }
  const seen = new Set<string>();
  for (const [i, user] of (spec.users ?? []).entries()) {
    if (seen.has(user.name)) problems.push(`spec.users[${i}].name: duplicate user ${JSON.stringify(user.name)}`);
    seen.add(user.name);
  }
  try {
    if (certificateLifetimeMs(tenant) < MIN_CERTIFICATE_LIFETIME_MS) {
      problems.push(`spec.credentials.certificateLifetime: must be at least ${MIN_CERTIFICATE_LIFETIME_MS / 1000}s`);
    }
  } catch {
    problems.push(`spec.credentials.certificateLifetime: not a duration: ${JSON.stringify(spec.credentials?.certificateLifetime)}`);
  }
  for (const [i, t] of (spec.placement?.tolerations ?? []).entries()) {
    // kube's validation of a toleration: an empty key needs Exists, and Exists takes no value.
    if (!t.key && t.operator !== 'Exists') problems.push(`spec.placement.tolerations[${i}].operator: must be Exists when key is empty`);
    if (t.operator === 'Exists' && t.value) problems.push(`spec.placement.tolerations[${i}].value: must be empty when operator is Exists`);
  }
  const revokeBefore = spec.credentials?.revokeBefore;
  if (revokeBefore !== undefined && Number.isNaN(new Date(revokeBefore).getTime())) {
    problems.push(`spec.credentials.revokeBefore: not an RFC 3339 time: ${JSON.stringify(revokeBefore)}`);
  }
  return [...new Set(problems)];
}
