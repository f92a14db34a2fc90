// The reconciler over a map-backed upstream: the order of its writes, what an
// invalid or conflicting Tenant gets, idempotence, suspension and cleanup.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { createCa, type KeyPairPem } from '../../../../src/pki/certificates.ts';
import { reconcileTenant, type OnboardingDeps } from '../../../../src/controllers/onboarding/reconcile-tenant.ts';
import { TENANTS_PATH, type Tenant } from '../../../../src/tenants/tenant-crd.ts';
import { fakeClient, type FakeClient } from './fake-client.ts';

let ca: KeyPairPem;
before(async () => { ca = await createCa('test-tenant-ca'); });

function world(tenants: Tenant[]): { client: FakeClient; deps: OnboardingDeps; events: string[]; messages: string[] } {
  const client = fakeClient();
  for (const t of tenants) client.objects.set(`${TENANTS_PATH}/${t.metadata.name ?? ''}`, { ...t, metadata: { generation: 1, resourceVersion: '1', ...t.metadata } });
  const events: string[] = [];
  const messages: string[] = [];
  const deps: OnboardingDeps = {
    client,
    tenants: () => [...client.objects.entries()].filter(([p]) => p.startsWith(`${TENANTS_PATH}/`)).map(([, o]) => o as Tenant),
    reserved: new Set(),
    record: async (_t, type, reason, message) => { events.push(`${type} ${reason}`); messages.push(`${type} ${reason}: ${message}`); },
    tenantCa: async () => ca,
    gatewayUrl: 'https://127.0.0.1:6443',
    gatewayCaPem: ca.certPem,
    now: () => new Date(),
  };
  return { client, deps, events, messages };
}
const stored = (client: FakeClient, name: string): Tenant => client.objects.get(`${TENANTS_PATH}/${name}`) as Tenant;
const ready = (t: Tenant) => t.status?.conditions?.find((c) => c.type === 'Ready');

describe('reconcileTenant', () => {
  it('writes status.id before anything else, then reaches Ready; a second pass writes nothing', async () => {
    const { client, deps, events } = world([{ metadata: { name: 'acme' }, spec: { id: 'acme01', users: [{ name: 'al', admin: true }] } }]);
    const result = await reconcileTenant(deps, 'acme');
    assert.equal(client.writes[0], `update ${TENANTS_PATH}/acme/status`);
    assert.equal(client.writes[1], `update ${TENANTS_PATH}/acme`, 'the finalizer comes second');
    const acme = stored(client, 'acme');
    assert.equal(acme.status?.id, 'acme01');
    assert.equal(acme.status?.phase, 'Ready');
    assert.equal(ready(acme)?.status, 'True');
    assert.equal(ready(acme)?.observedGeneration, 1);
    assert.deepEqual(acme.metadata.finalizers, ['tenancy.warren.dev/cleanup']);
    assert.ok(client.objects.has('/api/v1/namespaces/acme01-default'));
    assert.ok(client.objects.has('/api/v1/namespaces/warren-system/secrets/tenant-acme-kubeconfigs'));
    assert.ok(result.requeueAfterMs !== undefined && result.requeueAfterMs > 0, 'rotation is scheduled');
    assert.deepEqual(events, ['Normal Ready'], 'a first onboarding reports its steps in its Ready event');

    const writes = client.writes.length;
    await reconcileTenant(deps, 'acme');
    assert.deepEqual(client.writes.slice(writes), []);
  });

  it('a first onboarding writes one Ready Event that names every step', async () => {
    const { deps, messages } = world([{ metadata: { name: 'acme' }, spec: { users: [{ name: 'al', admin: true }, { name: 'bo' }] } }]);
    await reconcileTenant(deps, 'acme');
    assert.equal(messages.length, 1);
    assert.match(messages[0]!, /^Normal Ready: tenant acme is ready \(id ([a-z][a-z0-9]{5})\): assigned id \1; namespaces default, kube-system, kube-public, kube-node-lease ensured; cluster roles and the tenant-admins binding ensured; certificate for user al issued \(new\); certificate for user bo issued \(new\)$/);
  });

  it('a first onboarding that fails writes the steps it did one by one, then the failure', async () => {
    const { client, deps, events } = world([{ metadata: { name: 'acme' }, spec: { users: [{ name: 'al', admin: true }] } }]);
    deps.tenantCa = async () => { throw new Error('tenant CA unavailable'); };
    await assert.rejects(reconcileTenant(deps, 'acme'), /tenant CA unavailable/);
    assert.deepEqual(events, ['Normal IdAssigned', 'Normal NamespacesReady', 'Normal RbacReady', 'Warning ReconcileFailed']);
    assert.equal(ready(stored(client, 'acme'))?.reason, 'ReconcileFailed');
  });

  it('after the first onboarding, a repair gets an Event of its own', async () => {
    const { client, deps, events } = world([{ metadata: { name: 'acme' }, spec: { id: 'acme01', users: [{ name: 'al', admin: true }] } }]);
    await reconcileTenant(deps, 'acme');
    events.length = 0;
    client.objects.delete('/api/v1/namespaces/acme01-kube-public');
    await reconcileTenant(deps, 'acme');
    assert.deepEqual(events, ['Normal NamespacesReady']);
  });

  it('an invalid spec gets Ready=False InvalidSpec and nothing upstream', async () => {
    const { client, deps, events } = world([{ metadata: { name: 'bad' }, spec: { users: [{ name: 'a' }, { name: 'a' }] } }]);
    assert.deepEqual(await reconcileTenant(deps, 'bad'), {});
    assert.equal(ready(stored(client, 'bad'))?.reason, 'InvalidSpec');
    assert.deepEqual(client.writes, [`update ${TENANTS_PATH}/bad/status`]);
    assert.deepEqual(events, ['Warning InvalidSpec']);
  });

  it('a taken spec.id gets IdConflict and no id', async () => {
    const { client, deps } = world([
      { metadata: { name: 'one', creationTimestamp: '2025-01-01T00:00:00Z' }, spec: { id: 'same01' }, status: { id: 'same01' } },
      { metadata: { name: 'two', creationTimestamp: '2025-01-02T00:00:00Z' }, spec: { id: 'same01' } },
    ]);
    const result = await reconcileTenant(deps, 'two');
    assert.ok(result.requeueAfterMs);
    const two = stored(client, 'two');
    assert.equal(ready(two)?.reason, 'IdConflict');
    assert.equal(two.status?.id, undefined);
  });

  it('suspension and resumption move the phase', async () => {
    const { client, deps, events } = world([{ metadata: { name: 's' }, spec: { id: 'susp01', suspended: true } }]);
    await reconcileTenant(deps, 's');
    assert.equal(stored(client, 's').status?.phase, 'Suspended');
    assert.equal(ready(stored(client, 's'))?.reason, 'Suspended');
    const t = stored(client, 's');
    client.objects.set(`${TENANTS_PATH}/s`, { ...t, spec: { id: 'susp01', suspended: false } });
    await reconcileTenant(deps, 's');
    assert.equal(stored(client, 's').status?.phase, 'Ready');
    assert.ok(events.includes('Normal Resumed'));
  });

  it('a deleted Tenant: everything labelled or prefixed goes, then the finalizer', async () => {
    const { client, deps } = world([{ metadata: { name: 'gone' }, spec: { id: 'gone01' } }]);
    await reconcileTenant(deps, 'gone');
    client.documents.set('/api', { versions: ['v1'] });
    client.documents.set('/apis', { groups: [{ name: 'rbac.authorization.k8s.io', preferredVersion: { groupVersion: 'rbac.authorization.k8s.io/v1' } }] });
    client.documents.set('/api/v1', { resources: [{ name: 'namespaces', namespaced: false, verbs: ['list', 'delete'] }, { name: 'namespaces/status', namespaced: false, verbs: ['get'] }] });
    client.documents.set('/apis/rbac.authorization.k8s.io/v1', { resources: [{ name: 'clusterroles', namespaced: false, verbs: ['list', 'delete'] }, { name: 'clusterrolebindings', namespaced: false, verbs: ['list', 'delete'] }] });
    client.objects.set('/api/v1/namespaces/other-default', { metadata: { name: 'other-default' } });
    const t = stored(client, 'gone');
    client.objects.set(`${TENANTS_PATH}/gone`, { ...t, metadata: { ...t.metadata, deletionTimestamp: '2025-01-01T00:00:00Z' } });
    const deleted: string[] = [];
    deps.onTenantDeleted = (id) => { deleted.push(id); };
    assert.deepEqual(await reconcileTenant(deps, 'gone'), { requeueAfterMs: 1000 }, 'first pass deletes and waits');
    assert.equal(stored(client, 'gone').status?.phase, 'Terminating');
    assert.deepEqual(await reconcileTenant(deps, 'gone'), {});
    const left = [...client.objects.keys()].filter((p) => p.includes('gone01') || p.includes('tenant-gone'));
    assert.deepEqual(left, []);
    assert.ok(client.objects.has('/api/v1/namespaces/other-default'));
    assert.deepEqual(stored(client, 'gone').metadata.finalizers, []);
    assert.deepEqual(deleted, ['gone01']);
  });

  it('a Tenant that no longer exists is not an error', async () => {
    const { deps } = world([]);
    assert.deepEqual(await reconcileTenant(deps, 'nobody'), {});
  });
});
