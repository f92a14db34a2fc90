// Fault: the upstream apiserver is killed (kill -9) and restarted on the same
// data dir, or the network to it drops, while Warren serves tenants.
//   - open tenant watches end cleanly (the client sees the end, never a reset
//     or a half event), so clients re-list;
//   - requests in flight get a 503/504 Status, not a socket reset;
//   - Warren's own informers come back (onboarding sees a Tenant created after
//     the restart), and every tenant object is where it was.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUpstream } from '../../src/kube/upstream-client.ts';
import type { Upstream } from '../../src/kube/upstream.ts';
import { startWarren, type RunningWarren } from '../../src/warren.ts';
import { startWarrenApiserver, type WarrenProcess } from '../helpers/warren-process.ts';
import { startFaultRelay, kubeconfigViaRelay, type FaultRelay } from '../helpers/fault-relay.ts';
import { onboardTenant, faultConfigMap } from '../helpers/fault-tenant.ts';
import type { KubeHttp } from '../helpers/kube-http.ts';
import { eventually } from '../helpers/poll.ts';

interface StreamEnd { how: 'end' | 'reset'; lines: string[] }

/** Opens a tenant watch and resolves when the stream finishes: 'end' = clean final chunk, 'reset' = cut. */
async function openWatch(http: KubeHttp, path: string): Promise<{ established: Promise<void>; done: Promise<StreamEnd> }> {
  const { res } = await http.open('GET', path);
  assert.equal(res.statusCode, 200);
  let text = '';
  let firstEvent!: () => void;
  const established = new Promise<void>((r) => { firstEvent = r; });
  const done = new Promise<StreamEnd>((resolve) => {
    let ended = false;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => { text += chunk; if (text.includes('\n')) firstEvent(); });
    res.on('end', () => { ended = true; });
    res.on('error', () => undefined);
    res.on('close', () => resolve({ how: ended ? 'end' : 'reset', lines: text.split('\n') }));
  });
  return { established, done };
}

describe('fault: upstream restart and dropped connections', { timeout: 150_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'warren-fault-upstream-'));
  let upstreamProc: WarrenProcess;
  let relay: FaultRelay;
  let admin: Upstream;
  let warren: RunningWarren;
  let acme: Awaited<ReturnType<typeof onboardTenant>>;
  const logs: string[] = [];

  before(async () => {
    upstreamProc = await startWarrenApiserver(join(dataDir, 'upstream'));
    relay = await startFaultRelay(upstreamProc.port);
    const yaml = kubeconfigViaRelay(upstreamProc.kubeconfig, relay.port);
    // Short deadline for the response head, so the hung-upstream case answers 504 in seconds.
    admin = createUpstream({ yaml });
    warren = await startWarren({ upstream: createUpstream({ yaml }), host: '127.0.0.1', port: 0, log: (l) => logs.push(l) });
    acme = await onboardTenant(admin, 'acme');
    assert.equal((await acme.http.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'app' } })).status, 201);
    for (let i = 0; i < 5; i++) {
      assert.equal((await acme.http.post('/api/v1/namespaces/app/configmaps', faultConfigMap(`cm-${i}`, { i: String(i) }))).status, 201);
    }
  });
  after(async () => {
    await warren?.stop().catch(() => undefined);
    admin?.close();
    await relay?.close();
    await upstreamProc?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a request the upstream never answers gets a 503 Status when the connection is reset', async () => {
    // Every pooled connection goes, new ones hang: a write (never served from a cache) is then stuck upstream.
    relay.cut();
    relay.blackhole();
    const pending = acme.http.post('/api/v1/namespaces/app/configmaps', faultConfigMap('stuck'));
    await new Promise((r) => setTimeout(r, 500));
    relay.cut();
    const res = await pending;
    relay.resume();
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.kind, 'Status');
    assert.equal(res.body.reason, 'ServiceUnavailable');
    assert.ok(res.headers['retry-after'], 'a 503 tells the client when to retry');
    assert.doesNotMatch(res.text, new RegExp(String(relay.port)), 'the upstream address is not shown');
  });

  it('open watches end cleanly when the upstream is killed, and requests meanwhile get 503', async () => {
    const watches = await Promise.all([
      openWatch(acme.http, '/api/v1/namespaces/app/configmaps?watch=1'),
      openWatch(acme.http, '/api/v1/configmaps?watch=1'),
      openWatch(acme.http, '/api/v1/namespaces?watch=1'),
    ]);
    await Promise.all(watches.map((w) => w.established));
    const port = upstreamProc.port;
    await upstreamProc.kill('SIGKILL');

    const ends = await Promise.race([
      Promise.all(watches.map((w) => w.done)),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('a tenant watch hung after the upstream died')), 15_000)),
    ]);
    for (const end of ends) {
      assert.equal(end.how, 'end', 'the client sees a clean end of the watch, not a reset');
      const events = end.lines.filter((l) => l.trim() !== '');
      for (const line of events) {
        const event = JSON.parse(line) as { type: string; object: { metadata?: { namespace?: string } } };
        const ns = event.object.metadata?.namespace;
        assert.ok(ns === undefined || !ns.startsWith(`${acme.id}-`), `a translated event: ${line.slice(0, 200)}`);
      }
      assert.ok(end.lines.at(-1) === '', 'the stream ends on an event boundary');
    }

    const down = await acme.http.get('/api/v1/namespaces/app/configmaps');
    assert.ok(down.status === 503 || down.status === 504, `${down.status} ${down.text}`);
    assert.equal(down.body.kind, 'Status');

    upstreamProc = await startWarrenApiserver(upstreamProc.dataDir, { port });
    const list = await eventually(async () => {
      const r = await acme.http.get('/api/v1/namespaces/app/configmaps?labelSelector=fault%3Dyes');
      return r.status === 200 ? r : undefined;
    }, 'the tenant to reach its objects after the restart', { timeoutMs: 20_000 });
    assert.deepEqual(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort(), ['cm-0', 'cm-1', 'cm-2', 'cm-3', 'cm-4']);
    // The client re-lists and watches again from the list's resourceVersion.
    const again = await openWatch(acme.http, `/api/v1/namespaces/app/configmaps?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`);
    assert.equal((await acme.http.post('/api/v1/namespaces/app/configmaps', faultConfigMap('after'))).status, 201);
    await again.established;
  });

  it("Warren's own informers resume after the restart: a Tenant created now is onboarded", async () => {
    const globex = await onboardTenant(admin, 'globex', {}, 40_000);
    // Ready is the onboarding controller's word; the gateway's RBAC informers, themselves resuming
    // after the restart, may take a moment more to hold globex's bindings (a 403 until then).
    await eventually(async () => (await globex.http.get('/api/v1/namespaces/default')).status === 200, 'globex served by the gateway', { timeoutMs: 15_000 });
    // acme's credential still works and nothing of it moved.
    assert.equal((await acme.http.get('/api/v1/namespaces/app/configmaps/cm-3')).body.data.i, '3');
  });
});
