// Status writes that survive a conflict, as client-go's RetryOnConflict: the
// status is built again on the latest copy and written again. Several writers
// share each status (the detector's Scheduled and the executor's FullyApplied
// on a binding; two executor passes on a template or a Work, the second
// started before the first's write came back through the informer), and a
// conflict dropped, or left to a retry of the whole key, leaves a status stale
// or costs a full pass. The latest copy is the informer's when it has moved
// past the one that conflicted (no extra request), else read.
import type { KubeObject } from '../../core/types.ts';
import { ApiError } from '../../core/api-error.ts';
import { statusError } from '../../kube/status-error.ts';
import { jsonEqual } from '../../core/json-equal.ts';
import type { EngineContext } from './engine-context.ts';
import { ownWrite } from './echo-record.ts';

/** client-go's retry.DefaultRetry tries 5 times; ours rarely needs a second. */
const TRIES = 3;

export interface StatusWrite<T extends KubeObject> {
  /** The object's path (its /status is written). */
  path: string;
  /** Echo key of the write (echo-record.ts). */
  echoKey: string;
  /** The copy the status was judged on. */
  current: T;
  /** The informer's copy now, if any. */
  cached(): T | undefined;
  /** The status for this copy, or undefined to give up (what it was judged on changed): a Conflict is thrown. */
  build(latest: T): unknown;
  /** What a missing object means: gone is fine for a template being deleted. */
  missingOk?: boolean;
  /** The body to PUT (default: the copy with its new status); a slim one sends less (the server takes only the status). */
  body?(latest: T, status: unknown): unknown;
  /**
   * A copy read from the server, as this write keeps copies (default: as read); when it is the write's answer,
   * `sent` is the copy whose status was written and `written` that status.
   */
  fresh?(read: unknown, sent?: T, written?: unknown): T;
  /** Headers of the status write (a write whose answer is read as metadata only asks for just that: ADR 0041). */
  headers?: Record<string, string>;
}

/** Writes the status `build` makes, retrying conflicts on the latest copy; returns the copy written (or the unchanged one). */
export async function ensureStatus<T extends KubeObject>(ctx: EngineContext, w: StatusWrite<T>): Promise<T> {
  let latest = w.current;
  for (let attempt = 1; ; attempt++) {
    const status = w.build(latest);
    if (status === undefined) throw new ApiError('Conflict', `${latest.kind ?? 'object'} ${latest.metadata.name ?? ''} changed while its status was being written`);
    if (jsonEqual(latest.status ?? {}, status)) return latest;
    const sent = latest;
    const body = w.body ? w.body(sent, status) : { ...sent, status };
    const res = await ownWrite(ctx.echoes, w.echoKey, () => ctx.upstream.request<T>('PUT', `${w.path}/status`, body, w.headers));
    if (res.status === 200) return w.fresh ? w.fresh(res.body, sent, status) : res.body;
    if (res.status === 404 && w.missingOk) return latest;
    if (res.status !== 409 || attempt >= TRIES) throw statusError(res.status, res.body);
    const cached = w.cached();
    if (cached && cached.metadata.resourceVersion !== latest.metadata.resourceVersion) {
      latest = cached;
      continue;
    }
    const fresh = await ctx.upstream.request<T>('GET', w.path);
    if (fresh.status === 404 && w.missingOk) return latest;
    if (fresh.status !== 200) throw statusError(fresh.status, fresh.body);
    latest = w.fresh ? w.fresh(fresh.body) : fresh.body;
  }
}
