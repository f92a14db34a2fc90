// The gateway's floor: a plain HTTPS passthrough in front of the upstream, with
// http-proxy and the upstream's admin credential, and nothing else: no
// authentication, no translation, no cache. What any proxy hop costs (one more
// TLS termination, one more upstream connection) and so the least the gateway
// can add. Run as its own process, as the gateway is:
//   node --import tsx bench/targets/gateway-floor-proxy.ts --kubeconfig FILE --cert FILE --key FILE
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import httpProxy from 'http-proxy';
import { floorUpstream } from './floor-upstream.ts';

const { values } = parseArgs({ options: { kubeconfig: { type: 'string' }, cert: { type: 'string' }, key: { type: 'string' } } });
if (!values.kubeconfig || !values.cert || !values.key) {
  process.stderr.write('usage: gateway-floor-proxy.ts --kubeconfig FILE --cert FILE --key FILE\n');
  process.exit(2);
}
const upstream = floorUpstream(values.kubeconfig);

// Keep-alive to the upstream, as the gateway keeps its connections: without it
// every request would pay a TLS handshake and the floor would not be a floor.
const agent = new https.Agent({
  keepAlive: true,
  maxSockets: 256,
  ...upstream.tls,
});
const proxy = httpProxy.createProxyServer({ target: upstream.server, agent, secure: true, changeOrigin: true, proxyTimeout: 0 });
proxy.on('error', (_err, _req, res) => {
  // A socket (upgrade) has no writeHead; an HTTP response may have started already.
  if ('writeHead' in res && !res.headersSent) {
    res.writeHead(502, { 'Content-Type': 'application/json' });
    res.end('{"kind":"Status","code":502}');
  } else {
    res.destroy();
  }
});
const server = https.createServer({ cert: readFileSync(values.cert), key: readFileSync(values.key) }, (req, res) => proxy.web(req, res));
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`floor proxy ready https://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
