// The tenant's quota view (issue 14 item 9): figures from the Tenant's limits and counted usage.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { quotaViewFigures, QUOTA_VIEW_PREFIX } from '../../../../src/controllers/onboarding/quota-view.ts';

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
