// 504 when the upstream stops answering: a second gateway reaches the upstream
// through a TCP relay that can go silent (accepts, never forwards a byte).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { startTcpRelay, viaRelay, type TcpRelay } from '../kube/tcp-relay.ts';
import { createUpstream } from '../../../src/kube/upstream-client.ts';
import { startGateway, type RunningGateway } from '../../../src/gateway/server.ts';
import { tenantUserKubeconfig } from '../../../src/tenants/credentials/issue-certificate.ts';
import { KubeHttp } from '../../helpers/kube-http.ts';

describe('gateway: a hung upstream', { timeout: 60_000 }, () => {
  let h: GatewayHarness;
  let relay: TcpRelay;
  let gateway: RunningGateway;
  let client: KubeHttp;

  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    relay = await startTcpRelay(Number(new URL(h.api.url).port));
    const upstream = createUpstream({ yaml: viaRelay(h.api.kubeconfig, h.api.url, relay.port) });
    gateway = await startGateway({ upstream, tenants: h.gateway.tenants, upstreamTimeoutMs: 1_000 });
    const cert = await h.issue(h.idOf('acme'), 'admin');
    client = new KubeHttp(tenantUserKubeconfig({ server: gateway.url, caCertPem: gateway.servingCaPem, tenantName: 'acme', user: 'admin', cert: cert.certPem, key: cert.keyPem }));
    assert.equal((await client.get('/api/v1/namespaces')).status, 200);
  });
  after(async () => {
    await gateway?.stop();
    await relay?.close();
    await h?.stop();
  });

  it('answers 504 Timeout in tenant terms, without the upstream address', async () => {
    relay.blackhole();
    // Fresh connections only: pooled ones still reach the upstream through the relay.
    relay.cut();
    relay.blackhole();
    const r = await client.get('/api/v1/namespaces/default/configmaps');
    assert.equal(r.status, 504, r.text);
    assert.equal(r.body.kind, 'Status');
    assert.equal(r.body.reason, 'Timeout');
    assert.doesNotMatch(r.text, /127\.0\.0\.1|acme01/);
  });
});
