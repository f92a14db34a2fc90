// Fetching an external issuer's JWKS over HTTPS with an issuer-specific CA.
// Node's global fetch cannot take a per-request CA without undici's Agent (not
// our dependency), so jose gets this small node:https GET instead. Redirects are
// not followed (jose asks for 'manual'), and the body is capped: a JWKS is small.
import { request } from 'node:https';
import type { FetchImplementation } from 'jose';

const MAX_JWKS_BYTES = 1 << 20;

export function httpsFetchWithCa(caPem: string): FetchImplementation {
  return (url, options) =>
    new Promise<Response>((resolve, reject) => {
      const headers: Record<string, string> = {};
      options.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const req = request(url, { method: 'GET', headers, ca: caPem, signal: options.signal }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_JWKS_BYTES) {
            req.destroy(new Error(`JWKS at ${url} is larger than ${MAX_JWKS_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          resolve(new Response(Buffer.concat(chunks), {
            status: res.statusCode ?? 500,
            headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') },
          }));
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
}
