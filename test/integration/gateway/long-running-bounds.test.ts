// One tenant cannot exhaust the gateway for everyone with watches or
// connections (ADR 0045; session 13's red team: 3,000 watches of globex were
// all accepted, the gateway grew 180 -> 375 MB and another tenant's GET took
// 5.9 s once). Real TLS, the whole chain, the embedded upstream. A hostile
// acme opens watches of several kinds (served by the shared cache and
// proxied upstream) up to its bound: the next gets 429 TooManyRequests with
// Retry-After in acme's terms, kubectl's too, and globex's GET, LIST and
// WATCH still answer. Then globex, allowed more watches than connections,
// opens watches beyond its connections: the excess get 429 and their
// connections are closed, and acme is served. What is asserted
// is the answer, never how fast it came.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { WatchReader } from '../../helpers/watch-reader.ts';
import { eventually } from '../../helpers/poll.ts';
import { kubectl } from '../../helpers/kubectl.ts';

const NS = 'bounds';
const LONG_RUNNING = 12;
const CONNECTIONS = 24;
/** globex's own override: more watches than connections, so its connections bind first. */
const GLOBEX_CONNECTIONS = 10;
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

/** What acme may watch: one namespace (shared cache), all namespaces, namespaces, and a Table watch (proxied). */
const WATCH_KINDS: Array<{ path: string; accept?: string }> = [
  { path: `/api/v1/namespaces/${NS}/configmaps?watch=1&timeoutSeconds=600` },
  { path: '/api/v1/configmaps?watch=1&timeoutSeconds=600' },
  { path: '/api/v1/namespaces?watch=1&timeoutSeconds=600' },
  { path: `/api/v1/namespaces/${NS}/secrets?watch=1&timeoutSeconds=600`, accept: TABLE },
];

describe('gateway: a tenant\'s watches and connections are bounded', { timeout: 180_000 }, () => {
  let h: GatewayHarness;
  const held: Array<{ req: { destroy(): void } }> = [];
  before(async () => {
    h = await startGatewayHarness({
      tenants: TWO_TENANTS,
      gateway: { fairness: { defaults: { longRunning: LONG_RUNNING, connections: CONNECTIONS }, tenants: { globx1: { longRunning: 100, connections: GLOBEX_CONNECTIONS } } } },
    });
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'calm' }, data: { a: 'b' } };
    for (const tenant of ['acme', 'globex']) {
      const admin = h.http(tenant, 'admin');
      assert.equal((await admin.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status, 201);
      assert.equal((await admin.post(`/api/v1/namespaces/${NS}/configmaps`, cm)).status, 201);
    }
  });
  after(async () => {
    for (const w of held) w.req.destroy();
    await h?.stop();
  });

  /** The tenant's GET, LIST and WATCH answer (not how fast: no timed assertion). */
  async function stillAnswers(tenant: string): Promise<void> {
    const client = h.http(tenant, 'admin');
    assert.equal((await client.get(`/api/v1/namespaces/${NS}/configmaps/calm`)).status, 200, `${tenant} GET`);
    const list = await client.get(`/api/v1/namespaces/${NS}/configmaps`);
    assert.equal(list.status, 200, `${tenant} LIST`);
    assert.ok(list.body.items.some((i: { metadata: { name: string } }) => i.metadata.name === 'calm'));
    const watch = await WatchReader.open(client, `/api/v1/namespaces/${NS}/configmaps?watch=1`);
    try {
      assert.equal(watch.status, 200, `${tenant} WATCH`);
      const first = await watch.next(30_000);
      assert.equal(first?.type, 'ADDED');
    } finally {
      watch.close();
    }
  }

  it('the watch beyond acme\'s bound gets 429 with Retry-After, whatever its kind; globex is served', async () => {
    const acme = h.http('acme', 'admin');
    const opened = await Promise.all(Array.from({ length: LONG_RUNNING + 4 }, (_, i) => {
      const kind = WATCH_KINDS[i % WATCH_KINDS.length] as { path: string; accept?: string };
      return acme.open('GET', kind.path, { timeoutMs: 60_000, ...(kind.accept ? { headers: { Accept: kind.accept } } : {}) });
    }));
    const ok = opened.filter((w) => w.res.statusCode === 200);
    held.push(...opened);
    const refused = opened.filter((w) => w.res.statusCode !== 200);
    assert.equal(ok.length, LONG_RUNNING, 'acme holds exactly its bound');
    assert.equal(refused.length, 4);
    for (const r of refused) {
      assert.equal(r.res.statusCode, 429);
      assert.equal(r.res.headers['retry-after'], '1');
      const status = JSON.parse(await text(r.res)) as { reason: string; message: string; details?: { retryAfterSeconds?: number } };
      assert.equal(status.reason, 'TooManyRequests');
      assert.equal(status.details?.retryAfterSeconds, 1);
      assert.match(status.message, new RegExp(`already has ${LONG_RUNNING} watches and other long-running requests`));
      assert.doesNotMatch(status.message, /acme01-|globx1/);
    }
    await stillAnswers('globex');

    // kubectl's watch meets the same bound (client-go retries a 429 as Retry-After says, then gives up).
    const k = await kubectl('1.32', ['get', 'configmaps', '-n', NS, '-w', '--request-timeout=60s'], { kubeconfigPath: h.kubeconfigPath('acme', 'admin'), timeoutMs: 90_000 });
    assert.notEqual(k.code, 0);
    assert.match(k.stderr, /Too many requests.*watches and other long-running requests/);
    assert.doesNotMatch(k.stderr, /acme01-/);

    // A closed watch gives its slot back: acme may watch again.
    for (const w of ok.splice(0, 1)) w.req.destroy();
    await eventually(async () => {
      const again = await acme.open('GET', `/api/v1/namespaces/${NS}/configmaps?watch=1&timeoutSeconds=600`);
      held.push(again);
      return again.res.statusCode === 200;
    }, 'acme\'s watch once one of its watches closed', { timeoutMs: 20_000, intervalMs: 100 });
  });

  it('the connection beyond globex\'s bound gets 429 and is closed; acme is served', async () => {
    // globex may hold more watches than connections (its override): its watches, each on a connection of its
    // own that stays open, meet the connection bound first, exactly.
    for (const w of held.splice(0)) w.req.destroy();
    const globex = h.http('globex', 'admin');
    const opened = await Promise.all(Array.from({ length: GLOBEX_CONNECTIONS + 4 }, () =>
      globex.open('GET', `/api/v1/namespaces/${NS}/configmaps?watch=1&timeoutSeconds=600`, { timeoutMs: 60_000 })));
    held.push(...opened);
    const refused = opened.filter((w) => w.res.statusCode !== 200);
    assert.equal(opened.length - refused.length, GLOBEX_CONNECTIONS, 'globex holds exactly its bound');
    assert.equal(refused.length, 4);
    for (const r of refused) {
      assert.equal(r.res.statusCode, 429);
      assert.equal(r.res.headers['retry-after'], '1');
      assert.equal(r.res.headers.connection, 'close');
      const status = JSON.parse(await text(r.res)) as { reason: string; message: string };
      assert.equal(status.reason, 'TooManyRequests');
      assert.match(status.message, new RegExp(`already has ${GLOBEX_CONNECTIONS} connections open`));
      assert.doesNotMatch(status.message, /globx1-|acme01/);
    }
    await stillAnswers('acme');
  });
});

async function text(res: AsyncIterable<unknown>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
