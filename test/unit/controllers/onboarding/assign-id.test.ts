import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decideTenantId, generateTenantId, platformIds } from '../../../../src/controllers/onboarding/assign-id.ts';
import type { Tenant } from '../../../../src/tenants/tenant-crd.ts';

const tenant = (name: string, extra: { specId?: string; statusId?: string; created?: string } = {}): Tenant => ({
  metadata: { name, creationTimestamp: extra.created ?? '2025-01-01T00:00:00Z' },
  spec: extra.specId ? { id: extra.specId } : {},
  ...(extra.statusId ? { status: { id: extra.statusId } } : {}),
});

describe('decideTenantId', () => {
  const cases: { name: string; me: Tenant; others: Tenant[]; want: ReturnType<typeof decideTenantId> }[] = [
    { name: 'keeps status.id', me: tenant('a', { statusId: 'abc123', specId: 'abc123' }), others: [], want: { kind: 'keep', id: 'abc123' } },
    { name: 'assigns a free spec.id', me: tenant('a', { specId: 'abc123' }), others: [tenant('b', { statusId: 'zzz999' })], want: { kind: 'assign', id: 'abc123' } },
    { name: 'conflict when another holds it in status', me: tenant('a', { specId: 'abc123' }), others: [tenant('b', { statusId: 'abc123', created: '2026-01-01T00:00:00Z' })], want: { kind: 'conflict', id: 'abc123', holder: 'b' } },
    { name: 'conflict with an older spec-only claimant', me: tenant('b', { specId: 'abc123', created: '2025-02-01T00:00:00Z' }), others: [tenant('a', { specId: 'abc123' })], want: { kind: 'conflict', id: 'abc123', holder: 'a' } },
    { name: 'the older spec-only claimant wins', me: tenant('a', { specId: 'abc123' }), others: [tenant('b', { specId: 'abc123', created: '2025-02-01T00:00:00Z' })], want: { kind: 'assign', id: 'abc123' } },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(decideTenantId({ tenant: c.me, all: [c.me, ...c.others], reserved: new Set() }), c.want));
    it(`${c.name} (holders from an index, all not scanned)`, () => {
      const everyone = [c.me, ...c.others];
      const holders = (id: string): Tenant[] => everyone.filter((t) => t.status?.id === id || t.spec?.id === id);
      const all = { [Symbol.iterator]: () => { throw new Error('all must not be scanned when holders is given'); } };
      assert.deepEqual(decideTenantId({ tenant: c.me, all, holders, reserved: new Set() }), c.want);
    });
  }

  it('never generates an id that a Tenant or this process already holds', () => {
    // A random source that first proposes taken ids, then a free one.
    const sequence = ['aaaaaa', 'bbbbbb', 'cccccc', 'dddddd'];
    let n = 0;
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const random = (max: number): number => {
      const id = sequence[Math.floor(n / 6)] ?? 'zzzzzz';
      const ch = id[n % 6] ?? 'z';
      n++;
      return max === 26 ? ch.charCodeAt(0) - 97 : alphabet.indexOf(ch);
    };
    const me = tenant('new');
    const everyone = [me, tenant('x', { statusId: 'aaaaaa' }), tenant('y', { specId: 'bbbbbb' })];
    const out = decideTenantId({ tenant: me, all: everyone, reserved: new Set(['cccccc']), random });
    assert.deepEqual(out, { kind: 'assign', id: 'dddddd' });
    n = 0;
    const holders = (id: string): Tenant[] => everyone.filter((t) => t.status?.id === id || t.spec?.id === id);
    assert.deepEqual(decideTenantId({ tenant: me, all: [], holders, reserved: new Set(['cccccc']), random }), { kind: 'assign', id: 'dddddd' });
  });

  it('generated ids always have the form [a-z][a-z0-9]{5}', () => {
    fc.assert(fc.property(fc.array(fc.nat(), { minLength: 6, maxLength: 6 }), (draws) => {
      let i = 0;
      const id = generateTenantId((max) => (draws[i++] ?? 0) % max);
      return /^[a-z][a-z0-9]{5}$/.test(id);
    }));
  });
});

describe('platform prefixes (an id must not claim the platform\'s upstream namespaces)', () => {
  const namespaces = [
    { metadata: { name: 'warren-system' } },
    { metadata: { name: 'calico-system' } },
    { metadata: { name: 'kube-system' } },
    { metadata: { name: 'acme01-web', labels: { 'tenancy.warren.dev/tenant': 'acme01' } } },
  ];

  it('reserves warren always, and the prefixes of namespaces no tenant owns', () => {
    assert.deepEqual([...platformIds(namespaces, 'tenancy.warren.dev/tenant')].sort(), ['calico', 'warren']);
  });

  for (const wanted of ['warren', 'calico']) {
    it(`spec.id "${wanted}" is a conflict with the platform`, () => {
      const decision = decideTenantId({ tenant: tenant('t', { specId: wanted }), all: [], reserved: new Set(), platform: platformIds(namespaces, 'tenancy.warren.dev/tenant') });
      assert.equal(decision.kind, 'conflict');
    });
  }

});
