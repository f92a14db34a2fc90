// The one retry rule of the gateway's read-modify-write paths (patches applied
// here, server-side apply judged by a dry run, writes of held objects, the
// scale of a held object): each pass reads the live object, computes what to
// send, pins it to the resourceVersion it read and writes. When the upstream
// answers 409 "the object has been modified", a concurrent writer (a
// controller updating status, the engine holding or releasing) came between
// the read and the write: the pass is made again on a fresh read, as
// kube-apiserver's own patch handler does, at most MAX_ATTEMPTS times. Only a
// pin the pass made itself is retried: a resourceVersion the tenant sent is
// the tenant's precondition, and its 409 is the tenant's answer. Any other
// answer, a 409 for another reason included (an apply's field conflict), ends
// the loop.
import type { UpstreamResponse } from '../../kube/upstream.ts';

export const MAX_ATTEMPTS = 5;

export interface WritePass<T> {
  /** What the caller answers if this pass is the last. */
  result: T;
  /** The upstream's answer to the pinned write, when the pass got that far. */
  written?: UpstreamResponse;
  /** The resourceVersion precondition was this pass's own (not the tenant's). */
  pinnedHere: boolean;
}

/** A resourceVersion precondition failed: kube's 409 Conflict "the object has been modified". */
export function isStaleWrite(res: UpstreamResponse): boolean {
  const body = res.body as { reason?: string; message?: string } | undefined;
  return res.status === 409 && body?.reason === 'Conflict' && (body.message ?? '').includes('the object has been modified');
}

export async function retryStaleWrite<T>(pass: () => Promise<WritePass<T>>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const { result, written, pinnedHere } = await pass();
    if (!written || !pinnedHere || !isStaleWrite(written) || attempt >= MAX_ATTEMPTS) return result;
  }
}
