// Per-file set-up for contract tests: one server per test file (node --test runs
// each file in its own process), namespaces cleaned up at the end.
import { before, after } from 'node:test';
import { contractServer, type ContractServer } from './contract-server.ts';
import { testNamespaces, type TestNamespaces } from './test-namespace.ts';
import type { KubeHttp } from './kube-http.ts';

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
    ctx.namespaces = testNamespaces(ctx.http);
  });
  after(async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => undefined);
    await ctx.namespaces?.cleanup();
    await ctx.server?.stop();
  });
  return ctx;
}
