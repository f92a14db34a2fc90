// The onboarding controller against a real embedded upstream and gateway: a
// Tenant becomes Ready with its namespaces, roles, binding and kubeconfigs, and
// the issued kubeconfig works through the gateway; ids, suspension,
// revocation, rotation, restart and a deletion that leaves nothing behind.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeList, KubeObject } from '../../../src/core/types.ts';
import type { Tenant } from '../../../src/tenants/tenant-crd.ts';
import { TENANT_LABEL } from '../../../src/core/tenancy/tenant-id.ts';
import { provisionTenant } from '../../../src/tenants/provision.ts';
import { clusterScopedCollections } from '../../../src/controllers/onboarding/cleanup-tenant.ts';
import { upstreamObjectClient } from '../../../src/kube/object-client.ts';
import { eventually } from '../../helpers/poll.ts';
import { asTenant, secretKubeconfig, startWorld, type OnboardingWorld } from './fixture.ts';

const isReady = (t: Tenant): boolean => t.status?.phase === 'Ready' && t.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True' && c.observedGeneration === t.metadata.generation) === true;
const readyCondition = (t: Tenant) => t.status?.conditions?.find((c) => c.type === 'Ready');

describe('tenant onboarding controller', () => {
  let w: OnboardingWorld;
  const secretOf = async (name: string): Promise<KubeObject & { data?: Record<string, string> }> => {
    const res = await w.upstream.request<KubeObject & { data?: Record<string, string> }>('GET', `/api/v1/namespaces/warren-system/secrets/tenant-${name}-kubeconfigs`);
    assert.equal(res.status, 200);
    return res.body;
  };

  before(async () => { w = await startWorld(); });
  after(async () => { await w.stop(); });

  it('brings a Tenant to Ready with namespaces, roles, binding and a working kubeconfig', async () => {
    const created = await w.create('acme', { users: [{ name: 'alice', admin: true }, { name: 'bob', groups: ['devs'] }], podSecurity: 'restricted' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const acme = await w.waitFor('acme', 'Ready', isReady);
    const id = acme.status?.id ?? '';
    assert.match(id, /^[a-z][a-z0-9]{5}$/);
    assert.ok(acme.metadata.finalizers?.includes('tenancy.warren.dev/cleanup'));
    assert.deepEqual(acme.status?.kubeconfigSecretRef, { namespace: 'warren-system', name: 'tenant-acme-kubeconfigs' });
    assert.equal(acme.status?.usage?.namespaces, 4);

    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      const res = await w.upstream.request<KubeObject>('GET', `/api/v1/namespaces/${id}-${ns}`);
      assert.equal(res.status, 200, `${id}-${ns}`);
      assert.equal(res.body.metadata.labels?.[TENANT_LABEL], id);
      assert.equal(res.body.metadata.labels?.['pod-security.kubernetes.io/enforce'], 'restricted');
      assert.equal(res.body.metadata.labels?.['pod-security.kubernetes.io/warn'], 'restricted');
    }
    for (const role of ['cluster-admin', 'admin', 'edit', 'view']) {
      const res = await w.upstream.request<KubeObject>('GET', `/apis/rbac.authorization.k8s.io/v1/clusterroles/${id}-${role}`);
      assert.equal(res.status, 200, role);
    }
    const binding = await w.upstream.request<KubeObject & { subjects?: { name: string }[] }>('GET', `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${id}-warren:tenant-admins`);
    assert.equal(binding.status, 200);
    assert.deepEqual(binding.body.subjects?.map((s) => s.name), [`warren:${id}:alice`]);

    const secret = await secretOf('acme');
    assert.deepEqual(Object.keys(secret.data ?? {}).sort(), ['alice.kubeconfig', 'bob.kubeconfig']);
    const ns = await asTenant(secretKubeconfig(secret, 'alice'), '/api/v1/namespaces');
    assert.equal(ns.status, 200, JSON.stringify(ns.body));
    assert.deepEqual((ns.body as KubeList).items.map((n) => n.metadata.name).sort(), ['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    // bob is no admin: he may not create namespaces.
    const denied = await asTenant(secretKubeconfig(secret, 'bob'), '/api/v1/namespaces', 'POST', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } });
    assert.equal(denied.status, 403);

    const events = await w.upstream.request<KubeList>('GET', '/api/v1/namespaces/default/events');
    // A first onboarding writes one Ready Event that names each step it took.
    const about = events.body.items.filter((e) => (e.involvedObject as { name?: string }).name === 'acme');
    assert.deepEqual(about.map((e) => e.reason), ['Ready']);
    const message = String(about[0]?.message);
    for (const part of ['assigned id', 'namespaces default, kube-system, kube-public, kube-node-lease ensured', 'cluster roles and the tenant-admins binding ensured',
      'certificate for user alice issued (new)', 'certificate for user bob issued (new)']) assert.ok(message.includes(part), `${part} in: ${message}`);
  });

  it('refuses a spec.id another tenant holds with IdConflict, and never becomes Ready', async () => {
    assert.equal((await w.create('first', { id: 'dupe01' })).status, 201);
    await w.waitFor('first', 'Ready', isReady);
    assert.equal((await w.create('second', { id: 'dupe01' })).status, 201);
    const second = await w.waitFor('second', 'IdConflict', (t) => readyCondition(t)?.reason === 'IdConflict');
    assert.equal(readyCondition(second)?.status, 'False');
    assert.match(readyCondition(second)?.message ?? '', /dupe01.*first/);
    assert.equal(second.status?.id, undefined);
    await new Promise((r) => setTimeout(r, 500));
    assert.notEqual((await w.get('second')).status?.phase, 'Ready');
  });

  it('rejects an id of the wrong form with 422 at admission', async () => {
    const res = await w.create('badid', { id: 'Bad-Id' });
    assert.equal(res.status, 422);
    assert.match(JSON.stringify(res.body), /spec\.id/);
  });

  it('suspends and resumes', async () => {
    await w.create('sleepy', { users: [{ name: 'sam', admin: true }] });
    await w.waitFor('sleepy', 'Ready', isReady);
    await w.patchSpec('sleepy', { suspended: true });
    const s = await w.waitFor('sleepy', 'Suspended', (t) => t.status?.phase === 'Suspended');
    assert.equal(readyCondition(s)?.reason, 'Suspended');
    await w.patchSpec('sleepy', { suspended: false });
    await w.waitFor('sleepy', 'Ready again', isReady);
  });

  it('revocation re-issues certificates and the old ones get 401 from the gateway', async () => {
    await w.create('revco', { users: [{ name: 'rita', admin: true }] });
    await w.waitFor('revco', 'Ready', isReady);
    const old = secretKubeconfig(await secretOf('revco'), 'rita');
    assert.equal((await asTenant(old, '/api/v1/namespaces')).status, 200);
    // Whole seconds, rounded up, as revocation.ts asks of whoever revokes.
    const revokeBefore = new Date(Math.ceil((Date.now() + 1) / 1000) * 1000).toISOString();
    await w.patchSpec('revco', { credentials: { revokeBefore } });
    await w.waitFor('revco', 'credentialsNotBefore', (t) => t.status?.credentialsNotBefore !== undefined && isReady(t));
    const fresh = secretKubeconfig(await secretOf('revco'), 'rita');
    assert.notEqual(fresh, old);
    await eventually(async () => (await asTenant(old, '/api/v1/namespaces')).status === 401, 'old certificate refused');
    assert.equal((await asTenant(fresh, '/api/v1/namespaces')).status, 200);
  });

  it('rotates a certificate before a third of its lifetime is left', async () => {
    await w.create('shortco', { users: [{ name: 'sid', admin: true }], credentials: { certificateLifetime: '6s' } });
    await w.waitFor('shortco', 'Ready', isReady);
    const first = secretKubeconfig(await secretOf('shortco'), 'sid');
    const second = await eventually(async () => {
      const now = secretKubeconfig(await secretOf('shortco'), 'sid');
      return now !== first ? now : undefined;
    }, 'rotated certificate', { timeoutMs: 10_000 });
    assert.equal((await asTenant(second, '/api/v1/namespaces')).status, 200);
  });

  it('keeps every credential across a controller restart', async () => {
    const before = await secretOf('acme');
    await w.restartController();
    await new Promise((r) => setTimeout(r, 1_500));
    const after = await secretOf('acme');
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
    assert.ok(isReady(await w.get('acme')));
  });

  it('provisionTenant creates once, returns the same tenant on retry, and hands back the admin kubeconfig', async () => {
    const spec = { users: [{ name: 'pat', admin: true }] };
    const one = await provisionTenant({ upstream: w.upstream, name: 'portal', spec, timeoutMs: 20_000 });
    const two = await provisionTenant({ upstream: w.upstream, name: 'portal', spec, timeoutMs: 20_000 });
    assert.equal(one.tenant.metadata.uid, two.tenant.metadata.uid);
    assert.equal(one.tenant.status?.id, two.tenant.status?.id);
    assert.ok(one.adminKubeconfig);
    assert.equal(one.adminKubeconfig, two.adminKubeconfig);
    assert.equal((await asTenant(one.adminKubeconfig, '/api/v1/namespaces')).status, 200);
  });

  it('deletion leaves zero upstream objects of the tenant and its credentials stop working', async () => {
    await w.create('doomed', { users: [{ name: 'dan', admin: true }] });
    const t = await w.waitFor('doomed', 'Ready', isReady);
    const id = t.status?.id ?? '';
    const kubeconfig = secretKubeconfig(await secretOf('doomed'), 'dan');
    // Something of the tenant's own, created through the gateway: a namespace and a ClusterRole.
    assert.equal((await asTenant(kubeconfig, '/api/v1/namespaces', 'POST', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apps' } })).status, 201);
    assert.equal((await asTenant(kubeconfig, '/apis/rbac.authorization.k8s.io/v1/clusterroles', 'POST',
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'mine' }, rules: [] })).status, 201);
    assert.equal((await w.upstream.request('DELETE', `/apis/tenancy.warren.dev/v1alpha1/tenants/doomed`)).status, 200);
    await eventually(async () => (await asTenant(kubeconfig, '/api/v1/namespaces')).status === 401, 'credentials refused');
    await eventually(async () => (await w.upstream.request('GET', '/apis/tenancy.warren.dev/v1alpha1/tenants/doomed')).status === 404, 'Tenant gone', { timeoutMs: 30_000 });
    assert.deepEqual(w.deleted, [id]);

    const client = upstreamObjectClient(w.upstream);
    const leftovers: string[] = [];
    const core = (await client.read('/api/v1')) as { resources: { name: string; namespaced: boolean; verbs: string[] }[] };
    const paths = [...await clusterScopedCollections(client)];
    // Namespaced resources too, across all namespaces.
    for (const r of core.resources) if (r.namespaced && !r.name.includes('/') && r.verbs.includes('list')) paths.push(`/api/v1/${r.name}`);
    for (const path of paths) {
      for (const obj of await client.list(path).catch(() => [])) {
        const m = obj.metadata;
        if (m.labels?.[TENANT_LABEL] === id || m.name?.startsWith(`${id}-`) || m.namespace?.startsWith(`${id}-`)) leftovers.push(`${path}/${m.name ?? ''}`);
      }
    }
    assert.equal((await w.upstream.request('GET', '/api/v1/namespaces/warren-system/secrets/tenant-doomed-kubeconfigs')).status, 404);
    assert.deepEqual(leftovers, []);
  });
});
