// The gateway's and controllers' only way to the upstream cluster: plain HTTPS
// with Warren's own credential, JSON in and out. Implemented in
// upstream-client.ts from a kubeconfig; faked in unit tests.
import type { IncomingMessage } from 'node:http';
import type { RequestOptions } from 'node:https';

export interface UpstreamResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

export interface Upstream {
  /** https://host:port of the upstream apiserver. */
  readonly server: string;
  /** TLS and auth options to reach it (for the proxy adapter). */
  requestOptions(): RequestOptions;
  /** A JSON request; a non-2xx answer is returned, not thrown (callers map Status errors). Network failures throw. */
  request<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<UpstreamResponse<T>>;
  /** Opens a streaming GET (watch); the caller reads and closes it. */
  stream(path: string, headers?: Record<string, string>): Promise<IncomingMessage>;
  close(): void;
}
