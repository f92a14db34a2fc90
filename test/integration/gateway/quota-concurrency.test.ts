// The count quota under concurrency (issue 18, ADR 0031): 64 creates sent at
// once against a limit never store more than the limit, spread over several
// namespaces and two kinds at the same time; every refusal is kube's 403
// "exceeded quota" in the tenant's terms. Adversarial: another tenant creating
// at the same time neither takes nor frees any of the first tenant's slots.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import type { HttpResult } from '../../helpers/kube-http.ts';

const TENANT_LABEL = 'tenancy.warren.dev/tenant';
const ns = (name: string): object => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const cm = (name: string): object => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } });
const secret = (name: string): object => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: { a: 'b' } });
const NAMESPACES = ['burst-a', 'burst-b', 'burst-c', 'burst-d'];

describe('gateway: count quota under concurrency', { timeout: 180_000 }, () => {
  let h: GatewayHarness;
  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    for (const tenant of ['acme', 'globex']) {
      for (const name of NAMESPACES) assert.equal((await h.http(tenant, 'admin').post('/api/v1/namespaces', ns(name))).status, 201);
    }
  });
  after(async () => { await h?.stop(); });

  /** The tenant's objects of a resource as the quota counts them: its label, in its namespaces (upstream, as the platform sees it). */
  async function stored(tenant: string, resource: string): Promise<number> {
    const id = h.idOf(tenant);
    const list = await h.upstreamHttp.get(`/api/v1/${resource}?labelSelector=${encodeURIComponent(`${TENANT_LABEL}=${id}`)}`);
    assert.equal(list.status, 200, list.text);
    return (list.body.items as Array<{ metadata: { namespace?: string } }>).filter((o) => o.metadata.namespace?.startsWith(`${id}-`)).length;
  }

  function assertRefusals(results: HttpResult[], resource: string, limit: number, id: string): void {
    for (const r of results.filter((x) => x.status !== 201)) {
      assert.equal(r.status, 403, r.text);
      assert.equal(r.body.kind, 'Status');
      assert.equal(r.body.reason, 'Forbidden');
      assert.equal(r.body.message, `${resource} is forbidden: exceeded quota: tenant-quota, requested: count/${resource}=1, used: count/${resource}=${limit}, limited: count/${resource}=${limit}`);
      assert.ok(!r.text.includes(`${id}-`), `no upstream prefix in the refusal: ${r.text}`);
    }
  }

  it('64 parallel ConfigMap and 64 parallel Secret creates over four namespaces fill the limit exactly, never past it; another tenant\'s burst changes nothing', async () => {
    // A burst this size can meet the gateway's fairness limit on a loaded machine: a 429 with
    // Retry-After is retried, as kubectl and client-go do; only the quota's answers count.
    const retrying = (client: ReturnType<typeof h.http>): { post(path: string, body: object): Promise<HttpResult>; delete(path: string): Promise<HttpResult> } => ({
      delete: (path) => client.delete(path),
      async post(path, body) {
        for (;;) {
          const r = await client.post(path, body);
          if (r.status !== 429) return r;
          await new Promise((resolve) => setTimeout(resolve, 1000 * Math.min(Number(r.headers['retry-after'] ?? 1) || 1, 5)));
        }
      },
    });
    const acme = retrying(h.http('acme', 'admin'));
    const globex = retrying(h.http('globex', 'admin'));
    const cmsBefore = await stored('acme', 'configmaps');
    const secretsBefore = await stored('acme', 'secrets');
    const limit = Math.max(cmsBefore, secretsBefore) + 10;
    await h.patchTenant('acme', { spec: { quota: { objectsPerResource: limit } } }, (info) => info?.quota?.objectsPerResource === limit);
    const globexBefore = await stored('globex', 'configmaps');

    const path = (resource: string, i: number): string => `/api/v1/namespaces/${NAMESPACES[i % NAMESPACES.length]}/${resource}`;
    const [cms, secrets, others] = await Promise.all([
      Promise.all(Array.from({ length: 64 }, (_, i) => acme.post(path('configmaps', i), cm(`c-${i}`)))),
      Promise.all(Array.from({ length: 64 }, (_, i) => acme.post(path('secrets', i), secret(`s-${i}`)))),
      // The other tenant has no quota: all of its creates pass, and none of them counts for acme.
      Promise.all(Array.from({ length: 32 }, (_, i) => globex.post(path('configmaps', i), cm(`c-${i}`)))),
    ]);

    assert.equal(cms.filter((r) => r.status === 201).length, limit - cmsBefore, 'ConfigMaps admitted: exactly the free slots');
    assert.equal(secrets.filter((r) => r.status === 201).length, limit - secretsBefore, 'Secrets admitted: exactly the free slots');
    assert.equal(await stored('acme', 'configmaps'), limit, 'stored ConfigMaps: the limit, not one more');
    assert.equal(await stored('acme', 'secrets'), limit, 'stored Secrets: the limit, not one more');
    assertRefusals(cms, 'configmaps', limit, h.idOf('acme'));
    assertRefusals(secrets, 'secrets', limit, h.idOf('acme'));
    assert.ok(others.every((r) => r.status === 201), 'globex is not limited by acme\'s quota');
    assert.equal(await stored('globex', 'configmaps'), globexBefore + 32);

    // Full stays full: one more, in a namespace not used above, is refused too.
    assert.equal((await acme.post('/api/v1/namespaces/burst-a/configmaps', cm('one-more'))).status, 403);
    // A delete frees exactly one slot, even with 16 creates racing for it.
    assert.equal((await acme.delete('/api/v1/namespaces/burst-b/configmaps/c-1')).status, 200);
    const race = await Promise.all(Array.from({ length: 16 }, (_, i) => acme.post(path('configmaps', i), cm(`r-${i}`))));
    assert.equal(race.filter((r) => r.status === 201).length, 1, 'one freed slot, one create');
    assert.equal(await stored('acme', 'configmaps'), limit);
  });

  it('16 parallel namespace creates against spec.quota.namespaces admit exactly the free slots', async () => {
    const acme = h.http('acme', 'admin');
    const existing = (await acme.get('/api/v1/namespaces')).body.items.length as number;
    const limit = existing + 3;
    await h.patchTenant('acme', { spec: { quota: { namespaces: limit } } }, (info) => info?.quota?.namespaces === limit);
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => acme.post('/api/v1/namespaces', ns(`many-${i}`))));
    assert.equal(results.filter((r) => r.status === 201).length, 3);
    assertRefusals(results, 'namespaces', limit, h.idOf('acme'));
    assert.equal((await acme.get('/api/v1/namespaces')).body.items.length, limit);
  });
});
