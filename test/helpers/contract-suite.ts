// Per-file set-up for contract tests: one server per test file (node --test runs
// each file in its own process), namespaces cleaned up at the end.
import { before, after } from 'node:test';
import { contractServer, type ContractServer } from './contract-server.ts';
import { testNamespaces, type TestNamespaces } from './test-namespace.ts';
import type { KubeHttp } from './kube-http.ts';
import { eventually } from './poll.ts';

export interface SuiteContext {
  server: ContractServer;
  http: KubeHttp;
  namespaces: TestNamespaces;
  /** Runs before namespaces are removed and the server stops (e.g. deleting CRDs on a real cluster). */
  onCleanup(fn: () => Promise<unknown>): void;
}

/** Registers before/after hooks; the returned object is filled in once `before` has run. */
export function useContractServer(): SuiteContext {
  const cleanups: Array<() => Promise<unknown>> = [];
  const ctx = { onCleanup: (fn) => { cleanups.push(fn); } } as SuiteContext;
  before(async () => {
    ctx.server = await contractServer();
    ctx.http = ctx.server.http;
    ctx.namespaces = podReadyNamespaces(testNamespaces(ctx.http), ctx.http);
  });
  after(async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => undefined);
    await ctx.namespaces?.cleanup();
    await ctx.server?.stop();
  });
  return ctx;
}

/**
 * Namespaces that accept pods once created. Before 1.24 a real cluster's ServiceAccount
 * admission refuses a pod (500, "No API token found for service account") until the token
 * controller has given the namespace's default ServiceAccount its token Secret; a dry-run
 * pod create tells when that is done, on any server.
 */
function podReadyNamespaces(inner: TestNamespaces, http: KubeHttp): TestNamespaces {
  const probe = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ready-probe' }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } };
  return {
    async create(prefix) {
      const ns = await inner.create(prefix);
      await eventually(async () => (await http.post(`/api/v1/namespaces/${ns}/pods?dryRun=All`, probe)).status === 201, `namespace ${ns} accepts pods`);
      return ns;
    },
    cleanup: () => inner.cleanup(),
  };
}
