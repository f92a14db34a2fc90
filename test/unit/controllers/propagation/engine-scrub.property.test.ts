// The engine's messages to a tenant (member apply failures on Works and bindings, BindingIgnored, the
// template-hold Warnings) come from members and the host, in upstream names. Another known tenant's
// prefixed name in them is hidden, the reader's own name is shown in its own terms (v1's review, session 12:
// the engine called scrubText without the known ids, so the other-tenant rule never applied to its text).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { EngineContext } from '../../../../src/controllers/propagation/engine-context.ts';
import { scrubForTenant } from '../../../../src/controllers/propagation/engine-context.ts';
import { dnsLabelArb, tenantIdArb } from '../../core/tenancy/name-arbitraries.ts';

/** An engine context whose tenant informer knows exactly `ids`. */
function ctxKnowing(ids: readonly string[]): Pick<EngineContext, 'informers'> {
  const tenants = { byIndex: (_index: string, id: string) => (ids.includes(id) ? [{ spec: { id } }] : []) };
  return { informers: { tenants } } as unknown as Pick<EngineContext, 'informers'>;
}

describe('engine messages to a tenant: other tenants\' names hidden (scrubForTenant)', () => {
  it('a member webhook naming another known tenant\'s object: hidden; the reader\'s own: unprefixed', () => {
    fc.assert(fc.property(tenantIdArb, tenantIdArb, dnsLabelArb, dnsLabelArb, (reader, other, mine, theirs) => {
      fc.pre(reader !== other);
      const text = `failed to apply on cluster member1: admission webhook denied: host already defined in ingress ${other}-${theirs}/web, not ${reader}-${mine}/web`;
      const seen = scrubForTenant(ctxKnowing([reader, other]), reader, text);
      assert.ok(!seen.includes(`${other}-`), seen);
      assert.ok(seen.includes(` ${mine}/web`), seen);
    }), { numRuns: 200 });
  });

  it('an id no tenant has is ordinary text (a name like `abcdef-x` stays)', () => {
    assert.equal(scrubForTenant(ctxKnowing(['aaaaaa']), 'aaaaaa', 'ingress zzzzzz-prod/web'), 'ingress zzzzzz-prod/web');
  });
});
