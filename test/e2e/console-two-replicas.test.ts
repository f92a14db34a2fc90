// Two replicas of `warren serve --leader-elect` (two processes) on one
// upstream: only one runs the controllers, but both gateways serve the console
// and its live stream to a platform admin. A Tenant created upstream shows on
// the NON-leader's stream, and so does what only the leader writes (the
// onboarding controller making it Ready): the console follows the upstream,
// not its own process's controllers.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type RunningApiServer } from '../../src/apiserver/server.ts';
import { createUpstream } from '../../src/kube/upstream-client.ts';
import type { Upstream } from '../../src/kube/upstream.ts';
import { loadGatewaySecrets } from '../../src/tenants/platform-secrets.ts';
import { mintPlatformAdminToken } from '../../src/gateway/portal/platform-admin.ts';
import { parseEvents } from '../../src/console/view/event-stream.ts';
import type { ConsoleState } from '../../src/console/view/console-types.ts';
import { applyDelta, type ConsoleDelta } from '../../src/console/view/state-delta.ts';
import { freePort } from '../helpers/warren-process.ts';
import { startWarrenServe, type WarrenServeProcess } from '../helpers/fault-warren-serve.ts';
import { gatewayGet } from '../helpers/gateway-https.ts';
import { tenantManifest } from '../helpers/fault-tenant.ts';
import { eventually } from '../helpers/poll.ts';

const LEASE = '/apis/coordination.k8s.io/v1/namespaces/warren-system/leases/warren-controllers';

interface LiveStream { state(): ConsoleState | undefined; events: string[]; close(): void }

/** Follows /console/api/live over HTTPS: the whole state, then each delta applied to it. */
function follow(url: string, ca: string, token: string): Promise<LiveStream> {
  return new Promise((resolve, reject) => {
    let state: ConsoleState | undefined;
    const events: string[] = [];
    let buffer = '';
    const req = request(url, { ca, headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`live stream: ${String(res.statusCode)}`));
        res.resume();
        return;
      }
      res.on('data', (d) => {
        const parsed = parseEvents(buffer + String(d));
        buffer = parsed.rest;
        for (const e of parsed.events) {
          events.push(e.event);
          if (e.event === 'state') state = JSON.parse(e.data) as ConsoleState;
          else if (e.event === 'delta' && state) state = applyDelta(state, JSON.parse(e.data) as ConsoleDelta);
        }
      });
      res.on('error', () => undefined);
      resolve({ state: () => state, events, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the console on two replicas of warren serve --leader-elect', { timeout: 300_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'warren-console-replicas-'));
  let host: RunningApiServer;
  let admin: Upstream;
  const replicas: Record<string, WarrenServeProcess> = {};

  before(async () => {
    host = await startApiServer({ port: 0 });
    const kubeconfig = join(root, 'host.kubeconfig');
    writeFileSync(kubeconfig, host.kubeconfig);
    admin = createUpstream({ yaml: host.kubeconfig });
    // One after the other: the first installs the CRDs; two cold starts at once only cost CI's two cores.
    for (const id of ['replica-a', 'replica-b']) {
      replicas[id] = await startWarrenServe(kubeconfig, await freePort(), { args: ['--leader-elect', '--leader-election-identity', id] });
    }
  });
  after(async () => {
    for (const r of Object.values(replicas)) await r.kill();
    admin?.close();
    await host?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves the console and its live stream on both; the non-leader\'s stream shows a change the leader makes', async () => {
    const leader = await eventually(async () => {
      const r = await admin.request<{ spec?: { holderIdentity?: string } }>('GET', LEASE);
      const holder = r.status === 200 ? r.body.spec?.holderIdentity : undefined;
      return holder && holder in replicas ? holder : undefined;
    }, 'a leader', { timeoutMs: 60_000 });
    const follower = Object.keys(replicas).find((id) => id !== leader) ?? '';
    assert.ok(replicas[follower], 'the other replica is the follower');

    const secrets = await loadGatewaySecrets(admin);
    const ca = secrets.servingCa.certPem;
    const token = await mintPlatformAdminToken(secrets.signingKeys, 'replica-test', 600);
    for (const id of Object.keys(replicas)) {
      const base = `https://127.0.0.1:${String(replicas[id]!.port)}`;
      const page = await gatewayGet(`${base}/console/`, { ca, token });
      assert.equal(page.status, 200, `${id}: /console/`);
      assert.match(page.body, /Warren console/);
      const state = await gatewayGet(`${base}/console/api/state`, { ca, token });
      assert.equal(state.status, 200, `${id}: /console/api/state ${state.body}`);
      // One signing key set for both: a token is good on either replica, and a forged one on neither.
      assert.equal((await gatewayGet(`${base}/console/api/state`, { ca, token: `${token.slice(0, -4)}AAAA` })).status, 401, `${id}: forged token`);
    }

    const base = `https://127.0.0.1:${String(replicas[follower]!.port)}`;
    const stream = await follow(`${base}/console/api/live`, ca, token);
    try {
      await eventually(async () => stream.state() !== undefined, 'the first state on the follower');
      assert.equal(stream.events[0], 'state');
      assert.equal(stream.state()?.tenants.some((t) => t.name === 'initech'), false);
      const created = await admin.request('POST', '/apis/tenancy.warren.dev/v1alpha1/tenants', tenantManifest('initech'));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      // Ready is written only by the onboarding controller, which runs on the leader alone.
      await eventually(async () => stream.state()?.tenants.find((t) => t.name === 'initech')?.phase === 'Ready', 'initech Ready on the follower\'s stream', { timeoutMs: 90_000 });
      assert.ok(stream.events.slice(1).every((e) => e === 'delta'), `after the state, deltas only: ${stream.events.join(',')}`);
      assert.ok(stream.events.length >= 2);
    } finally {
      stream.close();
    }
  });
});
