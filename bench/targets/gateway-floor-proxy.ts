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
import { parse } from 'yaml';

interface KubeconfigDoc {
  clusters?: { cluster?: { server?: string; 'certificate-authority-data'?: string } }[];
  users?: { user?: { 'client-certificate-data'?: string; 'client-key-data'?: string } }[];
}

const { values } = parseArgs({ options: { kubeconfig: { type: 'string' }, cert: { type: 'string' }, key: { type: 'string' } } });
if (!values.kubeconfig || !values.cert || !values.key) {
  process.stderr.write('usage: gateway-floor-proxy.ts --kubeconfig FILE --cert FILE --key FILE\n');
  process.exit(2);
}
const doc = parse(readFileSync(values.kubeconfig, 'utf8')) as KubeconfigDoc;
const cluster = doc.clusters?.[0]?.cluster;
const user = doc.users?.[0]?.user;
const b64 = (s: string | undefined): string => Buffer.from(s ?? '', 'base64').toString('utf8');
if (!cluster?.server) throw new Error('kubeconfig: no cluster server');

// Keep-alive to the upstream, as the gateway keeps its connections: without it
// every request would pay a TLS handshake and the floor would not be a floor.
const agent = new https.Agent({
  keepAlive: true,
  maxSockets: 256,
  ca: b64(cluster['certificate-authority-data']),
  cert: b64(user?.['client-certificate-data']),
  key: b64(user?.['client-key-data']),
});
const proxy = httpProxy.createProxyServer({ target: cluster.server, agent, secure: true, changeOrigin: true, proxyTimeout: 0 });
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
