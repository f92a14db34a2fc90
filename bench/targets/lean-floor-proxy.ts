// The fair floor of any proxy hop (issue 18): an HTTPS server that sends each
// request upstream as one `https.request` on a kept-alive agent with the
// upstream's admin certificate, and pipes the body and the answer through
// without parsing either. No authentication, translation, guard or cache: what
// one more TLS termination, one more upstream connection and Node's HTTP
// parsing of both legs cost, and so the least the gateway can add.
// (gateway-floor-proxy.ts does the same with http-proxy, whose per-request
// passes cost more than the hop itself.) Run as its own process, as the
// gateway is:
//   node --import tsx bench/targets/lean-floor-proxy.ts --kubeconfig FILE --cert FILE --key FILE
//        [--upstream-socket PATH --token TOKEN]
// With --upstream-socket the upstream leg is plain HTTP over that Unix socket
// with a bearer token (the upstream must listen there: plain-upstream-listener.mjs),
// to size the TLS leg's share of the floor.
import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { floorUpstream } from './floor-upstream.ts';

const { values } = parseArgs({ options: {
  kubeconfig: { type: 'string' }, cert: { type: 'string' }, key: { type: 'string' },
  'upstream-socket': { type: 'string' }, token: { type: 'string' },
} });
if (!values.kubeconfig || !values.cert || !values.key || (values['upstream-socket'] !== undefined && !values.token)) {
  process.stderr.write('usage: lean-floor-proxy.ts --kubeconfig FILE --cert FILE --key FILE [--upstream-socket PATH --token TOKEN]\n');
  process.exit(2);
}
const upstream = floorUpstream(values.kubeconfig);
const target = new URL(upstream.server);

/** Hop-by-hop fields (RFC 9110 §7.6.1): Node frames each leg itself. */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);
const copyHeaders = (from: http.IncomingHttpHeaders, extra: Record<string, string>): http.OutgoingHttpHeaders => {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(from)) if (value !== undefined && !HOP.has(name)) out[name] = value;
  return { ...out, ...extra };
};

const socketPath = values['upstream-socket'];
// Keep-alive on the upstream leg, as the gateway keeps its connections: a TLS handshake per
// request would make this no floor.
const send: (options: http.RequestOptions) => http.ClientRequest = socketPath
  ? ((agent) => (o) => http.request({ ...o, agent, socketPath }))(new http.Agent({ keepAlive: true, maxSockets: 256 }))
  : ((agent) => (o) => https.request({ ...o, agent, host: target.hostname, port: Number(target.port || 443) }))(new https.Agent({
    keepAlive: true,
    maxSockets: 256,
    ...upstream.tls,
  }));
const credential: Record<string, string> = socketPath ? { authorization: `Bearer ${values.token}` } : {};

const server = https.createServer({ cert: readFileSync(values.cert), key: readFileSync(values.key) }, (req, res) => {
  const upstreamReq = send({ method: req.method, path: req.url, headers: copyHeaders(req.headers, credential) });
  upstreamReq.on('response', (upstreamRes) => {
    res.writeHead(upstreamRes.statusCode ?? 502, copyHeaders(upstreamRes.headers, {}));
    upstreamRes.pipe(res);
  });
  upstreamReq.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' }).end('{"kind":"Status","code":502}');
    else res.destroy();
  });
  res.on('close', () => {
    if (!res.writableFinished) upstreamReq.destroy();
  });
  req.pipe(upstreamReq);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`floor proxy ready https://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
