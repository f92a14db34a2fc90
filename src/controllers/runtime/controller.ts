// The generic controller: an informer feeds object keys into a work queue;
// workers call reconcile(key) one key at a time. A result's requeueAfter
// schedules the key again (certificate rotation, waiting for deletion); a
// thrown error retries it with per-key backoff. The reconciler always reads the
// object fresh from the informer's store: keys, not objects, are queued, so a
// burst of events for one object costs one reconcile.
import type { KubeObject } from '../../core/types.ts';
import { startInformer, objectKey, type Informer } from '../../kube/informer.ts';
import type { Upstream } from '../../kube/upstream.ts';
import type { BackoffOptions } from '../../core/backoff.ts';
import { createWorkQueue, type WorkQueue } from '../../workqueue/work-queue.ts';
import { startWorkers, type ReconcileResult, type Workers } from './workers.ts';

export type { ReconcileResult } from './workers.ts';

export interface ControllerOptions<T extends KubeObject> {
  name: string;
  upstream: Upstream;
  listPath: string;
  labelSelector?: string;
  reconcile: (key: string, informer: Informer<T>) => Promise<ReconcileResult | void>;
  workers?: number; // default 16: reconciles mostly wait on the upstream, so more of them overlap
  /** Re-queue every key this often, to repair drift in objects that are not watched (default 10 min; 0 = never). */
  resyncMs?: number;
  backoff?: BackoffOptions;
  log?: (line: string) => void;
}

export interface RunningController<T extends KubeObject> {
  informer: Informer<T>;
  queue: WorkQueue;
  synced(): Promise<void>;
  stop(): void;
}

export function startController<T extends KubeObject>(options: ControllerOptions<T>): RunningController<T> {
  const log = options.log ?? (() => undefined);
  const queue = createWorkQueue(options.backoff ? { backoff: options.backoff } : {});
  const informer = startInformer<T>({
    upstream: options.upstream,
    listPath: options.listPath,
    ...(options.labelSelector ? { labelSelector: options.labelSelector } : {}),
    log,
    onEvent: (_type, obj) => queue.add(objectKey(obj)),
  });
  // Workers wait for the first list, so no reconcile runs on a partial view
  // (id uniqueness is judged from the whole store).
  let workers: Workers | undefined;
  let stopped = false;
  const ready = informer.synced().then(() => {
    if (stopped) return;
    workers = startWorkers({ name: options.name, queue, count: options.workers ?? 16, reconcile: (key) => options.reconcile(key, informer), log });
  });
  ready.catch(() => undefined);
  const resyncMs = options.resyncMs ?? 600_000;
  const resync = resyncMs > 0 ? setInterval(() => {
    for (const key of informer.store.keys()) queue.add(key);
  }, resyncMs) : undefined;
  resync?.unref();

  return {
    informer,
    queue,
    synced: () => ready,
    stop() {
      stopped = true;
      workers?.stop();
      if (resync) clearInterval(resync);
      queue.shutDown();
      informer.stop();
    },
  };
}
