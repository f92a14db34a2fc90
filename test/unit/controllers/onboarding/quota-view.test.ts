// The tenant's quota view (issue 14 item 9): figures from the Tenant's limits and counted usage.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ensureQuotaView, quotaViewFigures, QUOTA_VIEW_PREFIX } from '../../../../src/controllers/onboarding/quota-view.ts';
import { TENANT_QUOTA_NAME } from '../../../../src/core/tenancy/quota/quota-view.ts';
import { TENANT_LABEL } from '../../../../src/core/tenancy/tenant-id.ts';
import { EXECUTION_SPACE_LABEL } from '../../../../src/core/propagation/execution-space.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import { fakeClient } from './fake-client.ts';

describe('quotaViewFigures', () => {
  it('hard is each limit the Tenant sets, used the usage of the same resource, under keys no evaluator counts', () => {
    assert.deepEqual(quotaViewFigures({ cpu: '16', memory: '64Gi' }, { namespaces: 3, cpu: '1500m', memory: '768Mi', storage: '1Gi' }), {
      hard: { [`${QUOTA_VIEW_PREFIX}requests.cpu`]: '16', [`${QUOTA_VIEW_PREFIX}requests.memory`]: '64Gi' },
      used: { [`${QUOTA_VIEW_PREFIX}requests.cpu`]: '1500m', [`${QUOTA_VIEW_PREFIX}requests.memory`]: '768Mi' },
    });
  });
  it('usage not counted yet shows 0; a number limit is written as a quantity string', () => {
    assert.deepEqual(quotaViewFigures({ cpu: 4 }, undefined), { hard: { [`${QUOTA_VIEW_PREFIX}requests.cpu`]: '4' }, used: { [`${QUOTA_VIEW_PREFIX}requests.cpu`]: '0' } });
  });
  it('every key carries the prefix: kube\'s quota admission and controller count none of them', () => {
    const { hard } = quotaViewFigures({ cpu: '1', memory: '1Gi', storage: '1Gi' }, {});
    for (const key of Object.keys(hard)) assert.ok(key.startsWith(QUOTA_VIEW_PREFIX), key);
  });
});

describe('ensureQuotaView', () => {
  const id = 'acme01';
  const ns = (name: string, labels: Record<string, string> = {}): void => {
    client.objects.set(`/api/v1/namespaces/${name}`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { [TENANT_LABEL]: id, ...labels } } });
  };
  let client = fakeClient();
  const viewIn = (name: string) => client.objects.get(`/api/v1/namespaces/${name}/resourcequotas/${TENANT_QUOTA_NAME}`) as (KubeObject & { spec?: { hard?: Record<string, string> }; status?: { used?: Record<string, string> } }) | undefined;

  it('every tenant namespace gets the view, the engine\'s execution spaces none; a repair keeps the gateway\'s counts', async () => {
    client = fakeClient();
    for (const n of [`${id}-default`, `${id}-kube-system`, `${id}-web`]) ns(n);
    ns(`${id}-karmada-es-member1`, { [EXECUTION_SPACE_LABEL]: 'member1' });
    await ensureQuotaView(client, id, { namespaces: 20, objectsPerResource: 5, cpu: '4' }, { namespaces: 3, cpu: '500m' });
    for (const n of [`${id}-default`, `${id}-kube-system`, `${id}-web`]) {
      const view = viewIn(n);
      assert.ok(view, n);
      assert.equal(view.spec?.hard?.[`${QUOTA_VIEW_PREFIX}count.configmaps`], '5');
      assert.equal(view.status?.used?.[`${QUOTA_VIEW_PREFIX}requests.cpu`], '500m');
      assert.equal(view.status?.used?.[`${QUOTA_VIEW_PREFIX}namespaces`], '3');
    }
    assert.equal(viewIn(`${id}-karmada-es-member1`), undefined);
    // The gateway wrote a live count; someone changed hard beside the gateway: onboarding repairs hard, keeps the count.
    const view = viewIn(`${id}-web`)!;
    client.objects.set(`/api/v1/namespaces/${id}-web/resourcequotas/${TENANT_QUOTA_NAME}`, {
      ...view, spec: { hard: { ...view.spec?.hard, [`${QUOTA_VIEW_PREFIX}count.configmaps`]: '999' } },
      status: { ...view.status, used: { ...view.status?.used, [`${QUOTA_VIEW_PREFIX}count.configmaps`]: '2' } },
    });
    await ensureQuotaView(client, id, { namespaces: 20, objectsPerResource: 5, cpu: '4' }, { namespaces: 3, cpu: '1' });
    const repaired = viewIn(`${id}-web`)!;
    assert.equal(repaired.spec?.hard?.[`${QUOTA_VIEW_PREFIX}count.configmaps`], '5');
    assert.equal(repaired.status?.used?.[`${QUOTA_VIEW_PREFIX}count.configmaps`], '2');
    assert.equal(repaired.status?.used?.[`${QUOTA_VIEW_PREFIX}requests.cpu`], '1');
  });

  it('a Tenant without limits has no view: existing ones are removed', async () => {
    await ensureQuotaView(client, id, {}, { namespaces: 3 });
    for (const n of [`${id}-default`, `${id}-kube-system`, `${id}-web`]) assert.equal(viewIn(n), undefined, n);
  });
});
