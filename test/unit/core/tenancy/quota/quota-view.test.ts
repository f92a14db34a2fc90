// The quota view's pure rules (issue 14 item 9): which keys, and how two writers share status.used.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  countKeyOf, liveKeys, mergeUsed, NAMESPACES_KEY, QUOTA_VIEW_PREFIX, requestKeys, VIEW_COUNTS, viewHard,
} from '../../../../../src/core/tenancy/quota/quota-view.ts';

// kube's ResourceQuota validation: a key with a "/" must be a qualified name (prefix/name, one "/").
const QUALIFIED = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;

describe('quota view keys', () => {
  it('hard holds namespaces, each listed count and cpu/memory/storage, every key a prefixed qualified name', () => {
    const hard = viewHard({ namespaces: 20, objectsPerResource: 1000, cpu: '16', memory: '64Gi' });
    assert.equal(hard[NAMESPACES_KEY], '20');
    assert.equal(hard[`${QUOTA_VIEW_PREFIX}count.deployments.apps`], '1000');
    assert.equal(hard[`${QUOTA_VIEW_PREFIX}count.configmaps`], '1000');
    assert.equal(hard[`${QUOTA_VIEW_PREFIX}requests.cpu`], '16');
    assert.equal(hard[`${QUOTA_VIEW_PREFIX}requests.storage`], undefined);
    assert.equal(Object.keys(hard).length, 1 + VIEW_COUNTS.length + 2);
    for (const key of Object.keys(hard)) {
      assert.ok(key.startsWith(QUOTA_VIEW_PREFIX), key);
      assert.match(key, QUALIFIED);
    }
  });
  it('no limit, no view', () => {
    assert.deepEqual(viewHard(undefined), {});
    assert.deepEqual(viewHard({}), {});
    assert.equal(liveKeys({ cpu: '1' }).size, 0);
  });
  it('the gateway keeps the counts live (by counter key), onboarding the requests', () => {
    const live = liveKeys({ namespaces: 3, objectsPerResource: 5, cpu: '1' });
    assert.equal(live.get('/namespaces'), NAMESPACES_KEY);
    assert.equal(live.get('apps/deployments'), countKeyOf({ group: 'apps', resource: 'deployments' }));
    assert.equal(live.get('/secrets'), `${QUOTA_VIEW_PREFIX}count.secrets`);
    assert.deepEqual(requestKeys({ namespaces: 3, cpu: '1' }), [`${QUOTA_VIEW_PREFIX}requests.cpu`]);
  });
});

describe('mergeUsed', () => {
  const hard = viewHard({ namespaces: 20, objectsPerResource: 10, cpu: '4' });
  it('a writer sets its own keys and keeps the other writer\'s', () => {
    const afterOnboarding = mergeUsed(undefined, requestKeys({ cpu: '4' }), { [`${QUOTA_VIEW_PREFIX}requests.cpu`]: '1500m' }, hard);
    const afterGateway = mergeUsed(afterOnboarding, [...liveKeys({ namespaces: 20, objectsPerResource: 10 }).values()], { [NAMESPACES_KEY]: '4', [`${QUOTA_VIEW_PREFIX}count.secrets`]: '3' }, hard);
    assert.equal(afterGateway[`${QUOTA_VIEW_PREFIX}requests.cpu`], '1500m');
    assert.equal(afterGateway[NAMESPACES_KEY], '4');
    assert.equal(afterGateway[`${QUOTA_VIEW_PREFIX}count.secrets`], '3');
  });
  it('keys that left hard leave used (kube masks used by hard); a forged key never survives', () => {
    fc.assert(fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 30 }), fc.string({ maxLength: 5 })), fc.dictionary(fc.string({ minLength: 1, maxLength: 30 }), fc.string({ maxLength: 5 })),
      (current, figures) => {
        const used = mergeUsed(current, Object.keys(figures), figures, hard);
        for (const key of Object.keys(used)) assert.ok(Object.hasOwn(hard, key), key);
        for (const [key, value] of Object.entries(figures)) if (Object.hasOwn(hard, key)) assert.equal(used[key], value);
      }));
  });
});
