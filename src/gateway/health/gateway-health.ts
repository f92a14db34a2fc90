// The gateway's health endpoints, composed once for server.ts. Which check
// sits where, and why:
//   livez  (restart me if failing):  ping, event-loop
//   readyz (send me no traffic):     ping, shutdown (draining), upstream,
//          informers-synced (tenant directory and RBAC), tenant-ca, and what the
//          composition root adds (controllers-synced, tenants-applied, ...)
//   healthz (deprecated in kube):    the liveness checks
// The upstream is a readiness check only: an upstream outage must not make the
// orchestrator restart every replica at once, which would not bring it back.
// The shared watch cache is not a readiness gate: its caches open lazily, per
// resource, and a request whose cache is not synced yet is forwarded instead.
import type { Upstream } from '../../kube/upstream.ts';
import { namedCheck, settledCheck, type HealthCheck } from './health-check.ts';
import { createHealthEndpoint, type HealthHandler } from './health-endpoint.ts';
import { startEventLoopWatch, type EventLoopCheckOptions } from './event-loop-check.ts';
import { createTenantCaCheck } from './tenant-ca-check.ts';
import { createUpstreamCheck, type UpstreamCheckOptions } from './upstream-check.ts';

export interface GatewayHealthOptions {
  upstream: Pick<Upstream, 'request'>;
  /** False while starting and while draining: the "shutdown" check. */
  serving: () => boolean;
  /** The gateway's informers' first sync (tenant directory, RBAC). */
  informersSynced: Promise<unknown>;
  tenantCa: () => { certPem: string; keyPem: string } | undefined;
  /** More readiness checks from the composition root, each under its own name. */
  readinessChecks?: HealthCheck[];
  upstreamCheck?: UpstreamCheckOptions;
  eventLoop?: EventLoopCheckOptions;
  log?: (line: string) => void;
}

export interface GatewayHealth {
  serve: HealthHandler;
  stop(): void;
}

const ping = namedCheck('ping', () => undefined);

export function createGatewayHealth(options: GatewayHealthOptions): GatewayHealth {
  const eventLoop = startEventLoopWatch(options.eventLoop);
  const livez = [ping, eventLoop.check];
  const readyz = [
    ping,
    namedCheck('shutdown', () => (options.serving() ? undefined : 'not serving (starting or draining)')),
    createUpstreamCheck(options.upstream, options.upstreamCheck),
    settledCheck('informers-synced', options.informersSynced, 'informers not synced'),
    createTenantCaCheck(options.tenantCa),
    ...(options.readinessChecks ?? []),
  ];
  return {
    serve: createHealthEndpoint({ checks: { livez, readyz, healthz: livez }, ...(options.log ? { log: options.log } : {}) }),
    stop: () => eventLoop.stop(),
  };
}
