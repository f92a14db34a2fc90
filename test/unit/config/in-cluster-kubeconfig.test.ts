// The in-cluster kubeconfig must make client-node send the ServiceAccount token
// from the file, and read it again (kubelet rotates it).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestOptions } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import { buildInClusterKubeconfig, buildLeaderIdentity } from '../../../src/config/in-cluster-kubeconfig.ts';

describe('buildInClusterKubeconfig', () => {
  it('points at the service host and authenticates with the token file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warren-sa-'));
    try {
      writeFileSync(join(dir, 'token'), 'tok-1');
      writeFileSync(join(dir, 'ca.crt'), '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
      const kc = new KubeConfig();
      kc.loadFromString(buildInClusterKubeconfig({ KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' }, dir));
      assert.equal(kc.getCurrentCluster()?.server, 'https://10.96.0.1:443');
      assert.equal(kc.getCurrentCluster()?.caFile, join(dir, 'ca.crt'));
      const opts: RequestOptions = { headers: {} };
      await kc.applyToHTTPSOptions(opts);
      assert.equal((opts.headers as Record<string, string>).Authorization, 'Bearer tok-1');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('brackets an IPv6 service host', () => {
    assert.match(buildInClusterKubeconfig({ KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' }), /server: https:\/\/\[fd00::1\]:443/);
  });

  it('outside a pod, says so', () => {
    assert.throws(() => buildInClusterKubeconfig({}), /KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set/);
  });
});

describe('buildLeaderIdentity', () => {
  const table: [string, Record<string, string>, string][] = [
    ['explicit', { POD_NAME: 'p' }, 'explicit'],
    ['', { POD_NAME: 'warren-abc' }, 'warren-abc'],
    ['', {}, 'host_42'],
  ];
  for (const [configured, env, want] of table) {
    it(`${JSON.stringify(configured)} ${JSON.stringify(env)} → ${want}`, () => assert.equal(buildLeaderIdentity(configured, env, 'host', 42), want));
  }
});
