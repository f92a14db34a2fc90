// A named health check, as kube-apiserver's healthz.HealthChecker: a name that
// /readyz/<name> addresses and ?exclude=<name> skips, and a function that
// answers the failure's reason, or undefined when all is well. A check that
// throws has failed too (health-endpoint.ts), with the error as its reason.
export interface HealthCheck {
  readonly name: string;
  check(): Promise<string | undefined> | string | undefined;
}

export function namedCheck(name: string, check: HealthCheck['check']): HealthCheck {
  return { name, check };
}

/** A check that passes once the promise has resolved (an informer's first sync). */
export function settledCheck(name: string, pending: Promise<unknown>, reason: string): HealthCheck {
  let state: 'pending' | 'done' | 'failed' = 'pending';
  pending.then(() => { state = 'done'; }, () => { state = 'failed'; });
  return namedCheck(name, () => (state === 'done' ? undefined : state === 'failed' ? `${reason} (failed)` : reason));
}
