// The Tenant CRD as platform admins install it: `kubectl apply -f crds/`
// against `warren apiserver` as a process, then a good and a bad Tenant.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl } from '../../helpers/kubectl.ts';
import { REPO_ROOT, startWarrenApiserver, type WarrenProcess } from '../../helpers/warren-process.ts';
import { eventually } from '../../helpers/poll.ts';

const VERSION = '1.33';

describe('Tenant CRD with kubectl', () => {
  let dataDir: string;
  let apiserver: WarrenProcess;
  const run = (args: string[], input?: string) => kubectl(VERSION, args, { kubeconfigPath: apiserver.kubeconfigPath, ...(input ? { input } : {}) });

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'warren-tenant-crd-'));
    apiserver = await startWarrenApiserver(dataDir);
  });
  after(async () => {
    await apiserver.kill();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('applies crds/ and serves Tenants under the short name tn', async () => {
    const applied = await run(['apply', '-f', join(REPO_ROOT, 'crds')]);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /customresourcedefinition.apiextensions.k8s.io\/tenants.tenancy.warren.dev created/);
    await eventually(async () => (await run(['get', 'tn'])).code === 0, 'tenants served');
    const created = await run(['apply', '-f', '-'], 'apiVersion: tenancy.warren.dev/v1alpha1\nkind: Tenant\nmetadata: {name: acme}\nspec: {id: acme01, users: [{name: alice, admin: true}]}\n');
    assert.equal(created.code, 0, created.stderr);
    const table = await run(['get', 'tn', 'acme']);
    assert.match(table.stdout, /^NAME\s+ID\s+PHASE\s+AGE/);
  });

  it('refuses a Tenant whose id has the wrong form, naming the field', async () => {
    const bad = await run(['apply', '-f', '-'], 'apiVersion: tenancy.warren.dev/v1alpha1\nkind: Tenant\nmetadata: {name: bad}\nspec: {id: ABC}\n');
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /spec\.id: Invalid value: "ABC"/);
  });
});
