// exec, attach and port-forward: the client asks to switch protocols (SPDY/3.1
// or a WebSocket subprotocol such as v5.channel.k8s.io) and, once upstream
// answers 101, bytes flow both ways untouched. http-proxy's ws() only accepts
// `Upgrade: websocket` and destroys SPDY upgrades, so this path is our own.
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { outgoingHeaders } from './request-headers.ts';
import { sendStatusToSocket, upstreamFailure, UpstreamTimeoutError } from './proxy-errors.ts';
import type { UpstreamConnection } from './upstream-connection.ts';

export interface UpgradeTarget {
  path: string;
  headers?: Record<string, string>;
}

const FRAMING = /^(connection|keep-alive|transfer-encoding|content-length)$/i;

/**
 * The response head as upstream sent it (rawHeaders keep case and repeats,
 * which some SPDY clients care about). For a refusal the body is relayed
 * decoded and the connection closed after it, so framing headers are replaced.
 */
function responseHead(res: IncomingMessage, switched: boolean): string {
  const lines = [`HTTP/1.1 ${res.statusCode ?? 502} ${res.statusMessage ?? ''}`];
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    const name = res.rawHeaders[i] ?? '';
    if (!switched && FRAMING.test(name)) continue;
    lines.push(`${name}: ${res.rawHeaders[i + 1] ?? ''}`);
  }
  if (!switched) lines.push('Connection: close');
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export function tunnelUpgrade(connection: UpstreamConnection, timeoutMs: number, request: { req: IncomingMessage; socket: Duplex; head: Buffer; target: UpgradeTarget }): void {
  const { req, socket, head, target } = request;
  const upstreamReq = https.request({
    ...connection.tls,
    hostname: connection.hostname,
    port: connection.port,
    method: req.method,
    path: target.path,
    // An upgraded connection never returns to a pool.
    agent: false,
    headers: outgoingHeaders(req.headers, { upgrade: true, credential: connection.credentialHeaders, extra: target.headers }),
  });
  const timer = setTimeout(() => upstreamReq.destroy(new UpstreamTimeoutError(timeoutMs)), timeoutMs);
  socket.on('error', () => upstreamReq.destroy());
  socket.on('close', () => upstreamReq.destroy());
  upstreamReq.on('error', (err) => {
    clearTimeout(timer);
    sendStatusToSocket(socket, upstreamFailure(err));
  });

  upstreamReq.on('upgrade', (upstreamRes: IncomingMessage, upstreamSocket: Socket, upstreamHead: Buffer) => {
    clearTimeout(timer);
    upstreamSocket.setNoDelay(true);
    socket.write(responseHead(upstreamRes, true));
    if (upstreamHead.length > 0) socket.write(upstreamHead);
    // Either side closing or failing closes the other: a half-dead exec session must not linger.
    upstreamSocket.on('error', () => socket.destroy());
    socket.on('error', () => upstreamSocket.destroy());
    socket.on('close', () => upstreamSocket.destroy());
    upstreamSocket.on('close', () => socket.destroy());
    upstreamSocket.pipe(socket);
    socket.pipe(upstreamSocket);
  });

  // Upstream refused to switch (403, 404, 400 with a Status): pass its answer on and close.
  upstreamReq.on('response', (upstreamRes: IncomingMessage) => {
    clearTimeout(timer);
    socket.write(responseHead(upstreamRes, false));
    upstreamRes.pipe(socket);
    upstreamRes.on('error', () => socket.destroy());
  });

  // Bytes the client sent after its request head belong to the new protocol: replay them once the tunnel is up.
  if (head.length > 0) socket.unshift(head);
  upstreamReq.end();
}
