// The console's view of the platform, kept by watches: informers on Tenants,
// Clusters, (Cluster)ResourceBindings and the tenants' namespaces, started on
// the first console request (a gateway nobody opens the console on watches
// nothing more) and stopped with the gateway. Every change schedules one
// rebuilt state for the live subscribers, coalesced over a short delay so a
// burst of binding updates costs one message, not one per object; the delta
// from the previous broadcast is computed once for every stream in step.
import type { KubeObject } from '../../core/types.ts';
import type { Cluster, ResourceBinding } from '../../core/propagation/karmada-types.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { startInformer, type Informer } from '../../kube/informer.ts';
import { TENANTS_PATH, type Tenant } from '../../tenants/tenant-crd.ts';
import { buildConsoleState } from '../view/console-state.ts';
import type { ConsoleState } from '../view/console-types.ts';
import { stateDelta, type ConsoleDelta } from '../view/state-delta.ts';
import { slimBinding, slimObject } from './slim-objects.ts';

export const CLUSTERS_PATH = '/apis/cluster.karmada.io/v1alpha1/clusters';
const BINDINGS_PATH = '/apis/work.karmada.io/v1alpha2/resourcebindings';
const CLUSTER_BINDINGS_PATH = '/apis/work.karmada.io/v1alpha2/clusterresourcebindings';

/** One broadcast: the new state, the one broadcast before it, and the delta between them (computed once). */
export interface LiveUpdate {
  state: ConsoleState;
  previous: ConsoleState | undefined;
  /** undefined: nothing the pages show changed. Without a previous broadcast, undefined too (streams compute their own). */
  delta(): ConsoleDelta | undefined;
}

export interface ConsoleSource {
  /** The current state, once every informer has listed (or after a bounded wait: what is known so far). */
  state(): Promise<ConsoleState>;
  tenant(name: string): Tenant | undefined;
  namespaces(): KubeObject[];
  bindings(): ResourceBinding[];
  /** Called with each new state until the returned function is called. */
  subscribe(listener: (update: LiveUpdate) => void): () => void;
  stop(): void;
}

export interface ConsoleSourceOptions {
  upstream: Upstream;
  log: (line: string) => void;
  /** How long state() waits for the first lists (default 10 s): a missing CRD must not hang the console. */
  syncWaitMs?: number;
  /** Coalescing delay of live updates (default 250 ms). */
  coalesceMs?: number;
}

export function startConsoleSource(options: ConsoleSourceOptions): ConsoleSource {
  const { upstream, log } = options;
  const listeners = new Set<(update: LiveUpdate) => void>();
  let timer: NodeJS.Timeout | undefined;
  let revision = 0;
  let last: ConsoleState | undefined;
  const changed = (): void => {
    revision++;
    if (timer || listeners.size === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      const update = broadcastOf(current());
      for (const listener of listeners) listener(update);
    }, options.coalesceMs ?? 250);
  };
  const broadcastOf = (state: ConsoleState): LiveUpdate => {
    const previous = last;
    last = state;
    let memo: { delta: ConsoleDelta | undefined } | undefined;
    return { state, previous, delta: () => (memo ??= { delta: previous ? stateDelta(previous, state) : undefined }).delta };
  };
  const watch = <T extends KubeObject>(listPath: string, transform: (obj: T) => T, labelSelector?: string): Informer<T> =>
    startInformer<T>({ upstream, listPath, log, transform, onEvent: changed, ...(labelSelector ? { labelSelector } : {}) });
  const tenants = watch<Tenant>(TENANTS_PATH, slimObject);
  const clusters = watch<Cluster>(CLUSTERS_PATH, slimObject);
  const bindings = watch<ResourceBinding>(BINDINGS_PATH, slimBinding);
  const clusterBindings = watch<ResourceBinding>(CLUSTER_BINDINGS_PATH, slimBinding);
  const namespaces = watch<KubeObject>('/api/v1/namespaces', slimObject, TENANT_LABEL);
  const all = [tenants, clusters, bindings, clusterBindings, namespaces];
  const synced = Promise.race([
    Promise.all(all.map((i) => i.synced())).then(() => undefined),
    new Promise<void>((resolve) => setTimeout(resolve, options.syncWaitMs ?? 10_000).unref()),
  ]).catch(() => undefined);
  const allBindings = (): ResourceBinding[] => [...bindings.store.values(), ...clusterBindings.store.values()];
  const current = (): ConsoleState => buildConsoleState({
    tenants: [...tenants.store.values()],
    clusters: [...clusters.store.values()],
    bindings: allBindings(),
    revision: String(revision),
  });
  return {
    async state() {
      await synced;
      return current();
    },
    tenant: (name) => tenants.store.get(name),
    namespaces: () => [...namespaces.store.values()],
    bindings: allBindings,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      if (timer) clearTimeout(timer);
      listeners.clear();
      for (const informer of all) informer.stop();
    },
  };
}
