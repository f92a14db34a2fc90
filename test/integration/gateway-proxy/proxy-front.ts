// The smallest gateway: an HTTP server that hands every request to the proxy
// adapter with the identity translation. `x-test-mode: json | watch` selects
// the self-handled response paths, `x-test-body` a replacement body.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy, type ProxyOptions } from '../../../src/gateway/proxy/proxy-adapter.ts';
import { sendTranslatedJson } from '../../../src/gateway/proxy/json-response.ts';
import { sendTranslatedWatch } from '../../../src/gateway/proxy/watch-response.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';

export interface ProxyFront {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function startProxyFront(upstream: Upstream, options: ProxyOptions & { extraHeaders?: Record<string, string> } = {}): Promise<ProxyFront> {
  const proxy = createProxy(upstream, options);
  const same = (body: unknown): unknown => body;
  const server = http.createServer((req, res) => {
    const mode = req.headers['x-test-mode'];
    const body = req.headers['x-test-body'];
    proxy.forward(req, res, {
      path: req.url ?? '/',
      ...(options.extraHeaders ? { headers: options.extraHeaders } : {}),
      ...(typeof body === 'string' ? { body: Buffer.from(body) } : {}),
      ...(mode === 'json' ? { onResponse: (upstreamRes, _req, out) => void sendTranslatedJson(upstreamRes, out, { translate: same }) } : {}),
      ...(mode === 'watch' ? { onResponse: (upstreamRes, _req, out) => void sendTranslatedWatch(upstreamRes, out, { translateEvent: (e) => e, translateBody: same }) } : {}),
    });
  });
  server.on('upgrade', (req, socket, head) => proxy.upgrade(req, socket, head, { path: req.url ?? '/' }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: async () => {
      proxy.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
