// One plain HTTP GET on loopback, its whole answer as text (the relay tests of json-response.ts).
import http from 'node:http';

export interface PlainAnswer { status: number; headers: http.IncomingHttpHeaders; rawHeaders: string[]; text: string }

export function plainGet(port: number, path = '/'): Promise<PlainAnswer> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, rawHeaders: res.rawHeaders, text: Buffer.concat(chunks).toString('utf8') }));
    }).on('error', reject);
  });
}
