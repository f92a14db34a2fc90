// The clients a reconcile gets, bound to its tenant: each request it makes to
// the host or to a member waits in that tenant's line of the server's fair
// gate (fair-gate.ts, ADR 16), and its Events are written the same way.
// The tenant used to be carried through every await by an AsyncLocalStorage
// scope. On Node 20 the first AsyncLocalStorage.run() turns on promise hooks
// for the whole process, for good; `warren serve` runs the gateway in the same
// process, so every promise of every tenant request paid for the engine's
// bookkeeping (issue 18: a GET through the gateway cost ~0.7 ms more).
import type { Upstream } from '../../kube/upstream.ts';
import type { EventRecorder } from '../runtime/event-recorder.ts';
import { createFairGate, type FairGate } from '../runtime/fair-gate.ts';
import { fairUpstream } from '../runtime/fair-upstream.ts';
import type { EngineContext } from './engine-context.ts';
import type { ConnectMember, MemberPool } from './member-pool.ts';

/** The engine's own key in the gates: informers' first lists, purges, anything outside a reconcile. */
const ENGINE_KEY = '';

export interface TenantClientsOptions {
  host: Upstream;
  connect: ConnectMember;
  hostInFlight: number;
  memberInFlight: number;
  /** The engine's Event recorder over a given host client (one per tenant, made on first use). */
  events: (host: Upstream) => EventRecorder;
}

export interface TenantClients {
  /** The host client for the engine's own work. */
  host: Upstream;
  /** Member clients for the pool: the engine's own key, each member with its own gate. */
  connect: ConnectMember;
  /** The engine's context with its host client, member clients and Events bound to `tenant`. */
  bind(ctx: EngineContext, tenant: string): EngineContext;
}

/** One gate per server; a client per key over it, made once. */
function keyedClients(raw: Upstream, gate: FairGate): (key: string) => Upstream {
  const byKey = new Map<string, Upstream>();
  return (key) => {
    let client = byKey.get(key);
    if (!client) byKey.set(key, (client = fairUpstream(raw, gate, key)));
    return client;
  };
}

export function createTenantClients(options: TenantClientsOptions): TenantClients {
  const host = keyedClients(options.host, createFairGate(options.hostInFlight));
  // The pool holds the engine's client of each member; a reconcile asks the same member's gate under its tenant.
  const memberKeyed = new WeakMap<Upstream, (key: string) => Upstream>();
  const events = new Map<string, EventRecorder>();
  const eventsFor = (tenant: string): EventRecorder => {
    let recorder = events.get(tenant);
    if (!recorder) events.set(tenant, (recorder = options.events(host(tenant))));
    return recorder;
  };
  const membersFor = (pool: MemberPool, tenant: string): MemberPool => ({
    ...pool,
    client: async (cluster) => {
      const engines = await pool.client(cluster);
      return engines && (memberKeyed.get(engines)?.(tenant) ?? engines);
    },
  });
  return {
    host: host(ENGINE_KEY),
    connect: (cluster, secret) => {
      const clients = keyedClients(options.connect(cluster, secret), createFairGate(options.memberInFlight));
      const engines = clients(ENGINE_KEY);
      memberKeyed.set(engines, clients);
      return engines;
    },
    bind: (ctx, tenant) => ({ ...ctx, upstream: host(tenant), members: membersFor(ctx.members, tenant), events: eventsFor(tenant) }),
  };
}
