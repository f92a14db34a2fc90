import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildServeOptions } from '../../../src/config/serve-options.ts';
import { loadConfig } from '../../../src/config/load-config.ts';

describe('buildServeOptions', () => {
  it('a kubeconfig path, listen split, leader election from the pod name', () => {
    const c = loadConfig({ env: {}, flags: { 'upstream-kubeconfig': '/kc', listen: '[::]:7443', 'audit-impersonate': 'warren' } });
    const o = buildServeOptions(c, { POD_NAME: 'warren-0' }, 'h', 1);
    assert.deepEqual(o.upstreamKubeconfig, { path: '/kc' });
    assert.equal(o.host, '::');
    assert.equal(o.port, 7443);
    assert.equal(o.externalUrl, undefined);
    assert.deepEqual(o.auditAttribution, { upstreamUser: 'warren' });
    assert.equal(o.upstreamTimeoutMs, 60_000);
    assert.deepEqual(o.leaderElection, { identity: 'warren-0', namespace: 'warren-system', name: 'warren-controllers', leaseDurationSeconds: 15, renewDeadline: 10, retryPeriod: 2 });
  });

  it('in cluster: a kubeconfig built from the service env; leader election off', () => {
    const c = loadConfig({ env: { WARREN_UPSTREAM_IN_CLUSTER: 'true', WARREN_LEADER_ELECTION_ENABLED: 'false' }, flags: { listen: ':6443' } });
    const o = buildServeOptions(c, { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' }, 'h', 1);
    assert.ok('yaml' in o.upstreamKubeconfig && o.upstreamKubeconfig.yaml.includes('https://10.0.0.1:443'));
    assert.equal(o.host, '0.0.0.0');
    assert.equal(o.leaderElection, undefined);
  });
});
