// Event names through the gateway (session 13): an Event's name is not prefixed (events are namespaced; only
// the namespace is), so the tenant gets the answer the real apiserver gives for the same name: a core v1 Event
// of 300 characters is stored and read back as written, an events.k8s.io/v1 one over 253 is a 422 in tenant
// terms. Adversarial: the refusal names neither the upstream namespace nor the tenant prefix.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';

const NS = 'events-here';
const name300 = 'e'.repeat(300);

describe('gateway: Event names longer than a DNS subdomain', { timeout: 180_000 }, () => {
  let h: GatewayHarness;
  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    assert.equal((await h.http('acme', 'admin').post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status, 201);
  });
  after(async () => { await h?.stop(); });

  it('a 300-character core v1 Event is stored, read back and listed as written', async () => {
    const acme = h.http('acme', 'admin');
    const event = { apiVersion: 'v1', kind: 'Event', metadata: { name: name300 }, involvedObject: { kind: 'Pod', name: 'p', namespace: NS }, reason: 'R', message: 'm' };
    const created = await acme.post(`/api/v1/namespaces/${NS}/events`, event);
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.metadata.name, name300);
    assert.equal(created.body.metadata.namespace, NS);
    assert.equal(created.body.involvedObject.namespace, NS);
    const read = await acme.get(`/apis/events.k8s.io/v1/namespaces/${NS}/events/${name300}`);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.regarding.namespace, NS);
    const listed = await acme.get(`/api/v1/namespaces/${NS}/events`);
    assert.deepEqual((listed.body.items as Array<{ metadata: { name: string } }>).map((e) => e.metadata.name), [name300]);
    // Upstream it sits under the tenant's namespace with its name unchanged.
    const upstream = await h.upstreamHttp.get(`/api/v1/namespaces/${h.idOf('acme')}-${NS}/events/${name300}`);
    assert.equal(upstream.status, 200, upstream.text);
  });

  it('an events.k8s.io/v1 Event of 254 characters is refused as the real apiserver words it, with no prefix', async () => {
    const acme = h.http('acme', 'admin');
    const name = 'f'.repeat(254);
    const event = {
      apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name }, regarding: { kind: 'Pod', name: 'p', namespace: NS },
      eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'example.com/c', reportingInstance: 'i', action: 'A', reason: 'R', type: 'Normal',
    };
    const res = await acme.post(`/apis/events.k8s.io/v1/namespaces/${NS}/events`, event);
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.reason, 'Invalid');
    assert.equal(res.body.message, `Event "${name}" is invalid: metadata.name: Invalid value: "${name}": must be no more than 253 characters`);
    assert.ok(!res.text.includes(`${h.idOf('acme')}-`), `no upstream prefix in the refusal: ${res.text}`);
    assert.equal((await acme.get(`/api/v1/namespaces/${NS}/events/${name}`)).status, 404);
  });

  it('the other tenant sees none of it', async () => {
    const globex = h.http('globex', 'admin');
    assert.equal((await globex.get(`/api/v1/namespaces/${NS}/events/${name300}`)).status, 404);
  });
});
