// Fuzzing selectors: the parsers and the tenant⇄upstream translation of label
// and field selectors take any string and either answer or refuse with a
// Status (400); a selector a tenant could write survives the round trip.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatFieldSelector, formatLabelSelector, parseFieldSelector, parseLabelSelector } from '../../../src/core/selectors/index.ts';
import { toTenantLabelSelector, toUpstreamLabelSelector } from '../../../src/core/tenancy/label-selector-translation.ts';
import { toTenantFieldSelector, toUpstreamFieldSelector } from '../../../src/core/tenancy/field-selector-translation.ts';
import { TENANT_LABEL } from '../../../src/core/tenancy/tenant-id.ts';
import { RUNS, dnsLabel, nastyString, refusedOnlyWithStatus } from './fuzz-helpers.ts';

const ID = 'aaaaaa';
const selectorish = fc.array(fc.oneof(
  nastyString,
  fc.constantFrom('a', 'b.io/c', TENANT_LABEL, '=', '==', '!=', ',', ' in ', ' notin ', '(', ')', '!', '>', '<', 'metadata.name', 'metadata.namespace', '\\,', '\\=', ''),
), { maxLength: 10 }).map((parts) => parts.join(''));

const key = fc.oneof(dnsLabel, fc.tuple(dnsLabel, dnsLabel).map(([p, n]) => `${p}.io/${n}`));
const value = fc.oneof(fc.constant(''), dnsLabel);
const requirement = fc.oneof(
  fc.tuple(key, fc.constantFrom('=', '!='), value).map(([k, op, v]) => `${k}${op}${v}`),
  key,
  key.map((k) => `!${k}`),
  fc.tuple(key, fc.constantFrom('in', 'notin'), fc.uniqueArray(dnsLabel, { minLength: 1, maxLength: 3 })).map(([k, op, vs]) => `${k} ${op} (${vs.join(',')})`),
);
const validLabelSelector = fc.array(requirement, { maxLength: 4 }).map((rs) => rs.join(','));
const validFieldSelector = fc.array(fc.tuple(fc.constantFrom('metadata.name', 'metadata.namespace', 'spec.nodeName', 'status.phase'), fc.constantFrom('=', '==', '!='), value), { maxLength: 3 })
  .map((rs) => rs.map(([f, op, v]) => `${f}${op}${v}`).join(','));

describe('fuzz: selectors', () => {
  it('parsers and translators: an answer or a Status', () => {
    fc.assert(fc.property(selectorish, fc.boolean(), fc.boolean(), (text, requireTenantLabel, prefixedNames) => {
      refusedOnlyWithStatus(() => formatLabelSelector(parseLabelSelector(text)));
      refusedOnlyWithStatus(() => formatFieldSelector(parseFieldSelector(text)));
      const up = refusedOnlyWithStatus(() => toUpstreamLabelSelector(ID, text, { requireTenantLabel }));
      if (up !== undefined) refusedOnlyWithStatus(() => toTenantLabelSelector(ID, up));
      const upField = refusedOnlyWithStatus(() => toUpstreamFieldSelector(ID, text, { prefixedNames }));
      if (upField !== undefined) refusedOnlyWithStatus(() => toTenantFieldSelector(ID, upField, { prefixedNames }));
    }), { numRuns: 3_000 });
  });

  it('label selector round trip: tenant → upstream → tenant keeps the meaning (normalised)', () => {
    fc.assert(fc.property(validLabelSelector, fc.boolean(), (text, requireTenantLabel) => {
      const normal = formatLabelSelector(parseLabelSelector(text));
      const up = toUpstreamLabelSelector(ID, text, { requireTenantLabel });
      if (requireTenantLabel) assert.match(up, new RegExp(`${TENANT_LABEL.replace('.', '\\.')}=${ID}`));
      assert.equal(toTenantLabelSelector(ID, up), normal);
    }), RUNS);
  });

  it('field selector round trip: tenant → upstream → tenant', () => {
    fc.assert(fc.property(validFieldSelector, fc.boolean(), (text, prefixedNames) => {
      const normal = formatFieldSelector(parseFieldSelector(text));
      const up = toUpstreamFieldSelector(ID, text, { prefixedNames });
      assert.equal(toTenantFieldSelector(ID, up, { prefixedNames }), normal);
    }), RUNS);
  });
});
