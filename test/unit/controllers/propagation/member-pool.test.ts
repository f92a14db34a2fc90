// The member pool after stop(): a pass still in flight when the engine stops (its
// credentials read, or the member's versions asked, was awaiting) must not connect
// or start a watch afterwards. Such a watch was stopped by no one and retried
// against the closed member for ever: the process did not exit (seen once after
// test/e2e/propagation-host-hold-kinds.test.ts passed).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMemberPool } from '../../../../src/controllers/propagation/member-pool.ts';
import { TEMPLATE_RESOURCES } from '../../../../src/controllers/propagation/template-resources.ts';
import type { Upstream, UpstreamResponse } from '../../../../src/kube/upstream.ts';
import type { Cluster } from '../../../../src/core/propagation/karmada-types.ts';

const fakeUpstream = (request: Upstream['request'], calls: string[]): Upstream => ({
  server: 'https://127.0.0.1:1',
  requestOptions: () => ({}),
  request,
  stream: async (path) => { calls.push(`stream ${path}`); throw new Error('refused'); },
  close: () => { calls.push('close'); },
});

describe('member pool (connections to the members, watches of what the engine applied)', () => {
  it('start no connection and no watch once stopped, even for a call made before (no handle left behind)', async () => {
    let release: (res: UpstreamResponse) => void = () => undefined;
    const secret = new Promise<UpstreamResponse>((resolve) => { release = resolve; });
    const hostCalls: string[] = [];
    const memberCalls: string[] = [];
    let connects = 0;
    const pool = createMemberPool({
      upstream: fakeUpstream(async (method, path) => { hostCalls.push(`${method} ${path}`); return await secret as never; }, hostCalls),
      connect: () => {
        connects++;
        return fakeUpstream(async (method, path) => { memberCalls.push(`${method} ${path}`); return { status: 200, headers: {}, body: { items: [], metadata: { resourceVersion: '1' } } } as never; }, memberCalls);
      },
      onMemberChange: () => undefined,
      log: () => undefined,
    });
    const cluster = { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'member1' }, spec: { apiEndpoint: 'https://127.0.0.1:1', secretRef: { namespace: 'karmada-cluster', name: 'member1' } } } as unknown as Cluster;
    const configMaps = TEMPLATE_RESOURCES.find((r) => r.kind === 'ConfigMap')!;
    const watching = pool.watch(cluster, configMaps);
    assert.equal(hostCalls.length, 1, 'the secret is being read');
    pool.stop();
    release({ status: 200, headers: {}, body: { data: {}, metadata: { resourceVersion: '7' } } });
    await watching;
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(connects, 0, 'no member client built after stop()');
    assert.deepEqual(memberCalls, [], 'nothing asked of the member after stop()');
    assert.equal(await pool.client(cluster), undefined, 'no client handed out after stop()');
  });
});
