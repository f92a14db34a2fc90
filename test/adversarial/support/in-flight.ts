// A request whose body is known to have been handed to the socket before its
// answer comes back: heavy-body tests must measure another tenant's request
// while this one is in flight, not before it has even left the client.
import https from 'node:https';
import type { KubeHttp } from '../../helpers/kube-http.ts';

export interface InFlight {
  /** Resolves once the whole body has been written to the socket. */
  written: Promise<void>;
  /** The answer, whenever it comes (or the error, as status 0). */
  answer: Promise<{ status: number; text: string; at: number }>;
}

async function optionsFor(client: KubeHttp, method: string, path: string, headers: Record<string, string>): Promise<https.RequestOptions> {
  const url = new URL(client.server + path);
  const opts: https.RequestOptions = { method, hostname: url.hostname, port: url.port, path: url.pathname + url.search, headers: { Accept: 'application/json', ...headers }, agent: false };
  await client.kubeConfig.applyToHTTPSOptions(opts);
  return opts;
}

export async function sendInFlight(client: KubeHttp, method: string, path: string, body: string, contentType = 'application/json'): Promise<InFlight> {
  const opts = await optionsFor(client, method, path, { 'Content-Type': contentType, 'Content-Length': String(Buffer.byteLength(body)) });
  let wrote!: () => void;
  const written = new Promise<void>((resolve) => { wrote = resolve; });
  const answer = new Promise<{ status: number; text: string; at: number }>((resolve) => {
    const req = https.request(opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), at: Date.now() }));
    });
    req.on('error', (err) => { wrote(); resolve({ status: 0, text: String(err), at: Date.now() }); });
    req.on('finish', () => wrote());
    req.setTimeout(180_000, () => req.destroy(new Error('no answer in 180 s')));
    req.end(body);
  });
  return { written, answer };
}
