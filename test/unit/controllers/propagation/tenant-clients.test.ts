import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Upstream } from '../../../../src/kube/upstream.ts';
import type { Cluster } from '../../../../src/core/propagation/karmada-types.ts';
import type { EngineContext } from '../../../../src/controllers/propagation/engine-context.ts';
import type { MemberPool } from '../../../../src/controllers/propagation/member-pool.ts';
import type { EventRecorder } from '../../../../src/controllers/runtime/event-recorder.ts';
import { createTenantClients } from '../../../../src/controllers/propagation/tenant-clients.ts';

/** A server that answers only when told, so the order in which requests reach it shows whose turn it was. */
function heldServer(name: string, order: string[]): { upstream: Upstream; releaseAll(): void } {
  const waiting: Array<() => void> = [];
  return {
    upstream: {
      server: `https://${name}`,
      requestOptions: () => ({}),
      request: (_method, path) => {
        order.push(`${name}${path}`);
        return new Promise((resolve) => waiting.push(() => resolve({ status: 200, headers: {}, body: {} as never })));
      },
      stream: async () => undefined as never,
      close: () => undefined,
    },
    releaseAll: () => { while (waiting.length > 0) waiting.shift()?.(); },
  };
}

/** Lets every pending request advance until the servers have nothing new to answer. */
async function drain(servers: Array<{ releaseAll(): void }>): Promise<void> {
  for (let i = 0; i < 50; i++) {
    for (const s of servers) s.releaseAll();
    await new Promise((r) => setImmediate(r));
  }
}

const cluster = { metadata: { name: 'm1' }, spec: {} } as unknown as Cluster;

describe('tenant-bound engine clients (no AsyncLocalStorage)', () => {
  it('a bound context takes its tenant\'s turn at the host and at each member, one slot each', async () => {
    const order: string[] = [];
    const host = heldServer('host', order);
    const member = heldServer('m1', order);
    const recorders: Upstream[] = [];
    const clients = createTenantClients({
      host: host.upstream,
      connect: () => member.upstream,
      hostInFlight: 1,
      memberInFlight: 1,
      events: (up) => { recorders.push(up); return { record: () => undefined } as unknown as EventRecorder; },
    });
    const engineMember = clients.connect(cluster, undefined);
    const pool = { client: async () => engineMember } as unknown as MemberPool;
    const ctx = { upstream: clients.host, members: pool } as unknown as EngineContext;
    const acme = clients.bind(ctx, 'acme');
    const globex = clients.bind(ctx, 'globex');
    const acmeMember = await acme.members.client(cluster);
    const globexMember = await globex.members.client(cluster);
    assert.ok(acmeMember && globexMember);

    // The engine's own request holds the only slot; acme queues three, then globex one.
    const all = [clients.host.request('GET', '/own'), engineMember.request('GET', '/own')];
    for (const i of [1, 2, 3]) all.push(acme.upstream.request('GET', `/a${i}`), acmeMember.request('GET', `/a${i}`));
    all.push(globex.upstream.request('GET', '/g1'), globexMember.request('GET', '/g1'));
    await drain([host, member]);
    await Promise.all(all);
    // Turns go tenant by tenant: globex's one request does not wait behind acme's backlog.
    assert.deepEqual(order.filter((o) => o.startsWith('host')), ['host/own', 'host/a1', 'host/g1', 'host/a2', 'host/a3']);
    assert.deepEqual(order.filter((o) => o.startsWith('m1')), ['m1/own', 'm1/a1', 'm1/g1', 'm1/a2', 'm1/a3']);
  });

  it('gives each tenant one Event recorder, over a host client in that tenant\'s line', () => {
    const made: Upstream[] = [];
    const clients = createTenantClients({
      host: heldServer('host', []).upstream,
      connect: () => heldServer('m1', []).upstream,
      hostInFlight: 1,
      memberInFlight: 1,
      events: (up) => { made.push(up); return { record: () => undefined } as unknown as EventRecorder; },
    });
    const ctx = { upstream: clients.host, members: { client: async () => undefined } } as unknown as EngineContext;
    const a1 = clients.bind(ctx, 'acme');
    const a2 = clients.bind(ctx, 'acme');
    const g = clients.bind(ctx, 'globex');
    assert.equal(a1.events, a2.events);
    assert.notEqual(a1.events, g.events);
    assert.equal(made.length, 2);
    assert.equal(a1.upstream, a2.upstream, 'one client per tenant, made once');
    assert.notEqual(a1.upstream, clients.host);
  });
});
