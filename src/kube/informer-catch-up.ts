// Proving the gateway's RBAC informers current, for a request about to be denied.
// Tenant RBAC is read from informers, so a binding written a moment ago (a tenant
// just onboarded and reported Ready, a RoleBinding the admin just made) may not
// be there yet. Before a 403, the gateway asks the upstream for its version (a
// one-item LIST carrying the progress request, so a Warren upstream bookmarks the
// informers' watches) and waits, bounded, until every informer has reached it.
// Callers arriving while a probe is in flight share the next one, which starts
// after it: its version is read after their own request, so it covers any write
// they could depend on, and a burst of denials costs two probes, not one each.
import type { KubeList, KubeObject } from '../../core/types.ts';
import { RBAC_GROUP } from '../../core/rbac/index.ts';
import { PROGRESS_REQUEST_HEADER } from '../../core/progress-headers.ts';
import type { Informer } from '../../kube/informer.ts';
import type { Upstream } from '../../kube/upstream.ts';

const POLL_MS = 5;

export function createCatchUp(upstream: Upstream, informers: Informer<KubeObject>[]): (timeoutMs: number) => Promise<boolean> {
  let inFlight: Promise<boolean> | undefined;
  let next: Promise<boolean> | undefined;

  async function probeAndWait(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const probe = upstream.request<KubeList>('GET', `/apis/${RBAC_GROUP}/v1/clusterrolebindings?limit=1`, undefined, { [PROGRESS_REQUEST_HEADER]: 'true' })
      .then((res) => (res.status === 200 ? Number(res.body.metadata.resourceVersion) : undefined), () => undefined);
    const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), timeoutMs).unref());
    const target = await Promise.race([probe, timeout]);
    if (target === undefined || !Number.isFinite(target)) return false;
    const current = (): boolean => informers.every((i) => Number(i.lastSyncResourceVersion()) >= target);
    while (!current()) {
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return true;
  }

  const run = (timeoutMs: number): Promise<boolean> => {
    const started = probeAndWait(timeoutMs).finally(() => { if (inFlight === started) inFlight = undefined; });
    inFlight = started;
    return started;
  };

  return (timeoutMs) => {
    // Only an upstream that bookmarks on request can prove the informers current.
    if (!informers.every((i) => i.notifiesProgress())) return Promise.resolve(false);
    if (!inFlight) return run(timeoutMs);
    next ??= inFlight.then(() => {
      next = undefined;
      return run(timeoutMs);
    });
    return next;
  };
}
