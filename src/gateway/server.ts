// The gateway, composed: upstream access, gateway secrets (from the upstream),
// tenant directory and RBAC caches, authentication, the handler chain, and the
// HTTPS listener that refuses client certificates from any other CA.
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { issueCertificate, type KeyPairPem } from '../pki/certificates.ts';
import type { Upstream } from '../kube/upstream.ts';
import { startTenantDirectory } from '../tenants/upstream-tenant-directory.ts';
import type { TenantDirectory } from '../tenants/tenant-directory.ts';
import { createWriteAdmission, podSecurityLevelOf, placementOf } from './admission/write-admission.ts';
import type { PlacementContract } from '../core/tenancy/pod-placement.ts';
import { createClaimLookup } from './forward/held-at-create.ts';
import { createObjectCounts } from './admission/object-counts.ts';
import { createLiveQuotaView } from './quota-view/live-quota-view.ts';
import { servePortal } from './portal/portal-routes.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadGatewaySecrets } from '../tenants/platform-secrets.ts';
import { createTokenAuthenticator, type OidcIssuerConfig } from './authn/bearer-token.ts';
import { createAuthenticator } from './authn/authenticate.ts';
import { createServiceAccountLookup } from './authn/service-account-lookup.ts';
import { answerTokenRequest, type TokenRequestTarget } from './authn/token-request.ts';
import { createGatewayTlsOptions, refuseUnverifiedClientCertificates } from './authn/tls-listener.ts';
import { publicJwks, DEFAULT_ISSUER, DEFAULT_AUDIENCE, type SigningKeySet } from '../tenants/credentials/signing-keys.ts';
import { createTenantPolicies } from './authz/tenant-policies.ts';
import { startUpstreamRbacSource } from './authz/upstream-rbac-source.ts';
import { createDiscoveryService } from './answered/discovery.ts';
import { createOpenApiService } from './answered/openapi.ts';
import { createProxy } from './proxy/proxy-adapter.ts';
import { createForwarder } from './forward/forwarder.ts';
import { createHeavyBodyGate } from './forward/heavy-body-gate.ts';
import { createBodyReader } from './forward/body-read-first.ts';
import { createResponsePipe, type AuditAttribution } from './forward/response-pipe.ts';
import { createGatewayHandler } from './handler.ts';
import { createUpgradeHandler } from './upgrade-handler.ts';
import { createSecurityLog, type SecurityLog } from './security-log.ts';
import { listen } from '../http/https-listener.ts';
import { createSharedCache } from './cache/shared-cache.ts';
import { createCacheServer } from './cache/serve-from-cache.ts';
import { serveTableFromCache } from './cache/serve-table-from-cache.ts';
import { createNodeView } from './nodes/serve-nodes.ts';
import { createClusterServer } from './clusters/serve-clusters.ts';
import type { FairnessConfig } from './fairness/fairness-config.ts';
import { createFairness } from './fairness/fairness-filter.ts';
import { createInFlight } from './fairness/in-flight.ts';
import { gateHandshakes, handshakeGateOptions } from './fairness/handshake-gate.ts';
import { closeSilentConnections } from './fairness/silent-connections.ts';
import { createGatewayObservability, type TenantMetricsOptions } from './observability/gateway-observability.ts';
import { createMetricsEndpoint } from './observability/metrics-endpoint.ts';
import type { MetricsRegistry } from '../observability/metrics-registry.ts';
import { platformAdminOf, platformAdminSession } from './portal/platform-admin.ts';
import { createGatewayHealth } from './health/gateway-health.ts';
import { namedCheck, type HealthCheck } from './health/health-check.ts';
import { createConsole, isConsolePath } from '../console/server/console-routes.ts';
import { levelled } from '../observability/log-line.ts';

export interface GatewayOptions {
  upstream: Upstream;
  host?: string; // default 127.0.0.1
  port?: number; // 0 = any free port
  /** Names and IPs the serving certificate covers, beyond localhost and the listen host. */
  servingNames?: string[];
  issuer?: string;
  oidcIssuers?: OidcIssuerConfig[];
  /** Use this directory instead of Tenant objects upstream (tests, single-tenant setups). */
  tenants?: TenantDirectory;
  /** Upstream audit attribution by self-impersonation with tenant extras (off by default). */
  auditAttribution?: AuditAttribution;
  /** How long upstream may take to answer a request's head (default 60 s); 504 after that. */
  upstreamTimeoutMs?: number;
  /** More that must hold before /readyz answers 200, as the named check "readiness". */
  readiness?: () => boolean;
  /** More named /readyz checks (controllers-synced, tenants-applied, ...): health/gateway-health.ts. */
  readinessChecks?: HealthCheck[];
  log?: (line: string) => void;
  /** Per-tenant seats and queues (defaults: fairness-config.ts). */
  fairness?: FairnessConfig;
  /** How long stop() lets requests in flight finish before it cuts them (default 10 s). */
  shutdownDeadlineMs?: number;
  /** The process's metrics registry, shared with controllers; default: the gateway's own. */
  metrics?: MetricsRegistry;
  /** Per-tenant metric labels: top N (default 20), all, or none (docs/adr/0009-metrics-cardinality.md). */
  tenantMetrics?: TenantMetricsOptions;
  /** Audit events (audit.k8s.io/v1, level Metadata) as JSON lines, in the tenant's view. */
  auditLogPath?: string;
  /** Also one audit file per tenant: <dir>/<tenant id>.log. */
  auditTenantDir?: string;
  /** The platform's placement contract for tenants whose spec.placement says nothing (ADR 0043; default SAFE_PLACEMENT). */
  placement?: PlacementContract;
}

export interface RunningGateway {
  url: string;
  port: number;
  /** CA of the gateway's serving certificate: what tenant kubeconfigs trust. */
  servingCaPem: string;
  tenantCa: KeyPairPem;
  signingKeys: SigningKeySet;
  tenants: TenantDirectory;
  security: SecurityLog;
  metrics: MetricsRegistry;
  stop(): Promise<void>;
}

const YEAR_MS = 365 * 24 * 3600_000;

export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => undefined);
  const { upstream } = options;
  const secrets = await loadGatewaySecrets(upstream);
  const isIp = /^[\d.]+$|:/.test(host);
  const serving = await issueCertificate({
    ca: secrets.servingCa,
    commonName: 'warren-gateway',
    dnsNames: [...new Set(['localhost', ...(isIp ? [] : [host]), ...(options.servingNames ?? []).filter((n) => !/^[\d.]+$|:/.test(n))])],
    ips: [...new Set(['127.0.0.1', '::1', ...(isIp ? [host] : []), ...(options.servingNames ?? []).filter((n) => /^[\d.]+$|:/.test(n))])],
    lifetimeMs: YEAR_MS,
  });

  const directory = options.tenants ?? startTenantDirectory(upstream, { log });
  const rbac = startUpstreamRbacSource(upstream, log);
  const informersSynced = Promise.all([directory.synced(), rbac.synced()]);
  await informersSynced;
  const inFlight = createInFlight();
  const heavyBodies = createHeavyBodyGate();
  let queued = (): number => 0;
  const observability = createGatewayObservability({
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.tenantMetrics ? { tenantMetrics: options.tenantMetrics } : {}),
    ...(options.auditLogPath ? { auditLogPath: options.auditLogPath } : {}),
    ...(options.auditTenantDir ? { auditTenantDir: options.auditTenantDir } : {}),
    inFlight: () => inFlight.count(),
    queued: () => queued(),
    tenants: () => directory.all(),
  });
  const fairness = createFairness(options.fairness, { rejected: (tenant, reason) => observability.metrics.rejected(tenant, reason) });
  queued = () => fairness.stats().queued;
  const security = observability.observeSecurity(createSecurityLog(log));
  const tokens = createTokenAuthenticator({
    warrenKeys: secrets.signingKeys,
    issuer: options.issuer ?? DEFAULT_ISSUER,
    audience: DEFAULT_AUDIENCE,
    ...(options.oidcIssuers ? { oidcIssuers: options.oidcIssuers } : {}),
  });
  const cache = createSharedCache(upstream, { log });
  const fromCache = createCacheServer(cache);
  const proxy = createProxy(upstream, options.upstreamTimeoutMs ? { timeoutMs: options.upstreamTimeoutMs } : {});
  let ready = false;
  const health = createGatewayHealth({
    upstream,
    serving: () => ready,
    informersSynced,
    tenantCa: () => secrets.tenantCa,
    readinessChecks: [
      ...(options.readiness ? [namedCheck('readiness', () => (options.readiness?.() ? undefined : 'not ready'))] : []),
      ...(options.readinessChecks ?? []),
    ],
    log,
  });
  let versionCache: unknown;
  const serviceAccounts = createServiceAccountLookup(upstream);
  const authenticate = createAuthenticator({ tenants: directory, tokens, serviceAccounts });
  const policies = createTenantPolicies(rbac);
  const rbacCatchUp = (timeoutMs: number) => rbac.catchUp(timeoutMs);
  // The tenant's quota view (issue 14 item 9): counts kept live from the count quota's counters.
  const quotaView = createLiveQuotaView({ upstream, tenants: directory, log });
  const counts = createObjectCounts({ onCount: quotaView.onCount });
  const platformAdmin = (req: IncomingMessage): Promise<string> => platformAdminOf(req, secrets.signingKeys, options.issuer ?? DEFAULT_ISSUER);
  const consoleServer = createConsole({
    upstream, log, authenticate,
    platformAdmin: (req) => platformAdminSession(req, secrets.signingKeys, options.issuer ?? DEFAULT_ISSUER),
  });
  const deps = {
    authenticate,
    tenants: directory,
    policies,
    rbacCatchUp,
    discovery: createDiscoveryService(upstream),
    openapi: createOpenApiService(upstream),
    forwarder: createForwarder(upstream, createResponsePipe(proxy, options.auditAttribution), {
      podSecurityOf: podSecurityLevelOf(directory),
      placementOf: placementOf(directory, options.placement),
      claims: createClaimLookup(upstream, directory),
      admission: createWriteAdmission({ upstream, tenants: directory, policies, ...(options.placement ? { placement: options.placement } : {}), rbacCatchUp, counts, onQuotaRefusal: (tenantId) => observability.metrics.quotaRefusal(tenantId) }),
      namespaceCreated: quotaView.namespaceCreated,
    }),
    portal: (req: IncomingMessage, res: ServerResponse, path: string) => servePortal(req, res, path, { upstream, keys: secrets.signingKeys, log }),
    console: { isPath: isConsolePath, serve: consoleServer.serve },
    serveFromCache: async (...args: Parameters<typeof fromCache>) => (await serveTableFromCache(cache, ...args)) || fromCache(...args),
    serveClusters: createClusterServer(upstream, directory),
    serveNodes: createNodeView({ upstream, cache, version: async () => (versionCache ??= (await upstream.request('GET', '/version')).body) }),
    tokenRequests: (req: IncomingMessage, target: TokenRequestTarget) => answerTokenRequest(req, target, {
      keys: () => secrets.signingKeys, issuer: options.issuer ?? DEFAULT_ISSUER, audience: DEFAULT_AUDIENCE, serviceAccounts,
    }),
    version: async () => (versionCache ??= (await upstream.request('GET', '/version')).body),
    jwks: () => publicJwks(secrets.signingKeys),
    ready: () => ready && (options.readiness?.() ?? true),
    health: health.serve,
    log,
    security,
    fairness,
    heavyBodies,
    bodiesFirst: createBodyReader(),
    inFlight,
    observer: observability.observer,
    metricsEndpoint: createMetricsEndpoint({
      registry: observability.registry,
      platformAdmin,
      authenticate,
    }),
  };
  const server = https.createServer(
    createGatewayTlsOptions({ servingCert: serving.certPem, servingKey: serving.keyPem, tenantCaPem: secrets.tenantCa.certPem }),
    createGatewayHandler(deps),
  );
  refuseUnverifiedClientCertificates(server, {
    tenantCaPem: secrets.tenantCa.certPem,
    onRefused: (refused) => log(levelled('warn', 'a client certificate the platform CA did not sign was refused', { event: 'client-certificate-refused', ...refused })),
  });
  // Before fairness can know a tenant, a burst of new connections' handshakes must not run ahead of open connections' requests.
  gateHandshakes(server, handshakeGateOptions(options.fairness));
  // A connection is a tenant's only from its first request (ADR 0045): until then, a deadline of its own.
  closeSilentConnections(server);
  const upgrades = createUpgradeHandler(deps, proxy);
  // Upgraded connections (exec, attach, port-forward) have no clean end: stop() closes them after the drain.
  const tunnels = new Set<Duplex>();
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    tunnels.add(socket);
    socket.once('close', () => tunnels.delete(socket));
    upgrades(req, socket, head);
  });
  const listener = await listen(server, host, options.port ?? 0);
  const port = listener.port;
  ready = true;
  let stopping: Promise<void> | undefined;
  return {
    url: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    servingCaPem: secrets.servingCa.certPem,
    tenantCa: secrets.tenantCa,
    signingKeys: secrets.signingKeys,
    tenants: directory,
    security,
    metrics: observability.registry,
    stop() {
      stopping ??= (async () => {
        // Graceful: stop listening, end watches cleanly (clients re-list elsewhere), let
        // requests in flight finish until the deadline, then cut whatever is left.
        ready = false;
        consoleServer.stop(); // its live streams end now, as watches do
        const deadlineMs = options.shutdownDeadlineMs ?? 10_000;
        // The listener's own cut comes a moment after the drain's, so the drain counts (and logs) what it cut.
        const closed = listener.close(deadlineMs + 1_000);
        heavyBodies.drain(); // large writes waiting for their turn: 503 now, their bodies unread
        const cut = await inFlight.drain(deadlineMs);
        if (cut > 0) log(levelled('warn', `shutdown deadline reached: ${cut} requests cut`, { event: 'shutdown-deadline', cut }));
        // Keep-alive connections whose requests just finished hold the listener open otherwise.
        server.closeIdleConnections();
        for (const socket of tunnels) socket.destroy();
        await closed;
        await observability.stop();
        health.stop();
        quotaView.stop();
        proxy.close();
        cache.stop();
        rbac.stop();
        if (!options.tenants && 'stop' in directory) (directory as { stop(): void }).stop();
      })();
      return stopping;
    },
  };
}
