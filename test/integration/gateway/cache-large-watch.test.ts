// Regression: an all-namespaces watch served from the shared cache starts with
// the tenant's current objects as ADDED events. With more than the slow-client
// buffer (1 MiB) of them, the watch used to be cut before the client could read:
// `kubectl get cm -A -w` on a busy tenant ended at once. The initial state and a
// replay are bounded and requested, so only the live feed is held to the limit.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';

const COUNT = 2_500; // about 2.5 MiB of events

describe('gateway: an all-namespaces watch with a large initial state', { timeout: 90_000 }, () => {
  let h: GatewayHarness;
  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    const id = h.idOf('acme');
    const api = h.api.api;
    const ns = api.lookup('', 'v1', 'namespaces')!;
    const cm = api.lookup('', 'v1', 'configmaps')!;
    api.create(ns, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${id}-big`, labels: { 'tenancy.warren.dev/tenant': id } } });
    for (let i = 0; i < COUNT; i++) {
      api.create(cm, `${id}-big`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { pad: 'x'.repeat(900) } });
    }
  });
  after(async () => { await h?.stop(); });

  it(`delivers all ${COUNT} ADDED events, then stays open for live ones`, async () => {
    const { res, req } = await h.http('acme', 'admin').open('GET', '/api/v1/configmaps?watch=true&timeoutSeconds=30', { timeoutMs: 30_000 });
    assert.equal(res.statusCode, 200);
    let buffer = '';
    let added = 0;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${added} ADDED events in 30 s`)), 30_000);
      res.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        let nl;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (line && (JSON.parse(line) as { type: string }).type === 'ADDED') added++;
        }
        if (added >= COUNT) {
          clearTimeout(timer);
          resolve();
        }
      });
      res.on('end', () => {
        clearTimeout(timer);
        if (added >= COUNT) resolve();
        else reject(new Error(`the watch ended after ${added} of ${COUNT} ADDED events`));
      });
    });
    assert.ok(!res.complete, 'the watch is still open after the initial state');
    req.destroy();
  });
});
