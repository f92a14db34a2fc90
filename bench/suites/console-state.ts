// The console's live state, in process: CPU per watch event at 100 tenants x
// 10 members x 1,000 bindings, each event a binding whose ready count changed
// (the commonest event), flushed after each one (the worst case: no coalescing).
//   rebuild     = what console-source.ts did before: buildConsoleState from the
//                 stores, then stateDelta against the previous state;
//   incremental = view/console-model.ts: apply the event, flush its delta.
// CPU time (process.cpuUsage), not wall time: the machine is shared.
import type { Cluster, ResourceBinding } from '../../src/core/propagation/karmada-types.ts';
import type { Tenant } from '../../src/tenants/tenant-crd.ts';
import { buildConsoleState } from '../../src/console/view/console-state.ts';
import { createConsoleModel } from '../../src/console/view/console-model.ts';
import { stateDelta } from '../../src/console/view/state-delta.ts';
import type { Suite } from '../suite.ts';

const TENANTS = 100;
const MEMBERS = 10;
const BINDINGS = 1_000;
const REBUILD_EVENTS = 200;
const INCREMENTAL_EVENTS = 20_000;

const idOf = (t: number): string => `t${String(t).padStart(5, '0')}`;
const memberOf = (m: number): string => `member${m}`;

function binding(i: number, ready: number): ResourceBinding {
  const ns = `${idOf(i % TENANTS)}-default`;
  const targets = [memberOf(i % MEMBERS), memberOf((i + 3) % MEMBERS)];
  return {
    metadata: { namespace: ns, name: `web${i}-deployment` },
    spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: ns, name: `web${i}` }, replicas: 4, clusters: targets.map((name) => ({ name, replicas: 2 })) },
    status: { aggregatedStatus: targets.map((clusterName) => ({ clusterName, applied: true, health: 'Healthy', status: { readyReplicas: ready } })) },
  } as ResourceBinding;
}

/** CPU microseconds per call of f over n calls. */
function cpuPerCall(n: number, f: (i: number) => void): number {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) f(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

export const consoleStateSuite: Suite = {
  name: 'console-state',
  ownServers: true,
  method: `In process: CPU per binding event at ${TENANTS} tenants x ${MEMBERS} members x ${BINDINGS.toLocaleString('en-US')} bindings (2 members each), flushed after every event; rebuild (buildConsoleState + stateDelta, mean of ${REBUILD_EVENTS}) against the incremental model (apply + flush, mean of ${INCREMENTAL_EVENTS.toLocaleString('en-US')}).`,
  async run(env) {
    const tenants: Tenant[] = Array.from({ length: TENANTS }, (_, t) => ({
      metadata: { name: `tenant${t}` }, spec: { quota: { cpu: '8' } },
      status: { id: idOf(t), phase: 'Ready', clusters: Array.from({ length: MEMBERS }, (_, m) => memberOf(m)), usage: { cpu: '2' } },
    }) as Tenant);
    const clusters: Cluster[] = Array.from({ length: MEMBERS }, (_, m) => ({ metadata: { name: memberOf(m) }, status: { conditions: [{ type: 'Ready', status: 'True' }] } }) as Cluster);
    const bindings = new Map(Array.from({ length: BINDINGS }, (_, i) => [`rb/${i}`, binding(i, 0)]));
    const model = createConsoleModel();
    for (const t of tenants) model.apply({ kind: 'tenant', key: t.metadata.name ?? '', object: t });
    for (const c of clusters) model.apply({ kind: 'cluster', key: c.metadata.name ?? '', object: c });
    for (const [key, object] of bindings) model.apply({ kind: 'binding', key, object });
    model.flush();
    let state = buildConsoleState({ tenants, clusters, bindings: [...bindings.values()], revision: '0' });
    const event = (i: number): { key: string; object: ResourceBinding } => {
      const n = (i * 7919) % BINDINGS;
      // Each pass over the bindings flips their ready count, so every event changes what a page shows.
      return { key: `rb/${n}`, object: binding(n, 1 + (Math.floor(i / BINDINGS) % 2)) };
    };
    const rebuild = cpuPerCall(REBUILD_EVENTS, (i) => {
      const { key, object } = event(i);
      bindings.set(key, object);
      const next = buildConsoleState({ tenants, clusters, bindings: [...bindings.values()], revision: String(i) });
      if (!stateDelta(state, next)) throw new Error('rebuild: a changed binding gave no delta');
      state = next;
    });
    const incremental = cpuPerCall(INCREMENTAL_EVENTS, (i) => {
      const { key, object } = event(i);
      model.apply({ kind: 'binding', key, object });
      if (!model.flush()) throw new Error('incremental: a changed binding gave no delta');
    });
    env.log(`console-state: ${rebuild.toFixed(0)} us -> ${incremental.toFixed(1)} us CPU per event (x${(rebuild / incremental).toFixed(0)})`);
    return {
      rows: [
        { suite: 'console-state', metric: 'CPU per binding event, rebuild + stateDelta', unit: 'us', embedded: rebuild },
        { suite: 'console-state', metric: 'CPU per binding event, incremental model', unit: 'us', embedded: incremental },
        { suite: 'console-state', metric: 'rebuild / incremental', unit: 'x', embedded: rebuild / incremental },
      ],
      notes: ['console-state: no server; the embedded column is the in-process figure.'],
    };
  },
};
