// Placeholder signature; the lead engineer is writing the implementation.
import type { ResourceApi } from './registry/resource-api.ts';

export interface ApiServerOptions {
  host?: string; // default 127.0.0.1
  port?: number; // 0 = any free port
  /** Data directory: CA, certificates, kubeconfig and the durable store. Omit for a fully in-memory server. */
  dataDir?: string;
  simulateWorkloads?: boolean;
  log?: (line: string) => void;
}

export interface RunningApiServer {
  url: string; // https://127.0.0.1:PORT
  port: number;
  caCertPem: string;
  /** Admin kubeconfig (YAML text); also written to DIR/kubeconfig when dataDir is set. */
  kubeconfig: string;
  kubeconfigPath?: string;
  api: ResourceApi;
  stop(): Promise<void>;
}

export async function startApiServer(_options: ApiServerOptions = {}): Promise<RunningApiServer> {
  throw new Error('not implemented yet');
}
