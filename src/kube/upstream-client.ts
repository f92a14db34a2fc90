// The Upstream implementation: plain node:https with keep-alive, TLS and auth
// taken from a kubeconfig (kubeconfig-view for static credentials; client-node's
// authenticators, loaded on demand, for exec and auth-provider users), JSON in and out.
// Failures the caller cannot act on (connection refused, reset, timeout) become
// Status errors that say nothing about where the upstream is: those messages can
// travel all the way to a tenant.
import https from 'node:https';
import tls_ from 'node:tls';
import { isIP } from 'node:net';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { readFileSync } from 'node:fs';
import type { KubeConfig } from '@kubernetes/client-node';
import { ApiError } from '../core/api-error.ts';
import type { Upstream, UpstreamResponse } from './upstream.ts';
import { UPSTREAM_IDLE_SOCKET_MS } from './upstream-idle.ts';
import { applyStaticOptions, currentCluster, needsKubeClient, parseKubeconfig } from './kubeconfig-view.ts';
import { createLeanPool, DeadlineExceededError, StaleConnectionError, type LeanPool } from './lean-https.ts';

export interface UpstreamOptions {
  /** Deadline for a whole request/response, and for a stream's headers (default 30 s). */
  timeoutMs?: number;
  /** Keep-alive pool size for request() (default 128); streams use a pool of their own. */
  maxSockets?: number;
  /** Idle lifetime of a pooled connection (default UPSTREAM_IDLE_SOCKET_MS; tests shorten it). */
  idleSocketMs?: number;
}

export const UNAVAILABLE_MESSAGE = 'the upstream apiserver is unavailable';
// kube-apiserver's wording for 504 (apimachinery errors.NewTimeoutError callers).
export const TIMEOUT_MESSAGE = 'the server was unable to return a response in the time allotted, but may still be processing the request';

// Node's connection-level error codes that mean "nobody answered": the request
// may or may not have reached the upstream, the caller only learns it is down.
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH',
  'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED', 'ERR_SOCKET_CLOSED', 'UND_ERR_SOCKET']);

let kubeClient: Promise<typeof KubeConfig> | undefined;
let loadedKubeClient: typeof KubeConfig | undefined;

/**
 * Loads client-node (about a thousand modules), which only exec and auth-provider users
 * need. Await it before createUpstream for an upstream whose requestOptions() are read
 * before its first request (the gateway's proxy takes Warren's credential from them once).
 */
export function loadKubeClient(): Promise<typeof KubeConfig> {
  kubeClient ??= import('@kubernetes/client-node').then((m) => (loadedKubeClient = m.KubeConfig));
  return kubeClient;
}

/** True when this kubeconfig's user needs client-node (see loadKubeClient). */
export function kubeconfigNeedsClient(kubeconfig: { yaml?: string; path?: string }): boolean {
  return needsKubeClient(parseKubeconfig(kubeconfigText(kubeconfig)));
}

function kubeconfigText(kubeconfig: { yaml?: string; path?: string }): string {
  if (kubeconfig.yaml !== undefined) return kubeconfig.yaml;
  if (kubeconfig.path !== undefined) return readFileSync(kubeconfig.path, 'utf8');
  throw new Error('createUpstream: give the kubeconfig as yaml or path');
}

export function createUpstream(kubeconfig: { yaml?: string; path?: string }, options: UpstreamOptions = {}): Upstream {
  const text = kubeconfigText(kubeconfig);
  const view = parseKubeconfig(text);
  const cluster = currentCluster(view);
  if (!cluster) throw new Error('createUpstream: the kubeconfig has no current cluster');
  const server = cluster.server.replace(/\/+$/, '');
  const url = new URL(server);
  const timeoutMs = options.timeoutMs ?? 30_000;
  // Idle sockets close before the upstream's own limit (ADR 0036): the engine's and onboarding's writes
  // raced an upstream closing an idle socket, as the gateway's did. The timeout closes free sockets only.
  const timeout = options.idleSocketMs ?? UPSTREAM_IDLE_SOCKET_MS;
  const agent = new https.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 128, timeout });
  // Watches hold a socket for minutes: a separate pool keeps them from starving request().
  const streamAgent = new https.Agent({ keepAlive: true, timeout });

  // Static credentials (client certificate, CA, token) fill `tls` right here, so
  // requestOptions() is complete at once. Exec and auth-provider users get their
  // token from client-node on the first request, and a fresh one on each; their
  // requestOptions() throw until client-node is loaded (loadKubeClient), rather
  // than hand out options without the credential.
  const tls: https.RequestOptions = { headers: {} };
  const dynamicAuth = needsKubeClient(view);
  let kc: KubeConfig | undefined;
  const dynamicOptions = async (): Promise<void> => {
    if (!kc) {
      const Client = loadedKubeClient ?? (await loadKubeClient());
      kc = new Client();
      kc.loadFromString(text);
    }
    await kc.applyToHTTPSOptions(tls);
  };
  let ready: Promise<void> = Promise.resolve();
  if (!dynamicAuth) applyStaticOptions(view, tls);
  else if (loadedKubeClient) ready = dynamicOptions();
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port || 443;
  const pathPrefix = url.pathname.replace(/\/$/, '');

  async function currentOptions(): Promise<https.RequestOptions> {
    if (dynamicAuth) ready = dynamicOptions();
    await ready;
    return tls;
  }

  // The TLS material as one SecureContext, made once. Given ca/cert/key instead, every new
  // connection parses the PEMs again (tls.createSecureContext, ~1.5 ms) and every request
  // folds them into the agent's pool key (https.Agent.getName); both showed in `warren
  // serve`'s profile while onboarding (issue 4). The pool key then no longer names the
  // material, so a user whose material comes from an exec plugin keeps per-connection
  // options: a pooled socket must never carry an older client certificate.
  let shared: { from: https.RequestOptions; ca: unknown; cert: unknown; key: unknown; pfx: unknown; options: https.RequestOptions } | undefined;
  function connectionOptions(base: https.RequestOptions): https.RequestOptions {
    if (dynamicAuth) return base;
    if (shared && shared.from === base && shared.ca === base.ca && shared.cert === base.cert && shared.key === base.key && shared.pfx === base.pfx) return shared.options;
    const { ca, cert, key, pfx, passphrase, ...rest } = base;
    const secureContext = tls_.createSecureContext({
      ...(ca !== undefined ? { ca } : {}), ...(cert !== undefined ? { cert } : {}), ...(key !== undefined ? { key } : {}),
      ...(pfx !== undefined ? { pfx } : {}), ...(passphrase !== undefined ? { passphrase } : {}),
    });
    const options: https.RequestOptions & Pick<tls_.ConnectionOptions, 'secureContext'> = { ...rest, secureContext };
    shared = { from: base, ca, cert, key, pfx, options };
    return options;
  }

  function baseOptions(method: string, path: string, base: https.RequestOptions, headers: Record<string, string>): https.RequestOptions {
    return {
      ...connectionOptions(base),
      protocol: 'https:',
      hostname,
      port,
      method,
      path: pathPrefix + path,
      headers: { ...(base.headers as Record<string, string>), Accept: 'application/json', ...headers },
    };
  }

  // Static credentials: request() goes through the lean pool (ADR 0041); exec and auth-provider users keep
  // the agent, whose options carry a fresh credential per connection.
  let lean: LeanPool | undefined;
  function leanPool(base: https.RequestOptions): LeanPool {
    if (lean) return lean;
    const { secureContext, rejectUnauthorized, servername, checkServerIdentity } = connectionOptions(base) as https.RequestOptions & tls_.ConnectionOptions;
    const tlsOptions: tls_.ConnectionOptions = { host: hostname, port: Number(port), secureContext };
    if (rejectUnauthorized !== undefined) tlsOptions.rejectUnauthorized = rejectUnauthorized;
    if (checkServerIdentity !== undefined) tlsOptions.checkServerIdentity = checkServerIdentity;
    // SNI as node:https sends it: the given name, else the host unless it is an address.
    const sni = servername ?? (isIP(hostname) ? undefined : hostname);
    if (sni) tlsOptions.servername = sni;
    lean = createLeanPool({ connect: (session) => tls_.connect(session ? { ...tlsOptions, session } : tlsOptions), host: url.host, maxSockets: options.maxSockets ?? 128, idleMs: timeout });
    return lean;
  }

  async function request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<UpstreamResponse<T>> {
    const base = await currentOptions();
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const allHeaders = payload ? { ...headers } : headers;
    if (payload) {
      allHeaders['Content-Type'] ??= 'application/json';
      allHeaders['Content-Length'] = String(payload.length);
    }
    if (!dynamicAuth) {
      const pool = leanPool(base);
      const req = { method, path: pathPrefix + path, headers: { ...basicAuth(base), ...(base.headers as Record<string, string>), Accept: 'application/json', ...allHeaders }, payload, timeoutMs };
      return await onceMoreIfStaleRead(method, () => leanExchange<T>(pool, req));
    }
    const opts = baseOptions(method, path, base, allHeaders);
    opts.agent = agent;
    return await onceMoreIfStaleRead(method, () => exchange<T>(opts, payload, timeoutMs));
  }

  async function stream(path: string, headers: Record<string, string> = {}): Promise<IncomingMessage> {
    const base = await currentOptions();
    const opts = { ...baseOptions('GET', path, base, headers), agent: streamAgent };
    return await new Promise<IncomingMessage>((resolve, reject) => {
      const req = https.request(opts, (res) => {
        clearTimeout(timer);
        resolve(res);
      });
      const timer = setTimeout(() => req.destroy(new DeadlineError()), timeoutMs);
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(toApiError(err));
      });
      req.end();
    });
  }

  return {
    server,
    requestOptions: () => {
      if (dynamicAuth && !kc) throw new Error('createUpstream: this kubeconfig\'s user (exec or auth-provider) needs client-node: await loadKubeClient() before reading requestOptions()');
      return { ...tls, headers: { ...(tls.headers as Record<string, string>) }, agent };
    },
    request,
    stream,
    close() {
      lean?.close();
      agent.destroy();
      streamAgent.destroy();
    },
  };
}

class DeadlineError extends Error {}
class StaleSocketError extends Error {}

function unavailable(): ApiError {
  return new ApiError('ServiceUnavailable', UNAVAILABLE_MESSAGE);
}

/** Maps a Node network error to a Status error; anything else (a bug, a TLS misconfiguration) is unavailable too, with no address in the message. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof DeadlineError) return new ApiError('Timeout', TIMEOUT_MESSAGE);
  const code = (err as { code?: string }).code;
  if (code === 'ETIMEDOUT') return new ApiError('Timeout', TIMEOUT_MESSAGE);
  if (code && UNAVAILABLE_CODES.has(code)) return unavailable();
  return unavailable();
}

function exchange<T>(opts: https.RequestOptions, payload: Buffer | undefined, timeoutMs: number): Promise<UpstreamResponse<T>> {
  return new Promise((resolve, reject) => {
    let req: ClientRequest | undefined = undefined;
    const timer = setTimeout(() => req?.destroy(new DeadlineError()), timeoutMs);
    const fail = (err: unknown): void => {
      clearTimeout(timer);
      const code = (err as { code?: string }).code;
      if (req?.reusedSocket && code === 'ECONNRESET') reject(new StaleSocketError());
      else reject(toApiError(err));
    };
    req = https.request(opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', fail);
      res.on('end', () => {
        clearTimeout(timer);
        const text = chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parseBody(text, res.headers['content-type']) as T });
      });
    });
    req.on('error', fail);
    req.end(payload);
  });
}

/**
 * Sends once, and a read once more when it met a keep-alive connection the upstream closed while idle
 * (Node's documented pattern, for both pools); a write is not sent again: it may have landed (a create
 * twice is not one create), and its caller gets the unavailable Status.
 */
async function onceMoreIfStaleRead<T>(method: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (err instanceof StaleSocketError && (method === 'GET' || method === 'HEAD')) return await send();
    throw err instanceof StaleSocketError ? unavailable() : err;
  }
}

/** The `auth` option (a kubeconfig's username and password) as node:https sends it. */
function basicAuth(base: https.RequestOptions): Record<string, string> {
  return base.auth ? { Authorization: `Basic ${Buffer.from(base.auth).toString('base64')}` } : {};
}

async function leanExchange<T>(pool: LeanPool, req: Parameters<LeanPool['request']>[0]): Promise<UpstreamResponse<T>> {
  let res;
  try {
    res = await pool.request(req);
  } catch (err) {
    if (err instanceof StaleConnectionError) throw new StaleSocketError();
    if (err instanceof DeadlineExceededError) throw toApiError(new DeadlineError());
    if (err instanceof TypeError) throw err; // a path or header node:https would refuse too
    throw toApiError(err);
  }
  const type = res.headers['content-type'];
  return { status: res.status, headers: res.headers, body: parseBody(res.body.toString('utf8'), Array.isArray(type) ? type.join(', ') : type) as T };
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === '') return undefined;
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
