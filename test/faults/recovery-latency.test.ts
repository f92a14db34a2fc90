// Regression (issue 6, `npm run bench -- recovery`): after an upstream kill -9
// and restart, tenant re-LISTs once waited ~30 s somewhere in the gateway
// before succeeding. This checks the ORDER of events, never milliseconds:
// once the restarted upstream answers a direct LIST, a LIST through the gateway
// succeeds on its first or second attempt (a 504 would mean it sat out a
// deadline), for a one-namespace read (proxied) and an all-namespaces read (the
// shared cache), and a WATCH from that list's resourceVersion opens and sees a
// new object. Many watches are open at the kill, as in the bench.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUpstream } from '../../src/kube/upstream-client.ts';
import type { Upstream } from '../../src/kube/upstream.ts';
import { startWarren, type RunningWarren } from '../../src/warren.ts';
import { startWarrenApiserver, type WarrenProcess } from '../helpers/warren-process.ts';
import { onboardTenant, faultConfigMap } from '../helpers/fault-tenant.ts';
import type { KubeHttp } from '../helpers/kube-http.ts';

const WATCHES = 20;

/** Resolves once the stream closes, however it closes. */
function closed(res: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    res.on('data', () => undefined);
    res.on('error', () => undefined);
    res.on('close', () => resolve());
  });
}

/** GET once; the answer's status (0 when no answer came at all). */
async function attempt(http: KubeHttp, path: string): Promise<{ status: number; rv: string }> {
  const r = await http.get(path).catch(() => ({ status: 0, body: undefined as unknown }));
  const rv = (r.body as { metadata?: { resourceVersion?: string } } | undefined)?.metadata?.resourceVersion ?? '';
  return { status: r.status, rv };
}

describe('fault: recovery latency after an upstream restart', { timeout: 180_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'warren-fault-recovery-'));
  let upstreamProc: WarrenProcess;
  let admin: Upstream;
  let warren: RunningWarren;
  let acme: Awaited<ReturnType<typeof onboardTenant>>;

  before(async () => {
    upstreamProc = await startWarrenApiserver(join(dataDir, 'upstream'));
    admin = createUpstream({ yaml: upstreamProc.kubeconfig });
    warren = await startWarren({ upstream: createUpstream({ yaml: upstreamProc.kubeconfig }), host: '127.0.0.1', port: 0, log: () => undefined });
    acme = await onboardTenant(admin, 'acme');
    assert.equal((await acme.http.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'app' } })).status, 201);
    for (let i = 0; i < 3; i++) assert.equal((await acme.http.post('/api/v1/namespaces/app/configmaps', faultConfigMap(`cm-${i}`))).status, 201);
  });
  after(async () => {
    await warren?.stop().catch(() => undefined);
    admin?.close();
    await upstreamProc?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('once a direct LIST to the restarted upstream succeeds, gateway LISTs succeed at once and re-WATCH works', async () => {
    const paths = ['/api/v1/namespaces/app/configmaps', '/api/v1/configmaps'];
    const streams: IncomingMessage[] = [];
    for (let i = 0; i < WATCHES; i++) {
      const { res } = await acme.http.open('GET', `${paths[i % 2]!}?watch=1`);
      assert.equal(res.statusCode, 200);
      streams.push(res);
    }
    const allClosed = Promise.all(streams.map(closed));
    const port = upstreamProc.port;
    await upstreamProc.kill('SIGKILL');
    await allClosed; // every tenant watch ends (the test timeout bounds this)

    // While it is away, reads fail (they must not succeed from a stale view, nor hang: the test timeout bounds it).
    const down = await attempt(acme.http, paths[0]!);
    assert.notEqual(down.status, 200);

    upstreamProc = await startWarrenApiserver(upstreamProc.dataDir, { port });
    const direct = await upstreamProc.http.get(`/api/v1/namespaces/${acme.id}-app/configmaps`);
    assert.equal(direct.status, 200, 'the restarted upstream answers a direct LIST');

    for (const path of paths) {
      const statuses: number[] = [];
      let ok: { status: number; rv: string } | undefined;
      for (let i = 0; i < 2 && !ok; i++) {
        const r = await attempt(acme.http, path);
        statuses.push(r.status);
        if (r.status === 200) ok = r;
      }
      assert.ok(ok, `${path}: a LIST through the gateway succeeds on the first or second attempt after the upstream is back (got ${statuses.join(', ')})`);
      assert.ok(!statuses.includes(504), `${path}: no attempt sat out a deadline (got ${statuses.join(', ')})`);

      // The reflector's next step: WATCH from the list's resourceVersion, and see what happens next.
      const { res } = await acme.http.open('GET', `${path}?watch=1&resourceVersion=${ok.rv}`);
      assert.equal(res.statusCode, 200, `${path}: the re-WATCH is answered 200`);
      const name = `after-${path.length}`;
      const seen = new Promise<void>((resolve) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => { text += chunk; if (text.includes(`"${name}"`)) resolve(); });
        res.on('error', () => undefined);
      });
      assert.equal((await acme.http.post('/api/v1/namespaces/app/configmaps', faultConfigMap(name))).status, 201);
      await seen;
      res.destroy();
    }
  });
});
