// The embedded apiserver, composed: credentials and store from the data
// directory (or memory), the registry and its controllers, the HTTPS listener.
// Started by `warren apiserver`, by `warren up`, and in-process by tests.
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { MemoryStore } from './store/memory-store.ts';
import type { Store } from './store/store.ts';
import { openDurableStore } from './store/durable-store.ts';
import { ResourceCatalog } from './registry/catalog.ts';
import { Registry } from './registry/registry.ts';
import { createDefaultStrategy } from './registry/default-strategy.ts';
import type { ResourceApi } from './registry/resource-api.ts';
import { createHandler } from './http/handler.ts';
import { createTablePrinter } from './http/table-printer.ts';
import { createOpenApiServer } from './http/openapi-routes.ts';
import { createAuthenticator } from './http/authn.ts';
import { createAuthorizer } from './http/authz.ts';
import { createTokenIssuer } from './auth/token-issuer.ts';
import { loadCredentials, saveServiceAccountKey } from './credentials.ts';
import { buildKubeconfig } from '../pki/kubeconfig.ts';
import { startGarbageCollector } from './builtin-controllers/garbage-collector.ts';
import { startQuotaController } from './builtin-controllers/quota-controller.ts';
import { startNamespaceController } from './builtin-controllers/namespace-controller.ts';
import { startCrdController } from './builtin-controllers/crd-controller.ts';
import { ensureSystemObjects, startNamespaceBootstrap } from './builtin-controllers/namespace-bootstrap.ts';
import { startWorkloadSimulator } from './simulator/start-workload-simulator.ts';
import { emulationOf } from './emulation.ts';
import { writeFileAtomic } from './files.ts';
import { listen } from '../http/https-listener.ts';
import { createProgressNotifier } from './http/progress-notify.ts';

export interface ApiServerOptions {
  host?: string; // default 127.0.0.1
  port?: number; // 0 = any free port
  /** Data directory: CA, certificates, kubeconfig and the durable store. Omit for a fully in-memory server. */
  dataDir?: string;
  simulateWorkloads?: boolean;
  /** Name of the cluster in the kubeconfig (default "warren"). */
  clusterName?: string;
  /** Interval of watch bookmarks (default 60 s, like kube-apiserver). */
  bookmarkIntervalMs?: number;
  log?: (line: string) => void;
  /** Show clients this Kubernetes release ("1.20") instead of the build's own (src/apiserver/emulation.ts, ADR 0035). */
  emulatedVersion?: string;
  /**
   * Test-only stand-in for a kubelet: receives exec/attach/port-forward upgrades (any upgrade,
   * in fact) and may hold them open. Without it this server answers no upgrade, so a test of
   * the gateway's per-tenant upgrade seats had nothing to hold a session open.
   */
  podStreams?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
}

export interface RunningApiServer {
  url: string; // https://127.0.0.1:PORT
  port: number;
  caCertPem: string;
  /** Admin kubeconfig (YAML text); also written to DIR/kubeconfig when dataDir is set. */
  kubeconfig: string;
  kubeconfigPath?: string;
  api: ResourceApi;
  registry: Registry;
  stop(): Promise<void>;
}

export async function startApiServer(options: ApiServerOptions = {}): Promise<RunningApiServer> {
  const host = options.host ?? '127.0.0.1';
  const emulation = emulationOf(options.emulatedVersion);
  const log = options.log ?? (() => undefined);
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  const credentials = await loadCredentials(options.dataDir, host);
  const store: Store = options.dataDir ? await openDurableStore(join(options.dataDir, 'store')) : new MemoryStore();
  const catalog = new ResourceCatalog(emulation.builtins);
  const registry = new Registry({ store, catalog, strategy: createDefaultStrategy(store) });
  const tokens = await createTokenIssuer(credentials.serviceAccountKey);
  if (!credentials.serviceAccountKey) await saveServiceAccountKey(options.dataDir, tokens.privateJwk());

  ensureSystemObjects(registry);
  const controllers = [
    startCrdController(registry, log),
    startGarbageCollector(registry, log),
    startQuotaController(registry, log),
    startNamespaceController(registry, log),
    startNamespaceBootstrap(registry, credentials.ca.certPem, log),
  ];
  // Like a freshly started kube-apiserver, watches resume only from here on.
  store.startWatchWindow();
  const simulator = options.simulateWorkloads ? startWorkloadSimulator(registry, { log, kubeletVersion: emulation.version.gitVersion ?? '' }) : undefined;

  const shutdownListeners = new Set<() => void>();
  const watches = {
    progress: createProgressNotifier(),
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
    onShutdown: (listener: () => void) => {
      shutdownListeners.add(listener);
      return () => shutdownListeners.delete(listener);
    },
  };

  let address = `${host}:0`;
  let ready = false;
  const server = https.createServer({
    cert: credentials.serving.certPem,
    key: credentials.serving.keyPem,
    ca: credentials.ca.certPem,
    requestCert: true,
    rejectUnauthorized: false, // bearer tokens are accepted too; unverified certificates simply do not authenticate
  }, createHandler({
    registry,
    tables: createTablePrinter(registry),
    openapi: createOpenApiServer(registry, emulation),
    authenticate: createAuthenticator(credentials.adminToken, tokens),
    authorize: createAuthorizer(store),
    tokens,
    serverAddress: () => address,
    version: emulation.version,
    aggregatedDiscovery: emulation.aggregatedDiscovery,
    ready: () => ready,
    watches,
  }));
  server.keepAliveTimeout = 65_000;
  if (options.podStreams) server.on('upgrade', options.podStreams);
  const listener = await listen(server, host, options.port ?? 0);
  const port = listener.port;
  address = `${host}:${port}`;
  const url = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const kubeconfig = buildKubeconfig({
    clusterName: options.clusterName ?? 'warren',
    server: url,
    caCertPem: credentials.ca.certPem,
    userName: 'admin',
    clientCertPem: credentials.admin.certPem,
    clientKeyPem: credentials.admin.keyPem,
  });
  let kubeconfigPath: string | undefined;
  if (options.dataDir) {
    kubeconfigPath = join(options.dataDir, 'kubeconfig');
    await writeFileAtomic(kubeconfigPath, kubeconfig, 0o600);
  }
  ready = true;

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      ready = false;
      for (const end of [...shutdownListeners]) end();
      await listener.close();
      await simulator?.stop();
      for (const controller of controllers) controller.stop();
      await store.close();
    })();
    return stopping;
  };
  return { url, port, caCertPem: credentials.ca.certPem, kubeconfig, kubeconfigPath, api: registry, registry, stop };
}
