// The tenant-id format has one home (core/tenancy/tenant-id.ts). What cannot import it
// (the Tenant CRD's YAML, the isolation guard's deliberate copy) is held to it here, so a
// format change that misses one of them fails this file instead of splitting the platform.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parse } from 'yaml';
import {
  addPrefix, isTenantId, prefixOwner, TENANT_ID_FIRST_CHARS, TENANT_ID_LENGTH, TENANT_ID_PATTERN, TENANT_ID_REST_CHARS,
} from '../../../../src/core/tenancy/tenant-id.ts';
import { guardUpstreamRequest } from '../../../../src/core/tenancy/isolation-guard.ts';
import { CONFIG_SCHEMA } from '../../../../src/config/config-schema.ts';
import { generateTenantId } from '../../../../src/controllers/onboarding/assign-id.ts';

const crdFile = new URL('../../../../crds/tenancy.warren.dev_tenants.yaml', import.meta.url);
const idChars = fc.constantFrom(...'abcxyz019-A_.'.split(''));
const candidates = fc.oneof(
  fc.string({ unit: idChars, minLength: 0, maxLength: TENANT_ID_LENGTH + 2 }),
  fc.stringMatching(new RegExp(`^${TENANT_ID_PATTERN}$`)),
);

function patternsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) patternsIn(n, out);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'id' && v && typeof v === 'object' && 'pattern' in v) out.push(String((v as { pattern: unknown }).pattern));
      patternsIn(v, out);
    }
  }
  return out;
}

describe('the tenant-id format, one home', () => {
  it('the Tenant CRD validates spec.id and status.id with the same pattern', () => {
    const patterns = patternsIn(parse(readFileSync(crdFile, 'utf8')));
    assert.equal(patterns.length, 2, 'spec.id and status.id');
    for (const p of patterns) assert.equal(p, `^${TENANT_ID_PATTERN}$`);
  });

  it('the config schema keys per-tenant fairness limits by the same pattern', () => {
    const fairness = (CONFIG_SCHEMA as unknown as { properties: { fairness: { properties: { tenants: { propertyNames: { pattern: string } } } } } }).properties.fairness;
    assert.equal(fairness.properties.tenants.propertyNames.pattern, `^${TENANT_ID_PATTERN}$`);
  });

  it('the isolation guard\'s own copy accepts exactly the ids isTenantId accepts', () => {
    fc.assert(fc.property(candidates, (id) => {
      const refusal = guardUpstreamRequest(id, { method: 'GET', path: '/api', query: new URLSearchParams() });
      assert.equal(refusal === null, isTenantId(id), `id ${JSON.stringify(id)}: ${refusal?.message ?? 'allowed'}`);
    }));
  });

  it('the generator\'s alphabet spells only valid ids, and every valid id can be generated', () => {
    fc.assert(fc.property(fc.array(fc.nat(), { minLength: TENANT_ID_LENGTH, maxLength: TENANT_ID_LENGTH }), (picks) => {
      let i = 0;
      const id = generateTenantId((max) => (picks[i++] ?? 0) % max);
      assert.ok(isTenantId(id), id);
    }));
    for (const c of TENANT_ID_FIRST_CHARS) assert.ok(isTenantId(c + '0'.repeat(TENANT_ID_LENGTH - 1)));
    for (const c of TENANT_ID_REST_CHARS) assert.ok(isTenantId('a' + c.repeat(TENANT_ID_LENGTH - 1)));
  });

  it('prefixOwner undoes addPrefix for every id, and finds no owner in what is not prefixed', () => {
    fc.assert(fc.property(fc.stringMatching(new RegExp(`^${TENANT_ID_PATTERN}$`)), fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,20}$/), (id, rest) => {
      assert.equal(prefixOwner(addPrefix(id, rest)), id);
    }));
    fc.assert(fc.property(candidates, fc.string({ maxLength: 8 }), (id, rest) => {
      if (!isTenantId(id)) assert.equal(prefixOwner(`${id}-${rest}`) === id, false);
    }));
  });
});
