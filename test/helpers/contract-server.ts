// The apiserver under contract: a real one when WARREN_CONTRACT_KUBECONFIG names
// a kubeconfig file, otherwise an embedded in-memory Warren apiserver. Tests
// only ever see a kubeconfig, so they cannot lean on anything Warren-specific.
import { readFileSync } from 'node:fs';
import { KubeHttp, type KubeconfigAccess } from './kube-http.ts';

export interface ContractServer {
  /** True when the suite runs against an apiserver it did not start (durability tests skip). */
  external: boolean;
  kubeconfig: string;
  http: KubeHttp;
  kubeConfig: KubeconfigAccess;
  stop(): Promise<void>;
}

export const EXTERNAL_KUBECONFIG = process.env.WARREN_CONTRACT_KUBECONFIG;

export async function contractServer(): Promise<ContractServer> {
  if (EXTERNAL_KUBECONFIG) {
    const kubeconfig = readFileSync(EXTERNAL_KUBECONFIG, 'utf8');
    const http = new KubeHttp(kubeconfig);
    return { external: true, kubeconfig, http, kubeConfig: http.kubeConfig, stop: async () => {} };
  }
  // Imported lazily so the suite can run against a real server even while the
  // embedded one does not load.
  const { startApiServer } = await import('../../src/apiserver/server.ts');
  const running = await startApiServer({ port: 0 });
  const http = new KubeHttp(running.kubeconfig);
  return { external: false, kubeconfig: running.kubeconfig, http, kubeConfig: http.kubeConfig, stop: () => running.stop() };
}

/** An embedded server with a data directory, for tests of durability (never external). */
export async function durableEmbeddedServer(dataDir: string, options: { simulateWorkloads?: boolean } = {}): Promise<ContractServer> {
  const { startApiServer } = await import('../../src/apiserver/server.ts');
  const running = await startApiServer({ port: 0, dataDir, ...options });
  const http = new KubeHttp(running.kubeconfig);
  return { external: false, kubeconfig: running.kubeconfig, http, kubeConfig: http.kubeConfig, stop: () => running.stop() };
}
