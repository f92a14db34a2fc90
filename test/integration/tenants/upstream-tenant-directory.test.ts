// The tenant directory against a real embedded apiserver with the Tenant CRD
// applied: ids from spec and status, suspension, revocation, deletion.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer, type RunningApiServer } from '../../../src/apiserver/server.ts';
import { createUpstream } from '../../../src/kube/upstream-client.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';
import { startTenantDirectory } from '../../../src/tenants/upstream-tenant-directory.ts';
import { TENANTS_PATH, TENANT_API_VERSION, TENANT_CRD_NAME, tenantCrd, type Tenant } from '../../../src/tenants/tenant-crd.ts';
import { eventually } from '../../helpers/poll.ts';

async function must<T>(p: Promise<{ status: number; body: T }>, what: string): Promise<T> {
  const res = await p;
  assert.ok(res.status >= 200 && res.status < 300, `${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe('tenant directory over the upstream', () => {
  let server: RunningApiServer;
  let upstream: Upstream;
  let directory: ReturnType<typeof startTenantDirectory>;

  const create = (name: string, spec: Tenant['spec'] = {}): Promise<Tenant> =>
    must(upstream.request<Tenant>('POST', TENANTS_PATH, { apiVersion: TENANT_API_VERSION, kind: 'Tenant', metadata: { name }, spec }), `create ${name}`);
  const setStatus = (name: string, status: Tenant['status']): Promise<Tenant> =>
    must(upstream.request<Tenant>('PATCH', `${TENANTS_PATH}/${name}/status`, { status }, { 'Content-Type': 'application/merge-patch+json' }), `status ${name}`);
  const patchSpec = (name: string, spec: Tenant['spec']): Promise<Tenant> =>
    must(upstream.request<Tenant>('PATCH', `${TENANTS_PATH}/${name}`, { spec }, { 'Content-Type': 'application/merge-patch+json' }), `patch ${name}`);

  before(async () => {
    server = await startApiServer({ port: 0 });
    upstream = createUpstream({ yaml: server.kubeconfig });
    await must(upstream.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', tenantCrd()), 'create CRD');
    await eventually(async () => {
      const res = await upstream.request<{ status?: { conditions?: { type: string; status: string }[] } }>('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${TENANT_CRD_NAME}`);
      return res.body.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
    }, 'CRD established');
    directory = startTenantDirectory(upstream);
    await directory.synced();
  });
  after(async () => {
    directory.stop();
    upstream.close();
    await server.stop();
  });

  it('knows a tenant by spec.id before onboarding, as Pending, and by status.id after', async () => {
    const acme = await create('acme', { id: 'acme01' });
    await eventually(async () => directory.byId('acme01'), 'acme by spec.id');
    // The Tenant object itself (uid, creation time) is what its credentials are bound to (ADR 25).
    const objectOf = (t: Tenant) => ({ uid: t.metadata.uid, createdAt: new Date(String(t.metadata.creationTimestamp)) });
    assert.deepEqual(directory.byId('acme01'), { id: 'acme01', name: 'acme', phase: 'Pending', suspended: false, podSecurity: 'baseline', ...objectOf(acme) });
    assert.equal(directory.byName('acme')?.id, 'acme01');

    const globexObject = await create('globex');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(directory.byName('globex'), undefined, 'no id yet: not in the directory');
    await setStatus('globex', { id: 'glbx42', phase: 'Ready', clusters: ['member1'] });
    const globex = await eventually(async () => directory.byId('glbx42'), 'globex by status.id');
    assert.deepEqual(globex, { id: 'glbx42', name: 'globex', phase: 'Ready', suspended: false, podSecurity: 'baseline', clusters: ['member1'], ...objectOf(globexObject) });
    assert.deepEqual(directory.all().map((t) => t.name).sort(), ['acme', 'globex']);
  });

  it('follows suspension and its lifting', async () => {
    await create('initech', { id: 'initch' });
    await eventually(async () => directory.byId('initch'), 'initech');
    await patchSpec('initech', { suspended: true, podSecurity: 'baseline' });
    await eventually(async () => directory.byId('initch')?.suspended === true, 'suspended');
    await patchSpec('initech', { suspended: false, podSecurity: 'baseline' });
    await eventually(async () => directory.byId('initch')?.suspended === false, 'resumed');
  });

  it('takes the later of spec.credentials.revokeBefore and status.credentialsNotBefore', async () => {
    await create('umbrella', { id: 'umbrla', credentials: { revokeBefore: '2030-01-01T00:00:00Z' } });
    const first = await eventually(async () => directory.byId('umbrla')?.credentialsNotBefore, 'revokeBefore');
    assert.equal(first.toISOString(), '2030-01-01T00:00:00.000Z');
    await setStatus('umbrella', { credentialsNotBefore: '2031-06-01T12:00:00Z' });
    await eventually(async () => directory.byId('umbrla')?.credentialsNotBefore?.toISOString() === '2031-06-01T12:00:00.000Z', 'later status wins');
    await patchSpec('umbrella', { credentials: { revokeBefore: '2032-01-01T00:00:00Z' } });
    await eventually(async () => directory.byId('umbrla')?.credentialsNotBefore?.toISOString() === '2032-01-01T00:00:00.000Z', 'later spec wins');
  });

  it('reports a tenant held by a finalizer as Terminating, and forgets it once deleted', async () => {
    await upstream.request('POST', TENANTS_PATH, { apiVersion: TENANT_API_VERSION, kind: 'Tenant', metadata: { name: 'hooli', finalizers: ['tenancy.warren.dev/cleanup'] }, spec: { id: 'hooli1' } });
    await setStatus('hooli', { phase: 'Ready' });
    await eventually(async () => directory.byId('hooli1')?.phase === 'Ready', 'hooli Ready');
    await must(upstream.request('DELETE', `${TENANTS_PATH}/hooli`), 'delete hooli');
    await eventually(async () => directory.byId('hooli1')?.phase === 'Terminating', 'Terminating');
    await must(upstream.request('PATCH', `${TENANTS_PATH}/hooli`, { metadata: { finalizers: null } }, { 'Content-Type': 'application/merge-patch+json' }), 'drop finalizer');
    await eventually(async () => directory.byId('hooli1') === undefined && directory.byName('hooli') === undefined, 'gone');
  });

  it('the Tenant schema refuses an id of the wrong form with a field cause', async () => {
    const res = await upstream.request<{ reason: string; details: { causes: { field: string; reason: string }[] } }>('POST', TENANTS_PATH,
      { apiVersion: TENANT_API_VERSION, kind: 'Tenant', metadata: { name: 'bad' }, spec: { id: 'ABC' } });
    assert.equal(res.status, 422);
    assert.equal(res.body.reason, 'Invalid');
    assert.deepEqual(res.body.details.causes.map((c) => c.field), ['spec.id']);
  });

  it('defaults podSecurity and the certificate lifetime of a bare Tenant', async () => {
    const bare = await create('bare');
    assert.equal(bare.spec?.podSecurity, 'baseline');
    assert.equal(bare.spec?.credentials?.certificateLifetime, '720h');
  });
});
