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

  it('the platform\'s placement contract (ADR 0043): the safe default unless the file says, a misspelt field refused', () => {
    const kc = { 'upstream-kubeconfig': '/kc' };
    assert.deepEqual(buildServeOptions(loadConfig({ env: {}, flags: kc }), {}, 'h', 1).placement, { nodeSelector: {}, tolerations: [] });
    const head = 'apiVersion: config.warren.dev/v1alpha1\nkind: WarrenConfig\n';
    const text = `${head}placement:\n  nodeSelector: { pool: tenants }\n  tolerations: [{ key: spot, operator: Exists, effect: NoSchedule }]\n`;
    const c = loadConfig({ env: {}, flags: { ...kc, config: '/c.yaml' }, readFile: () => text });
    assert.deepEqual(buildServeOptions(c, {}, 'h', 1).placement, { nodeSelector: { pool: 'tenants' }, tolerations: [{ key: 'spot', operator: 'Exists', effect: 'NoSchedule' }] });
    assert.throws(() => loadConfig({ env: {}, flags: { ...kc, config: '/c.yaml' }, readFile: () => `${head}placement:\n  tolerations: [{ key: spot, operator: Exist }]\n` }), /placement/);
  });
});
