// The upstream's current version, read cheaply and bounded in time: a one-item
// LIST of a collection answers with the list's resourceVersion, which is the
// upstream's newest (etcd's revision on kube-apiserver). The request carries the
// progress request, so a Warren upstream then bookmarks every watch that asked
// for it (src/apiserver/http/progress-notify.ts) at that version or later.
import type { KubeList } from '../core/types.ts';
import { PROGRESS_REQUEST_HEADER } from '../core/progress-headers.ts';
import type { Upstream } from './upstream.ts';

/** undefined when the upstream refuses, fails, answers no readable version, or is slower than timeoutMs. */
export async function probeUpstreamVersion(upstream: Upstream, collectionPath: string, timeoutMs: number): Promise<number | undefined> {
  const probe = upstream.request<KubeList>('GET', `${collectionPath}?limit=1`, undefined, { [PROGRESS_REQUEST_HEADER]: 'true' })
    .then((res) => (res.status === 200 ? readableVersion(res.body.metadata?.resourceVersion) : undefined), () => undefined);
  // A slow or hung upstream must not hold the caller past its bound.
  const deadline = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), timeoutMs).unref());
  return await Promise.race([probe, deadline]);
}

function readableVersion(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  const rv = Number(value);
  return Number.isSafeInteger(rv) ? rv : undefined;
}
