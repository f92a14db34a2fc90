// The request a log line is about. The gateway runs each request inside a
// scope holding its Audit-ID, and the logger stamps that id on every line
// written from inside it, so code deep in the chain (the security log, the
// forwarder) needs no id passed by hand. A scope is closed when its response
// is: background work a request happened to start (a shared-cache informer)
// outlives it, and its later lines must not claim to be about that request.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestScope {
  readonly auditID: string;
  closed: boolean;
}

const storage = new AsyncLocalStorage<RequestScope>();

export function openRequestScope(auditID: string): RequestScope {
  return { auditID, closed: false };
}

export function runInRequestScope<T>(scope: RequestScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The Audit-ID of the request being served here, if any is still open. */
export function currentAuditID(): string | undefined {
  const scope = storage.getStore();
  return scope && !scope.closed ? scope.auditID : undefined;
}
