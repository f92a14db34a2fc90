// Proving informers current, for a decision about to refuse on what they hold.
// The gateway reads tenant RBAC and the tenant directory from informers, so an
// object written a moment ago (a tenant just onboarded and reported Ready, a
// RoleBinding the admin just made) may not be there yet. Before refusing, it asks
// the upstream for its version (a one-item LIST of probePath carrying the progress
// request, so a Warren upstream bookmarks the informers' watches) and waits,
// bounded, until every informer has reached it.
// Callers arriving while a probe is in flight share the next one, which starts
// after it: its version is read after their own request, so it covers any write
// they could depend on, and a burst of denials costs two probes, not one each.
import type { KubeObject } from '../core/types.ts';
import type { Informer } from './informer.ts';
import type { Upstream } from './upstream.ts';
import { probeUpstreamVersion } from './upstream-version.ts';

const POLL_MS = 5;

/** probePath: a collection the upstream answers cheaply with limit=1 (see probeUpstreamVersion). */
export function createCatchUp<T extends KubeObject>(upstream: Upstream, informers: Informer<T>[], probePath: string): (timeoutMs: number) => Promise<boolean> {
  let inFlight: Promise<boolean> | undefined;
  let next: Promise<boolean> | undefined;

  async function probeAndWait(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const target = await probeUpstreamVersion(upstream, probePath, timeoutMs);
    if (target === undefined) return false;
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
