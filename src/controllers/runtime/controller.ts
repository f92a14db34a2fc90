// The generic controller: an informer feeds object keys into a work queue;
// workers call reconcile(key) one key at a time. A result's requeueAfter
// schedules the key again (certificate rotation, waiting for deletion); a
// thrown error retries it with per-key backoff. The reconciler always reads the
// object fresh from the informer's store: keys, not objects, are queued, so a
// burst of events for one object costs one reconcile.
import type { KubeObject } from '../../core/types.ts';
import { startInformer, objectKey, type Informer } from '../../kube/informer.ts';
import type { Upstream } from '../../kube/upstream.ts';
import type { BackoffOptions } from '../../kube/backoff.ts';
import { createWorkQueue, type WorkQueue } from './work-queue.ts';

export interface ReconcileResult {
  requeueAfterMs?: number;
}

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
  let stopped = false;

  async function worker(): Promise<void> {
    for (;;) {
      const key = await queue.get();
      if (key === undefined || stopped) return;
      try {
        const result = await options.reconcile(key, informer);
        queue.forget(key);
        if (result?.requeueAfterMs !== undefined && !stopped) queue.addAfter(key, result.requeueAfterMs);
      } catch (err) {
        if (!stopped) {
          log(`${options.name}: reconcile ${key} failed: ${err instanceof Error ? err.message : String(err)}`);
          queue.addRateLimited(key);
        }
      } finally {
        queue.done(key);
      }
    }
  }

  // Workers wait for the first list, so no reconcile runs on a partial view
  // (id uniqueness is judged from the whole store).
  const ready = informer.synced().then(() => {
    for (let i = 0; i < (options.workers ?? 16); i++) void worker();
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
      if (resync) clearInterval(resync);
      queue.shutDown();
      informer.stop();
    },
  };
}
