// The headers a proxied request carries upstream. The client's credential and
// anything hop-by-hop stay at the gateway; Warren's own credential (from
// Upstream.requestOptions()) and the caller's extra headers (impersonation for
// the upstream audit log, a translated Content-Type) go on top.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** RFC 9110 §7.6.1 connection-specific fields, plus proxy credentials. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * Never forwarded, whatever the chain did before: the client's credential is
 * for the gateway only, and identity headers are Warren's to set (the
 * authentication filter strips them first; this is the second lock).
 * `expect` is answered by the gateway's own HTTP server (100-continue).
 * `x-warren-*` is Warren's own protocol with its upstream (progress bookmarks):
 * a tenant does not get to make the upstream bookmark every watch on request.
 */
const NEVER_FORWARDED = /^(authorization|cookie|expect|impersonate-.*|x-remote-.*|x-warren-.*|host)$/;

/** Names listed in the Connection header are hop-by-hop too. */
function connectionListed(headers: IncomingHttpHeaders): Set<string> {
  const value = headers.connection;
  if (typeof value !== 'string') return new Set();
  return new Set(value.split(',').map((name) => name.trim().toLowerCase()).filter(Boolean));
}

export interface OutgoingHeaderOptions {
  /** Keep Connection and Upgrade (exec, attach, port-forward). */
  upgrade?: boolean;
  /** Warren's credential to upstream (e.g. a bearer Authorization), from Upstream.requestOptions().headers. */
  credential?: OutgoingHttpHeaders;
  /** The caller's extra or overriding headers (names case-insensitive). */
  extra?: Record<string, string>;
}

export function outgoingHeaders(incoming: IncomingHttpHeaders, options: OutgoingHeaderOptions = {}): OutgoingHttpHeaders {
  const listed = connectionListed(incoming);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || NEVER_FORWARDED.test(name)) continue;
    const keepForUpgrade = options.upgrade === true && (name === 'connection' || name === 'upgrade');
    if (!keepForUpgrade && (HOP_BY_HOP.has(name) || listed.has(name))) continue;
    out[name] = value;
  }
  for (const [name, value] of Object.entries(options.credential ?? {})) {
    if (value !== undefined) out[name.toLowerCase()] = value;
  }
  for (const [name, value] of Object.entries(options.extra ?? {})) out[name.toLowerCase()] = value;
  return out;
}

/**
 * The framing a client body streamed upstream as it came needs. Transfer-Encoding is hop-by-hop (dropped
 * above), and Node frames a GET's, HEAD's, DELETE's or OPTIONS' body only when told: with neither
 * Content-Length nor Transfer-Encoding it writes the bytes raw after the head, and the upstream reads them
 * as a request of its own on Warren's connection (request smuggling). A body of unknown length goes chunked.
 */
export function streamedBodyFraming(incoming: IncomingHttpHeaders): Record<string, string> {
  return incoming['content-length'] === undefined && incoming['transfer-encoding'] !== undefined ? { 'transfer-encoding': 'chunked' } : {};
}

/** Deletes hop-by-hop fields from an upstream response's headers, in place, before they are copied to the client. */
export function stripResponseHopByHop(headers: IncomingHttpHeaders): void {
  for (const name of connectionListed(headers)) delete headers[name];
  for (const name of HOP_BY_HOP) delete headers[name];
}
