// The engine trusts a Cluster's taints once its informer holds the version the
// cluster controller of this process confirmed (issue 14 item 10).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createClusterHealthView, MAX_WAIT_MS } from '../../../../src/controllers/propagation/cluster-health.ts';

const version = (name: string, resourceVersion: string) => ({ metadata: { name, resourceVersion } });

describe('cluster health view', () => {
  it('without a cluster controller in the process, every copy counts', () => {
    assert.equal(createClusterHealthView(undefined).confirmed('m1'), true);
  });

  it('unconfirmed until the controller confirmed a version and the informer delivered it, whatever the order', () => {
    const confirmed = new Map<string, string>();
    const view = createClusterHealthView((n) => confirmed.get(n));
    view.observe(version('m1', '10')); // the copy the killed process left
    assert.equal(view.confirmed('m1'), false, 'nothing confirmed yet');
    confirmed.set('m1', '12');
    assert.equal(view.confirmed('m1'), false, 'the informer has not delivered 12 yet');
    view.observe(version('m1', '12'));
    assert.equal(view.confirmed('m1'), true);
    // The watch event may come before the controller's answer (the embedded apiserver sends it first).
    view.observe(version('m2', '20'));
    confirmed.set('m2', '20');
    assert.equal(view.confirmed('m2'), true);
    assert.equal(view.confirmed('m3'), false);
  });

  it('the wait is bounded: past MAX_WAIT_MS from the start an unconfirmed cluster counts as it is', () => {
    let clock = 1_000;
    const view = createClusterHealthView(() => undefined, () => clock);
    assert.equal(view.confirmed('m1'), false);
    clock += MAX_WAIT_MS - 1;
    assert.equal(view.confirmed('m1'), false);
    clock += 1;
    assert.equal(view.confirmed('m1'), true);
  });

  it('property: confirmed exactly when the confirmed version was among those observed (then for good)', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: 40 }), fc.integer({ min: 1, max: 30 }), (observed, at) => {
      const view = createClusterHealthView(() => String(at));
      let seen = false;
      for (const rv of observed) {
        view.observe(version('m', String(rv)));
        seen ||= rv === at;
        assert.equal(view.confirmed('m'), seen);
      }
    }));
  });
});
