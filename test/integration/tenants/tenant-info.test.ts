// The pure Tenant → TenantInfo rules (kept beside the directory's integration
// test: this folder is where the tenant directory's tests live).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pickTenant, tenantInfoOf } from '../../../src/tenants/tenant-info.ts';
import type { Tenant } from '../../../src/tenants/tenant-crd.ts';

const tenant = (name: string, rest: Partial<Tenant> = {}, meta: Partial<Tenant['metadata']> = {}): Tenant => ({ metadata: { name, ...meta }, ...rest });

describe('tenantInfoOf', () => {
  const cases: { name: string; tenant: Tenant; expected: unknown }[] = [
    { name: 'no id anywhere: not a tenant yet', tenant: tenant('a', { spec: {} }), expected: undefined },
    { name: 'empty spec.id counts as none', tenant: tenant('a', { spec: { id: '' } }), expected: undefined },
    { name: 'spec.id, no status: Pending', tenant: tenant('a', { spec: { id: 'abcdef' } }), expected: { id: 'abcdef', name: 'a', phase: 'Pending', suspended: false, podSecurity: 'baseline' } },
    { name: 'status.id wins over spec.id', tenant: tenant('a', { spec: { id: 'abcdef' }, status: { id: 'zzzzzz', phase: 'Ready' } }), expected: { id: 'zzzzzz', name: 'a', phase: 'Ready', suspended: false, podSecurity: 'baseline' } },
    { name: 'suspended only when exactly true', tenant: tenant('a', { spec: { id: 'abcdef', suspended: true, podSecurity: 'baseline' }, status: { phase: 'Suspended' } }), expected: { id: 'abcdef', name: 'a', phase: 'Suspended', suspended: true, podSecurity: 'baseline' } },
    { name: 'deletionTimestamp makes it Terminating whatever the status', tenant: tenant('a', { spec: { id: 'abcdef' }, status: { phase: 'Ready' } }, { deletionTimestamp: '2030-01-01T00:00:00Z' }), expected: { id: 'abcdef', name: 'a', phase: 'Terminating', suspended: false, podSecurity: 'baseline' } },
    { name: 'the later revocation instant wins (status)', tenant: tenant('a', { spec: { id: 'abcdef', credentials: { revokeBefore: '2030-01-01T00:00:00Z' } }, status: { credentialsNotBefore: '2030-01-02T00:00:00Z' } }), expected: { id: 'abcdef', name: 'a', phase: 'Pending', suspended: false, podSecurity: 'baseline', credentialsNotBefore: new Date('2030-01-02T00:00:00Z') } },
    { name: 'the later revocation instant wins (spec)', tenant: tenant('a', { spec: { id: 'abcdef', credentials: { revokeBefore: '2030-01-03T00:00:00Z' } }, status: { credentialsNotBefore: '2030-01-02T00:00:00Z' } }), expected: { id: 'abcdef', name: 'a', phase: 'Pending', suspended: false, podSecurity: 'baseline', credentialsNotBefore: new Date('2030-01-03T00:00:00Z') } },
    { name: 'an unparsable instant is ignored', tenant: tenant('a', { spec: { id: 'abcdef', credentials: { revokeBefore: 'soon' } } }), expected: { id: 'abcdef', name: 'a', phase: 'Pending', suspended: false, podSecurity: 'baseline' } },
    { name: 'clusters come from status', tenant: tenant('a', { spec: { id: 'abcdef', clusters: { names: ['m9'] } }, status: { clusters: ['m1', 'm2'] } }), expected: { id: 'abcdef', name: 'a', phase: 'Pending', suspended: false, podSecurity: 'baseline', clusters: ['m1', 'm2'] } },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(tenantInfoOf(c.tenant), c.expected));
});

describe('pickTenant', () => {
  const cases = [
    { name: 'the one whose status confirms the id', claimants: [tenant('old', { spec: { id: 'abcdef' } }, { creationTimestamp: '2020-01-01T00:00:00Z' }), tenant('new', { status: { id: 'abcdef' } }, { creationTimestamp: '2024-01-01T00:00:00Z' })], expected: 'new' },
    { name: 'then the oldest', claimants: [tenant('b', { spec: { id: 'abcdef' } }, { creationTimestamp: '2024-01-01T00:00:00Z' }), tenant('a', { spec: { id: 'abcdef' } }, { creationTimestamp: '2020-01-01T00:00:00Z' })], expected: 'a' },
    { name: 'then by name', claimants: [tenant('y', { spec: { id: 'abcdef' } }), tenant('x', { spec: { id: 'abcdef' } })], expected: 'x' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(pickTenant(c.claimants, 'abcdef')?.metadata.name, c.expected);
      assert.equal(pickTenant([...c.claimants].reverse(), 'abcdef')?.metadata.name, c.expected, 'independent of order');
    });
  }
});
