import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildMissingRequests, describeMissing, missingBefore, podSpecOf } from '../../../../../src/core/tenancy/quota/missing-requests.ts';

const c = (name: string, resources?: object) => ({ name, ...(resources ? { resources } : {}) });

describe('tenant quota: containers that request nothing of a limited resource (kube\'s "must specify")', () => {
  const cases: Array<[string, unknown, Array<'cpu' | 'memory'>, string[]]> = [
    ['nothing required, nothing missing', { containers: [c('a')] }, [], []],
    ['a request is enough', { containers: [c('a', { requests: { cpu: '1', memory: '1Mi' } })] }, ['cpu', 'memory'], []],
    ['a limit stands for the request (kube defaults requests to limits)', { containers: [c('a', { limits: { cpu: '1', memory: '1Mi' } })] }, ['cpu', 'memory'], []],
    ['a request of 0 is a request', { containers: [c('a', { requests: { cpu: '0' } })] }, ['cpu'], []],
    ['each container, init containers first', { initContainers: [c('i')], containers: [c('a', { requests: { cpu: '1' } }), c('b')] }, ['cpu', 'memory'],
      ['i/cpu', 'i/memory', 'a/memory', 'b/cpu', 'b/memory']],
    ['only what the quota limits', { containers: [c('a')] }, ['memory'], ['a/memory']],
    ['a spec that is not an object asks nothing', 'junk', ['cpu'], []],
  ];
  for (const [name, spec, required, want] of cases) {
    it(name, () => assert.deepEqual(buildMissingRequests(spec, required).map((m) => `${m.container}/${m.resource}`), want));
  }

  it('the message is kube\'s, sorted, with each container named', () => {
    const missing = buildMissingRequests({ containers: [c('web'), c('side', { requests: { cpu: '1' } })] }, ['memory', 'cpu']);
    assert.equal(describeMissing(missing), 'must specify requests.cpu,requests.memory (container "web": requests.memory,requests.cpu; container "side": requests.memory)');
  });

  it('an object older than the quota keeps what it already lacked, and nothing more', () => {
    const stored = buildMissingRequests({ containers: [c('web')] }, ['cpu']);
    assert.equal(missingBefore(buildMissingRequests({ containers: [c('web')] }, ['cpu']), stored), true);
    assert.equal(missingBefore(buildMissingRequests({ containers: [c('web'), c('new')] }, ['cpu']), stored), false);
  });

  it('finds the pod spec of every kind that runs pods', () => {
    const spec = { containers: [c('x')] };
    assert.equal(podSpecOf('/pods', { metadata: {}, spec }), spec);
    assert.equal(podSpecOf('apps/deployments', { metadata: {}, spec: { template: { spec } } }), spec);
    assert.equal(podSpecOf('batch/cronjobs', { metadata: {}, spec: { jobTemplate: { spec: { template: { spec } } } } }), spec);
    assert.equal(podSpecOf('apps/deployments', { metadata: {} }), undefined);
  });
});
