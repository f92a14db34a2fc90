// Which tenant the work in progress is for, carried through every await of a
// reconcile (AsyncLocalStorage), so a shared client can share its slots
// fairly between tenants without each call site passing the tenant along.
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string>();

/** Runs `fn` on behalf of `tenantId`. */
export function runForTenant<T>(tenantId: string, fn: () => T): T {
  return scope.run(tenantId, fn);
}

/** The tenant the current work is for; '' outside any tenant's work (the engine's own). */
export function currentTenant(): string {
  return scope.getStore() ?? '';
}
