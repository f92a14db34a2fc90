// `tenant create` flags → Tenant spec: every flag lands in the spec or is refused.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTenantSpec, parseQuota, type CreateFlags } from '../../../src/cli/tenant-spec-flags.ts';

const none: CreateFlags = { admins: [], users: [], clusters: [], quota: [] };

describe('buildTenantSpec', () => {
  it('needs an admin: no silent user named "admin"', () => {
    assert.throws(() => buildTenantSpec(none), /needs at least one --admin USER/);
  });

  it('maps every flag', () => {
    assert.deepEqual(buildTenantSpec({
      admins: ['alice'], users: ['bob'], id: 'acme01', podSecurity: 'restricted',
      clusters: ['member1'], clusterSelector: 'region=eu,tier=gold', quota: ['namespaces=10,cpu=4', 'memory=8Gi'],
    }), {
      users: [{ name: 'alice', admin: true }, { name: 'bob' }],
      id: 'acme01',
      podSecurity: 'restricted',
      clusters: { names: ['member1'], labelSelector: { matchLabels: { region: 'eu', tier: 'gold' } } },
      quota: { namespaces: 10, cpu: '4', memory: '8Gi' },
    });
  });

  const refused: Array<[Partial<CreateFlags>, RegExp]> = [
    [{ admins: ['a'], users: ['a'] }, /given as --admin and as --user/],
    [{ admins: ['a'], podSecurity: 'lax' }, /invalid --pod-security "lax"/],
    [{ admins: ['a'], clusterSelector: 'region!=eu' }, /equality only/],
    [{ admins: ['a'], clusterSelector: 'region' }, /invalid --cluster-selector "region": want key=value/],
    [{ admins: ['a'], quota: ['namespaces=ten'] }, /namespaces=ten: a whole number/],
    [{ admins: ['a'], quota: ['cpu=lots'] }, /cpu=lots: a quantity/],
    [{ admins: ['a'], quota: ['pods=3'] }, /unknown --quota "pods"/],
  ];
  for (const [flags, message] of refused) {
    it(`refuses ${JSON.stringify(flags)}`, () => {
      assert.throws(() => buildTenantSpec({ ...none, ...flags }), message);
    });
  }

  it('parseQuota: objectsPerResource and storage', () => {
    assert.deepEqual(parseQuota(['objectsPerResource=500', 'storage=100Gi']), { objectsPerResource: 500, storage: '100Gi' });
  });
});
