// ADR 0028's one-off migration, at onboarding controller start: tenant RBAC
// seeded upstream in the form written before that ADR (unmapped ClusterRole
// label keys that the host's aggregation selects, subjects naming the host
// identity of tenant ServiceAccounts) is rewritten; today's form is not
// touched; a second start writes nothing.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startWorld, type OnboardingWorld } from './fixture.ts';

const ID = 'lgcy01';
const RBAC = 'rbac.authorization.k8s.io';
const L = 'tenancy.warren.dev/tenant';
const ROLES = `/apis/${RBAC}/v1/clusterroles`;

describe('legacy tenant RBAC is rewritten at controller start (ADR 0028)', { timeout: 120_000 }, () => {
  let w: OnboardingWorld;
  const post = async (path: string, body: unknown): Promise<void> => {
    const r = await w.upstream.request('POST', path, body);
    assert.equal(r.status, 201, JSON.stringify(r.body));
  };
  const get = async (path: string): Promise<any> => (await w.upstream.request<any>('GET', path)).body;

  before(async () => {
    w = await startWorld();
    await w.controller.legacyRbacMigrated(); // nothing of ID yet: the seeds below are what the next start finds
    await post('/api/v1/namespaces', { metadata: { name: `${ID}-bots`, labels: { [L]: ID } } });
    await post(ROLES, { metadata: { name: `${ID}-legacy`, labels: { [L]: ID, [`${RBAC}/aggregate-to-admin`]: 'true' } }, rules: [{ apiGroups: ['legacy.example'], resources: ['things'], verbs: ['*'] }] });
    await post(ROLES, { metadata: { name: `${ID}-today`, labels: { [L]: ID, [`${ID}.${RBAC}/aggregate-to-admin`]: 'true' } }, rules: [] });
    await post(`/apis/${RBAC}/v1/namespaces/${ID}-bots/rolebindings`, {
      metadata: { name: 'bot-admin', labels: { [L]: ID } },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: `${ID}-legacy` },
      subjects: [{ kind: 'ServiceAccount', name: 'bot', namespace: `${ID}-bots` }],
    });
    await post(`/apis/${RBAC}/v1/clusterrolebindings`, {
      metadata: { name: `${ID}-everyone`, labels: { [L]: ID } },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: `${ID}-legacy` },
      subjects: [{ kind: 'Group', apiGroup: RBAC, name: `system:serviceaccounts:${ID}-bots` }, { kind: 'User', apiGroup: RBAC, name: `system:serviceaccount:${ID}-bots:bot` }],
    });
  });
  after(async () => { await w?.stop(); });

  it('rewrites the legacy objects once, leaves today\'s alone, and the host\'s aggregation selector no longer finds the role', async () => {
    const selector = encodeURIComponent(`${RBAC}/aggregate-to-admin=true`);
    const before = await get(`${ROLES}?labelSelector=${selector}`);
    assert.ok(before.items.some((r: any) => r.metadata.name === `${ID}-legacy`), 'the seeded legacy role is what host aggregation selects');
    const todayVersion = (await get(`${ROLES}/${ID}-today`)).metadata.resourceVersion;

    await w.restartController();
    assert.equal(await w.controller.legacyRbacMigrated(), 3);

    const role = await get(`${ROLES}/${ID}-legacy`);
    assert.deepEqual(role.metadata.labels, { [L]: ID, [`${ID}.${RBAC}/aggregate-to-admin`]: 'true' });
    assert.deepEqual(role.rules, [{ apiGroups: ['legacy.example'], resources: ['things'], verbs: ['*'] }]);
    const after = await get(`${ROLES}?labelSelector=${selector}`);
    assert.equal(after.items.some((r: any) => (r.metadata.name as string).startsWith(`${ID}-`)), false, 'no tenant role is selected by the host\'s aggregate-to-admin');
    assert.equal((await get(`${ROLES}/${ID}-today`)).metadata.resourceVersion, todayVersion, 'today\'s form is not written');
    assert.deepEqual((await get(`/apis/${RBAC}/v1/namespaces/${ID}-bots/rolebindings/bot-admin`)).subjects,
      [{ kind: 'User', apiGroup: RBAC, name: `warren:${ID}:system:serviceaccount:bots:bot` }]);
    assert.deepEqual((await get(`/apis/${RBAC}/v1/clusterrolebindings/${ID}-everyone`)).subjects, [
      { kind: 'Group', apiGroup: RBAC, name: `warren:${ID}:system:serviceaccounts:bots` },
      { kind: 'User', apiGroup: RBAC, name: `warren:${ID}:system:serviceaccount:bots:bot` },
    ]);

    await w.restartController();
    assert.equal(await w.controller.legacyRbacMigrated(), 0, 'a second start writes nothing');
  });
});
