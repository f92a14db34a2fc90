// The onboarding shortcuts that save upstream requests: create-first for a
// never-onboarded tenant, one shared platform-id LIST, and the echo of our own
// status write. Each must leave the same objects and status as the long way.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { createCa, type KeyPairPem } from '../../../../src/pki/certificates.ts';
import { reconcileTenant, type OnboardingDeps } from '../../../../src/controllers/onboarding/reconcile-tenant.ts';
import { ensureObject } from '../../../../src/controllers/onboarding/ensure-object.ts';
import { createOwnWrites } from '../../../../src/controllers/onboarding/own-writes.ts';
import { createPlatformIdsSource } from '../../../../src/controllers/onboarding/platform-ids-source.ts';
import { platformIds } from '../../../../src/controllers/onboarding/assign-id.ts';
import { TENANTS_PATH, type Tenant } from '../../../../src/tenants/tenant-crd.ts';
import { TENANT_LABEL } from '../../../../src/core/tenancy/tenant-id.ts';
import { fakeClient, type FakeClient } from './fake-client.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

let ca: KeyPairPem;
before(async () => { ca = await createCa('test-tenant-ca'); });

/** The fake client, counting reads (GET and LIST) by path. */
function counted(): { client: FakeClient; reads: string[] } {
  const client = fakeClient();
  const reads: string[] = [];
  const { get, list } = client;
  client.get = async (path) => { reads.push(`get ${path}`); return get(path); };
  client.list = async (path, selector) => { reads.push(`list ${path}`); return list(path, selector); };
  return { client, reads };
}

function depsFor(client: FakeClient, extra: Partial<OnboardingDeps> = {}): OnboardingDeps {
  return {
    client,
    tenants: () => [...client.objects.entries()].filter(([p]) => p.startsWith(`${TENANTS_PATH}/`)).map(([, o]) => o as Tenant),
    reserved: new Set(),
    record: async () => undefined,
    tenantCa: async () => ca,
    gatewayUrl: 'https://127.0.0.1:6443',
    gatewayCaPem: ca.certPem,
    now: () => new Date(),
    ...extra,
  };
}

const put = (client: FakeClient, tenant: Tenant): void => {
  client.objects.set(`${TENANTS_PATH}/${tenant.metadata.name ?? ''}`, { ...tenant, metadata: { generation: 1, resourceVersion: '1', ...tenant.metadata } });
};
const stored = (client: FakeClient, name: string): Tenant => client.objects.get(`${TENANTS_PATH}/${name}`) as Tenant;

describe('ensureObject likelyMissing', () => {
  const desired = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels: { a: '1' } } };

  it('creates without reading when the object is missing', async () => {
    const { client, reads } = counted();
    assert.equal(await ensureObject(client, '/api/v1/namespaces', desired, { likelyMissing: true }), 'created');
    assert.deepEqual(reads, []);
  });

  it('falls back to read and repair on AlreadyExists', async () => {
    const { client, reads } = counted();
    client.objects.set('/api/v1/namespaces/n', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', resourceVersion: '1', labels: { a: 'weakened', other: 'kept' } } });
    assert.equal(await ensureObject(client, '/api/v1/namespaces', desired, { likelyMissing: true }), 'updated');
    assert.deepEqual(reads, ['get /api/v1/namespaces/n']);
    assert.deepEqual(client.objects.get('/api/v1/namespaces/n')?.metadata.labels, { a: '1', other: 'kept' });
    assert.equal(await ensureObject(client, '/api/v1/namespaces', desired, { likelyMissing: true }), 'unchanged');
  });
});

describe('reconcileTenant request economy', () => {
  it('a new tenant: no read of the namespaces and RBAC it creates, and the same objects as a pass that reads', async () => {
    const fast = counted();
    put(fast.client, { metadata: { name: 'acme' }, spec: { id: 'acme01', users: [{ name: 'al', admin: true }] } });
    await reconcileTenant(depsFor(fast.client), 'acme');
    assert.deepEqual(fast.reads.filter((r) => /namespaces\/acme01-|clusterrole/.test(r)), []);
    assert.equal(stored(fast.client, 'acme').status?.phase, 'Ready');

    // A tenant whose objects exist but whose status was lost (restored from a backup):
    // create-first meets AlreadyExists everywhere and ends in the same place.
    const again = counted();
    for (const [path, obj] of fast.client.objects) if (!path.startsWith(TENANTS_PATH)) again.client.objects.set(path, structuredClone(obj));
    put(again.client, { metadata: { name: 'acme' }, spec: { id: 'acme01', users: [{ name: 'al', admin: true }] } });
    await reconcileTenant(depsFor(again.client), 'acme');
    assert.equal(stored(again.client, 'acme').status?.phase, 'Ready');
    const upstreamOnly = (c: FakeClient): string[] => [...c.objects.keys()].filter((p) => !p.startsWith(TENANTS_PATH)).sort();
    assert.deepEqual(upstreamOnly(again.client), upstreamOnly(fast.client));
  });

  it('the echo of its own last status write is skipped; any other change is reconciled in full', async () => {
    const { client, reads } = counted();
    const ownWrites = createOwnWrites();
    const deps = depsFor(client, { ownWrites });
    put(client, { metadata: { name: 'acme' }, spec: { id: 'acme01', users: [{ name: 'al', admin: true }] } });
    const first = await reconcileTenant(deps, 'acme');
    reads.length = 0;
    const echo = await reconcileTenant(deps, 'acme');
    assert.deepEqual(reads, [`get ${TENANTS_PATH}/acme`], 'only the Tenant is read');
    assert.ok(echo.requeueAfterMs !== undefined && first.requeueAfterMs !== undefined && echo.requeueAfterMs <= first.requeueAfterMs, 'rotation stays scheduled');

    // Someone deletes a namespace and edits the Tenant: the resourceVersion moves, so the full pass repairs it.
    client.objects.delete('/api/v1/namespaces/acme01-kube-public');
    const t = stored(client, 'acme');
    client.objects.set(`${TENANTS_PATH}/acme`, { ...t, metadata: { ...t.metadata, resourceVersion: '999', labels: { x: 'y' } } });
    await reconcileTenant(deps, 'acme');
    assert.ok(client.objects.has('/api/v1/namespaces/acme01-kube-public'));
  });
});

describe('reconcileTenant first-onboarding shortcuts', () => {
  const secretPath = '/api/v1/namespaces/warren-system/secrets/tenant-acme-kubeconfigs';

  it('a tenant given a fresh id: no read of its Secret, and usage counted from the namespaces it just created', async () => {
    const { client, reads } = counted();
    put(client, { metadata: { name: 'acme' }, spec: { users: [{ name: 'al', admin: true }] } });
    await reconcileTenant(depsFor(client), 'acme');
    const id = stored(client, 'acme').status?.id ?? '';
    assert.deepEqual(reads.filter((r) => !r.startsWith(`get ${TENANTS_PATH}/`)), ['list /api/v1/namespaces'], 'only the Tenant and the platform ids (one LIST) are read');
    assert.deepEqual(stored(client, 'acme').status?.usage, { namespaces: 4 });
    // The same count as the LIST it replaces.
    assert.equal((await client.list('/api/v1/namespaces', `${TENANT_LABEL}=${id}`)).length, 4);
    assert.ok(client.objects.has(secretPath));
  });

  it('a tenant whose id was asked for (it may have existed before) still counts its namespaces', async () => {
    const { client, reads } = counted();
    client.objects.set('/api/v1/namespaces/acme01-leftover', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'acme01-leftover', labels: { [TENANT_LABEL]: 'acme01' } } });
    put(client, { metadata: { name: 'acme' }, spec: { id: 'acme01', users: [{ name: 'al', admin: true }] } });
    await reconcileTenant(depsFor(client), 'acme');
    assert.ok(reads.includes('list /api/v1/namespaces'));
    assert.deepEqual(stored(client, 'acme').status?.usage, { namespaces: 5 });
  });

  it('a Secret already there (status lost): create-first meets AlreadyExists and keeps the certificates it holds', async () => {
    const first = counted();
    put(first.client, { metadata: { name: 'acme' }, spec: { id: 'acme01', users: [{ name: 'al', admin: true }] } });
    await reconcileTenant(depsFor(first.client), 'acme');
    const secret = structuredClone(first.client.objects.get(secretPath)!);

    const again = counted();
    again.client.objects.set(secretPath, secret);
    put(again.client, { metadata: { name: 'acme' }, spec: { id: 'acme01', users: [{ name: 'al', admin: true }] } });
    await reconcileTenant(depsFor(again.client), 'acme');
    assert.ok(again.reads.includes(`get ${secretPath}`), 'read after AlreadyExists');
    assert.deepEqual(again.client.objects.get(secretPath)?.data, secret.data, 'the certificate already issued is kept');
    assert.equal(stored(again.client, 'acme').status?.phase, 'Ready');
  });

  it('the echo is known from the informer\'s resourceVersion without reading the Tenant', async () => {
    const { client, reads } = counted();
    const ownWrites = createOwnWrites();
    let informerRv: string | undefined;
    const deps = depsFor(client, { ownWrites, informerResourceVersion: () => informerRv });
    put(client, { metadata: { name: 'acme' }, spec: { id: 'acme01', users: [{ name: 'al', admin: true }] } });
    const first = await reconcileTenant(deps, 'acme');
    reads.length = 0;
    informerRv = stored(client, 'acme').metadata.resourceVersion;
    const echo = await reconcileTenant(deps, 'acme');
    assert.deepEqual(reads, [], 'nothing read');
    assert.ok(echo.requeueAfterMs !== undefined && first.requeueAfterMs !== undefined && echo.requeueAfterMs <= first.requeueAfterMs);
    // An informer still behind our write: read, and the read finds the echo.
    informerRv = '1';
    await reconcileTenant(deps, 'acme');
    assert.deepEqual(reads, [`get ${TENANTS_PATH}/acme`]);
  });
});

describe('createOwnWrites', () => {
  const cases: { name: string; at: number; rv: string; requeue: number | undefined; want: { requeueAfterMs?: number } | undefined }[] = [
    { name: 'the echo, right away', at: 0, rv: '5', requeue: 60_000, want: { requeueAfterMs: 60_000 } },
    { name: 'the echo, later in the window', at: 10_000, rv: '5', requeue: 60_000, want: { requeueAfterMs: 50_000 } },
    { name: 'no requeue asked', at: 10_000, rv: '5', requeue: undefined, want: {} },
    { name: 'another resourceVersion', at: 0, rv: '6', requeue: 60_000, want: undefined },
    { name: 'after the window', at: 30_000, rv: '5', requeue: 60_000, want: undefined },
    { name: 'a requeue that is due is real work', at: 2_000, rv: '5', requeue: 2_000, want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      let now = 1_000_000;
      const w = createOwnWrites({ windowMs: 30_000, now: () => now });
      w.wrote('t', '5', c.requeue);
      now += c.at;
      assert.deepEqual(w.echo('t', c.rv), c.want);
    });
  }

  it('forget and clear end the echo', () => {
    const w = createOwnWrites();
    w.wrote('a', '1', undefined);
    w.wrote('b', '1', undefined);
    w.forget('a');
    assert.equal(w.echo('a', '1'), undefined);
    assert.deepEqual(w.echo('b', '1'), {});
    w.clear();
    assert.equal(w.echo('b', '1'), undefined);
  });
});

describe('createPlatformIdsSource', () => {
  it('concurrent callers share one LIST; a later call after maxAge lists again and sees new namespaces', async () => {
    const { client, reads } = counted();
    client.objects.set('/api/v1/namespaces/abcdef-x', { metadata: { name: 'abcdef-x' } });
    client.objects.set('/api/v1/namespaces/tenant-default', { metadata: { name: 'tenant-default', labels: { [TENANT_LABEL]: 'tenant' } } });
    let now = 0;
    const source = createPlatformIdsSource(client, { maxAgeMs: 1_000, now: () => now });
    const [a, b] = await Promise.all([source(), source()]);
    assert.equal(reads.length, 1);
    assert.equal(a, b);
    assert.deepEqual([...a].sort(), ['abcdef', 'warren']);
    client.objects.set('/api/v1/namespaces/zzzzzz-y', { metadata: { name: 'zzzzzz-y' } });
    now = 999;
    assert.ok(!(await source()).has('zzzzzz'), 'reused within maxAge');
    now = 1_000;
    assert.ok((await source()).has('zzzzzz'));
    assert.equal(reads.length, 2);
  });

  it('lists only namespaces without the tenant label, and finds the same ids as over every namespace', async () => {
    const client = fakeClient();
    const selectors: Array<string | undefined> = [];
    const list = client.list;
    client.list = async (p, sel) => { selectors.push(sel); return list(p, sel); };
    const namespaces: KubeObject[] = [
      { metadata: { name: 'calico-system' } },
      { metadata: { name: 'kube-system' } },
      { metadata: { name: 'abcdef-default', labels: { [TENANT_LABEL]: 'abcdef' } } },
      { metadata: { name: 'ghijkl-app', labels: { [TENANT_LABEL]: 'ghijkl', other: 'x' } } },
      { metadata: { name: 'mnopqr-tools', labels: { team: 'ops' } } },
    ];
    for (const ns of namespaces) client.objects.set(`/api/v1/namespaces/${ns.metadata.name}`, ns);
    const ids = await createPlatformIdsSource(client)();
    assert.deepEqual(selectors, [`!${TENANT_LABEL}`]);
    assert.deepEqual([...ids].sort(), [...platformIds(namespaces, TENANT_LABEL)].sort());
    assert.deepEqual([...ids].sort(), ['calico', 'mnopqr', 'warren']);
  });

  it('a failed LIST is not reused', async () => {
    const { client } = counted();
    let fail = true;
    const list = client.list;
    client.list = async (p, s) => { if (fail) throw new Error('down'); return list(p, s); };
    const source = createPlatformIdsSource(client, { now: () => 0 });
    await assert.rejects(source(), /down/);
    fail = false;
    assert.ok((await source()).has('warren'));
  });
});
