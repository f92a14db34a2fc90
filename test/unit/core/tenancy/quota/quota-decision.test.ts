import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { emptyUsage, type Usage } from '../../../../../src/core/tenancy/quota/object-demand.ts';
import { buildQuotaDecision } from '../../../../../src/core/tenancy/quota/quota-decision.ts';
import { quantityOf } from '../../../../../src/core/tenancy/quota/quantity-math.ts';

const usage = (cpu: string, memory = '0', storage = '0'): Usage => ({
  'requests.cpu': quantityOf(cpu)!, 'requests.memory': quantityOf(memory)!, 'requests.storage': quantityOf(storage)!,
});
const subject = { group: 'apps', resource: 'deployments', name: 'web' };

describe('tenant quota: the decision', () => {
  it('refuses in kube\'s words, naming only what goes over', () => {
    const err = buildQuotaDecision({ cpu: '16', memory: '8Gi' }, usage('15', '1Gi'), usage('17', '2Gi'), subject);
    assert.equal(err?.reason, 'Forbidden');
    assert.equal(err?.code, 403);
    assert.equal(err?.message, 'deployments.apps "web" is forbidden: exceeded quota: tenant-quota, requested: requests.cpu=2, used: requests.cpu=15, limited: requests.cpu=16');
    assert.deepEqual(err?.details, { name: 'web', kind: 'deployments', group: 'apps' });
  });

  it('lists several resources, sorted, in the limit\'s format', () => {
    const err = buildQuotaDecision({ cpu: '1', memory: '1Gi', storage: 1 }, usage('0'), usage('2', '1536Mi'), { group: '', resource: 'pods' });
    assert.equal(err?.message, 'pods is forbidden: exceeded quota: tenant-quota, requested: requests.cpu=2,requests.memory=1536Mi, used: requests.cpu=0,requests.memory=0, limited: requests.cpu=1,requests.memory=1Gi');
  });

  it('exactly the limit passes; no limit, no refusal', () => {
    assert.equal(buildQuotaDecision({ cpu: '2' }, usage('1'), usage('2'), subject), undefined);
    assert.equal(buildQuotaDecision({}, usage('0'), usage('100'), subject), undefined);
  });

  it('a write that does not increase a resource passes even over quota (scale down)', () => {
    assert.equal(buildQuotaDecision({ cpu: '1' }, usage('5'), usage('3'), subject), undefined);
    assert.equal(buildQuotaDecision({ cpu: '1' }, usage('5'), usage('5', '1Gi'), subject), undefined);
  });

  it('refuses exactly when it grows past the limit (property)', () => {
    fc.assert(fc.property(fc.nat(10_000), fc.nat(10_000), fc.nat(10_000), (before, after, limit) => {
      const err = buildQuotaDecision({ cpu: `${limit}m` }, usage(`${before}m`), usage(`${after}m`), subject);
      assert.equal(err !== undefined, after > before && after > limit);
    }));
  });

  it('empty usage is zero everywhere', () => {
    assert.equal(buildQuotaDecision({ cpu: '0' }, emptyUsage(), emptyUsage(), subject), undefined);
  });
});
