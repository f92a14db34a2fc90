// Faults of a real upstream under `warren serve` (Kubernetes 1.20 with its
// controller-manager): the kube-apiserver restarted under open tenant watches,
// and etcd restarted under the apiserver.
//   - open tenant watches end cleanly (a clean end on an event boundary, never
//     a reset, every event in tenant terms), so clients re-list;
//   - a client resuming from the last resourceVersion it saw either gets the
//     events it missed or kube's own answer that it is too old (410 Expired,
//     as a Status), never another tenant's or a prefixed object;
//   - after re-listing, watches see new events; nothing of the tenant moved;
//   - Warren's own informers come back: a Tenant applied after the fault is onboarded.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeHttp } from '../helpers/kube-http.ts';
import { eventually } from '../helpers/poll.ts';
import { realKubeSkipReason, startRealWarren, type RealWarren } from '../helpers/real-warren.ts';

interface StreamEnd { how: 'end' | 'reset'; lines: string[] }
interface Opened { established: Promise<void>; done: Promise<StreamEnd> }

/** Opens a tenant watch and resolves `done` when the stream finishes: 'end' = clean final chunk, 'reset' = cut. */
async function openWatch(http: KubeHttp, path: string): Promise<Opened> {
  const { res } = await http.open('GET', path);
  assert.equal(res.statusCode, 200, `watch ${path}`);
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

const configMap = (name: string): object => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { fault: 'yes' } }, data: { name } });

const skip = realKubeSkipReason();

describe('faults of a real upstream under warren serve', { timeout: 600_000, ...(skip ? { skip } : {}) }, () => {
  let w: RealWarren;
  let acme: KubeHttp;
  let acmeId = '';

  /** Every event line of an ended watch is whole JSON in tenant terms; returns the last resourceVersion seen. */
  function checkEnded(end: StreamEnd): string {
    assert.equal(end.how, 'end', 'the client sees a clean end of the watch, not a reset');
    assert.equal(end.lines.at(-1), '', 'the stream ends on an event boundary');
    let rv = '';
    for (const line of end.lines.filter((l) => l.trim() !== '')) {
      const event = JSON.parse(line) as { type: string; object: { metadata?: { namespace?: string; name?: string; resourceVersion?: string } } };
      assert.doesNotMatch(line, new RegExp(`${acmeId}-`), `an event in tenant terms: ${line.slice(0, 200)}`);
      if (event.type !== 'ERROR') rv = event.object.metadata?.resourceVersion ?? rv;
    }
    return rv;
  }
  async function relistAndWatch(name: string): Promise<void> {
    const list = await eventually(async () => {
      const r = await acme.get('/api/v1/namespaces/app/configmaps?labelSelector=fault%3Dyes');
      return r.status === 200 ? r : undefined;
    }, 'the tenant to reach its objects again', { timeoutMs: 60_000 });
    const rv = String(list.body.metadata.resourceVersion);
    const { res } = await acme.open('GET', `/api/v1/namespaces/app/configmaps?watch=1&resourceVersion=${rv}`);
    assert.equal(res.statusCode, 200);
    let text = '';
    const seen = new Promise<string>((resolve, reject) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; if (text.includes(`"name":"${name}"`)) resolve(text); });
      res.on('close', () => reject(new Error(`watch closed before ${name}: ${text.slice(0, 500)}`)));
    });
    const created = await acme.post('/api/v1/namespaces/app/configmaps', configMap(name));
    assert.equal(created.status, 201, created.text);
    const events = await seen;
    res.destroy();
    const added = events.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string; namespace: string } } }).find((e) => e.object.metadata.name === name);
    assert.equal(added?.type, 'ADDED');
    assert.equal(added?.object.metadata.namespace, 'app');
  }

  before(async () => {
    w = await startRealWarren();
    acmeId = await w.tenantId('acme');
    acme = new KubeHttp(readFileSync(await w.kubeconfigOf('acme'), 'utf8'));
    assert.equal((await acme.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'app' } })).status, 201);
    for (let i = 0; i < 3; i++) assert.equal((await acme.post('/api/v1/namespaces/app/configmaps', configMap(`cm-${i}`))).status, 201);
  });
  after(async () => { await w?.stop(); });

  it('the apiserver restarted: open tenant watches end cleanly, resuming is kube\'s answer in tenant terms, re-listing works', async () => {
    const watches = await Promise.all([
      openWatch(acme, '/api/v1/namespaces/app/configmaps?watch=1'),
      openWatch(acme, '/api/v1/configmaps?watch=1'),
      openWatch(acme, '/api/v1/namespaces?watch=1'),
    ]);
    await Promise.all(watches.map((x) => x.established));
    const restarted = w.host.restartApiserver();
    const ends = await Promise.race([
      Promise.all(watches.map((x) => x.done)),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('a tenant watch hung after the apiserver stopped')), 60_000)),
    ]);
    const lastRv = ends.map(checkEnded)[0] ?? '';
    await restarted;
    assert.ok(lastRv, 'the namespaced watch saw its objects before the restart');

    // Resuming from the last resourceVersion seen: the events since, or 410 Expired (the restarted watch cache starts later).
    const resumed = await eventually(async () => {
      const r = await acme.get(`/api/v1/namespaces/app/configmaps?watch=1&resourceVersion=${lastRv}&timeoutSeconds=2`);
      return r.status === 200 || r.status === 410 ? r : undefined;
    }, 'a resumed watch answered', { timeoutMs: 60_000 });
    assert.doesNotMatch(resumed.text, new RegExp(`${acmeId}-`), resumed.text);
    for (const line of resumed.text.split('\n').filter(Boolean)) {
      const e = JSON.parse(line) as { type: string; object: { kind?: string; code?: number; reason?: string; metadata?: { namespace?: string } } };
      if (e.type === 'ERROR') assert.deepEqual([e.object.kind, e.object.code, e.object.reason], ['Status', 410, 'Expired']);
      else assert.equal(e.object.metadata?.namespace, 'app');
    }
    await relistAndWatch('after-apiserver');
  });

  it('etcd restarted under the apiserver: the tenant\'s objects are all there and writes and watches work again', async () => {
    await w.host.restartEtcd();
    await relistAndWatch('after-etcd');
    const list = await acme.get('/api/v1/namespaces/app/configmaps?labelSelector=fault%3Dyes');
    assert.deepEqual(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort(), ['after-apiserver', 'after-etcd', 'cm-0', 'cm-1', 'cm-2']);
  });

  it('Warren\'s own informers came back: a Tenant applied after both faults is onboarded and served', async () => {
    const file = join(w.dir, 'initech.yaml');
    writeFileSync(file, 'apiVersion: tenancy.warren.dev/v1alpha1\nkind: Tenant\nmetadata: { name: initech }\nspec:\n  users: [{ name: peter, admin: true }]\n');
    const applied = await w.warren(['apply', '-f', file, '--wait', '--timeout', '120'], 150_000);
    assert.equal(applied.code, 0, applied.stderr + applied.stdout);
    const initech = new KubeHttp(readFileSync(await w.kubeconfigOf('initech'), 'utf8'));
    await eventually(async () => (await initech.get('/api/v1/namespaces/default')).status === 200, 'initech served by the gateway', { timeoutMs: 60_000 });
    assert.equal((await acme.get('/api/v1/namespaces/app/configmaps/cm-1')).body.data.name, 'cm-1', 'acme\'s credential still works');
  });
});
