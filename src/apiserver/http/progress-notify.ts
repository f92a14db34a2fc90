// Prompt progress bookmarks, a Warren extension in the spirit of etcd's
// RequestProgress. A watch cache in front of this apiserver (the gateway's)
// serves a consistent LIST only once it has provably seen every write up to the
// apiserver's current version; a write to another resource moves that version
// without any event for the cache's resource. So:
// - a watch sent with PROGRESS_NOTIFY_HEADER (and allowWatchBookmarks) is
//   registered here, and its answer echoes the header to say it is honoured;
// - a request sent with PROGRESS_REQUEST_HEADER, once answered, makes every
//   registered watch send a BOOKMARK at the current version (unless it has already
//   seen it). Delivery to watchers is synchronous with each write, so a bookmark
//   written outside a write carries a version all earlier events precede.
// Other apiservers ignore both headers: the cache then never claims freshness it cannot prove.
export { PROGRESS_NOTIFY_HEADER, PROGRESS_REQUEST_HEADER } from '../../core/progress-headers.ts';

export interface ProgressNotifier {
  /** Registers a watch's "send a bookmark if behind" callback; returns the unregister. */
  add(onRequest: () => void): () => void;
  /** Asks every registered watch for a bookmark, on the next turn of the event loop. */
  request(): void;
}

export function createProgressNotifier(): ProgressNotifier {
  const watchers = new Set<() => void>();
  let scheduled = false;
  return {
    add(onRequest) {
      watchers.add(onRequest);
      return () => { watchers.delete(onRequest); };
    },
    request() {
      if (scheduled || watchers.size === 0) return;
      scheduled = true;
      // Coalesced: a burst of requests costs one bookmark per watch.
      setImmediate(() => {
        scheduled = false;
        for (const onRequest of [...watchers]) onRequest();
      });
    },
  };
}
