// The console's view of the platform, kept by watches: informers on Tenants,
// Clusters, (Cluster)ResourceBindings and the tenants' namespaces, started on
// the first console request (a gateway nobody opens the console on watches
// nothing more) and stopped with the gateway. Each watch event updates the
// incremental model (view/console-model.ts) in the cells it touches; the live
// subscribers get one flush, coalesced over a short delay so a burst of binding
// updates costs one message, not one per object. The delta comes from what
// changed, computed once for every stream; the whole state is built only for a
// new stream or the state API (which flush first, so every stream stays in step).
import type { KubeObject } from '../../core/types.ts';
import type { Cluster, ResourceBinding } from '../../core/propagation/karmada-types.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { startInformer, type Informer } from '../../kube/informer.ts';
import { TENANTS_PATH, type Tenant } from '../../tenants/tenant-crd.ts';
import type { ConsoleState } from '../view/console-types.ts';
import { createConsoleModel, type ConsoleEvent } from '../view/console-model.ts';
import type { ConsoleDelta } from '../view/state-delta.ts';
import { slimBinding, slimObject } from './slim-objects.ts';

export const CLUSTERS_PATH = '/apis/cluster.karmada.io/v1alpha1/clusters';
const BINDINGS_PATH = '/apis/work.karmada.io/v1alpha2/resourcebindings';
const CLUSTER_BINDINGS_PATH = '/apis/work.karmada.io/v1alpha2/clusterresourcebindings';

/** One broadcast: the revision it moves a stream from, the one it moves it to, and what changed (computed once). */
export interface LiveUpdate {
  previous: string;
  revision: string;
  /** undefined: nothing the pages show changed. */
  delta: ConsoleDelta | undefined;
  /** The whole state after the update: for a stream not at `previous` (it sends the whole state again). */
  state(): ConsoleState;
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

const storeKey = (obj: KubeObject): string => (obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name ?? ''}` : obj.metadata.name ?? '');

export function startConsoleSource(options: ConsoleSourceOptions): ConsoleSource {
  const { upstream, log } = options;
  const listeners = new Set<(update: LiveUpdate) => void>();
  const model = createConsoleModel();
  let timer: NodeJS.Timeout | undefined;
  /** Flushes what the model gathered and tells every subscriber, now. */
  const broadcast = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (!model.pending()) return;
    const previous = model.state().revision;
    const delta = model.flush();
    const update: LiveUpdate = { previous, revision: model.state().revision, delta, state: model.state };
    for (const listener of listeners) listener(update);
  };
  const schedule = (): void => {
    if (timer || listeners.size === 0) return;
    timer = setTimeout(broadcast, options.coalesceMs ?? 250);
  };
  // Each event reads the object as the informer now stores it (undefined: gone), so the model
  // follows the store whatever the event's type says.
  const watch = <T extends KubeObject>(listPath: string, transform: (obj: T) => T, toEvent?: (key: string, obj: T | undefined) => ConsoleEvent, labelSelector?: string): Informer<T> => {
    const informer: Informer<T> = startInformer<T>({
      upstream, listPath, log, transform, ...(labelSelector ? { labelSelector } : {}),
      onEvent: (_type, obj) => {
        if (!toEvent) return;
        const key = storeKey(obj);
        model.apply(toEvent(key, informer.store.get(key)));
        schedule();
      },
    });
    return informer;
  };
  const tenants = watch<Tenant>(TENANTS_PATH, slimObject, (key, object) => ({ kind: 'tenant', key, object }));
  const clusters = watch<Cluster>(CLUSTERS_PATH, slimObject, (key, object) => ({ kind: 'cluster', key, object }));
  const bindings = watch<ResourceBinding>(BINDINGS_PATH, slimBinding, (key, object) => ({ kind: 'binding', key: `rb/${key}`, object }));
  const clusterBindings = watch<ResourceBinding>(CLUSTER_BINDINGS_PATH, slimBinding, (key, object) => ({ kind: 'binding', key: `crb/${key}`, object }));
  // Namespaces are read by the detail page only; they change nothing the live pages show.
  const namespaces = watch<KubeObject>('/api/v1/namespaces', slimObject, undefined, TENANT_LABEL);
  const all = [tenants, clusters, bindings, clusterBindings, namespaces];
  const synced = Promise.race([
    Promise.all(all.map((i) => i.synced())).then(() => undefined),
    new Promise<void>((resolve) => setTimeout(resolve, options.syncWaitMs ?? 10_000).unref()),
  ]).catch(() => undefined);
  const allBindings = (): ResourceBinding[] => [...bindings.store.values(), ...clusterBindings.store.values()];
  return {
    async state() {
      await synced;
      broadcast();
      return model.state();
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
