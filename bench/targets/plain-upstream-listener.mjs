// Diagnostic preload for `warren apiserver` (issue 18, session 12): besides its
// HTTPS listener, the apiserver also serves the same handler as plain HTTP on the
// Unix socket $WARREN_BENCH_PLAIN_SOCKET, so a bench can measure a proxy's
// upstream leg without TLS (lean-floor-proxy.ts --upstream-socket). Bench only:
// plain HTTP carries the credential in clear, which is why the product has no such
// listener. Use: the upstream's node flags `--import <this file>`.
import http from 'node:http';
import https from 'node:https';
import { rmSync } from 'node:fs';

const socketPath = process.env.WARREN_BENCH_PLAIN_SOCKET;
if (socketPath && process.argv.includes('apiserver')) {
  const createServer = https.createServer;
  https.createServer = function withPlainTwin(options, handler) {
    const server = createServer.call(this, options, handler);
    rmSync(socketPath, { force: true });
    const plain = http.createServer(handler);
    plain.keepAliveTimeout = 65_000;
    plain.listen(socketPath);
    server.once('close', () => plain.close());
    return server;
  };
}
