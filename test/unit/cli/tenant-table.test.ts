// `warren tenant list|get` output, kubectl's way.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { alignColumns, parseOutput } from '../../../src/cli/object-printer.ts';
import { formatTenants } from '../../../src/cli/tenant-table.ts';
import type { Tenant } from '../../../src/tenants/tenant-crd.ts';

const now = new Date('2026-01-01T12:00:00Z');
const acme: Tenant = {
  apiVersion: 'tenancy.warren.dev/v1alpha1', kind: 'Tenant',
  metadata: { name: 'acme', creationTimestamp: '2026-01-01T11:00:00Z' },
  spec: { users: [{ name: 'alice', admin: true }, { name: 'bob' }], quota: { namespaces: 20 } },
  status: { id: 'acme01', phase: 'Ready', usage: { namespaces: 4 }, clusters: ['member1', 'member2'], conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: '', lastTransitionTime: '' }] },
};
const umbrella: Tenant = {
  metadata: { name: 'umbrella-corporation', creationTimestamp: '2026-01-01T11:59:30Z' },
  spec: { users: [{ name: 'ada', admin: true }] },
  status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False', reason: 'IdConflict', message: 'id acme01 is taken by tenant acme', lastTransitionTime: '' }] },
};
const base = { noHeaders: false, now, single: false };

describe('tenant table', () => {
  it('default: NAME ID PHASE AGE aligned, three spaces apart, as kubectl get tenants', () => {
    assert.equal(formatTenants([acme, umbrella], { ...base, output: 'table' }), [
      'NAME                   ID       PHASE     AGE',
      'acme                   acme01   Ready     60m',
      'umbrella-corporation   <none>   Pending   30s',
      '',
    ].join('\n'));
  });

  it('--no-headers drops the header only', () => {
    assert.equal(formatTenants([acme], { ...base, output: 'table', noHeaders: true }), 'acme   acme01   Ready   60m\n');
  });

  it('-o wide adds admins, namespaces used/quota, clusters and why it is not Ready', () => {
    const rows = formatTenants([acme, umbrella], { ...base, output: 'wide' }).trimEnd().split('\n').map((l) => l.split(/\s{3,}/));
    assert.deepEqual(rows[0], ['NAME', 'ID', 'PHASE', 'AGE', 'ADMINS', 'NAMESPACES', 'CLUSTERS', 'MESSAGE']);
    assert.deepEqual(rows[1], ['acme', 'acme01', 'Ready', '60m', 'alice', '4/20', 'member1,member2']);
    assert.deepEqual(rows[2], ['umbrella-corporation', '<none>', 'Pending', '30s', 'ada', '0/-', '<none>', 'IdConflict: id acme01 is taken by tenant acme']);
  });

  it('-o name: resource.group/name', () => {
    assert.equal(formatTenants([acme, umbrella], { ...base, output: 'name' }), 'tenant.tenancy.warren.dev/acme\ntenant.tenancy.warren.dev/umbrella-corporation\n');
  });

  it('-o json|yaml: one object for get NAME, a v1 List otherwise', () => {
    assert.deepEqual(JSON.parse(formatTenants([acme], { ...base, output: 'json', single: true })), acme);
    const list = JSON.parse(formatTenants([acme, umbrella], { ...base, output: 'json' })) as { kind: string; apiVersion: string; items: Tenant[] };
    assert.deepEqual([list.apiVersion, list.kind, list.items.length], ['v1', 'List', 2]);
    assert.deepEqual(parse(formatTenants([acme], { ...base, output: 'yaml', single: true })), acme);
  });

  it('unknown -o is refused with the formats allowed', () => {
    assert.equal(parseOutput(undefined), 'table');
    assert.throws(() => parseOutput('toml'), /allowed formats are: wide,json,yaml,name/);
  });

  it('alignColumns: nothing in, nothing out', () => {
    assert.equal(alignColumns([]), '');
  });
});
