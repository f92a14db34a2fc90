// The floor: the least a server can do for the same requests. Objects live in a
// Map, each response is JSON.stringify of them, no validation, no auth, no
// durability. Run as its own process (`node --import tsx bench/targets/floor-server.ts`),
// so it gets an event loop to itself, as the embedded server does.
// Speaks just enough of the core/v1 ConfigMap API for the bench suites:
//   POST   /api/v1/namespaces/NS/configmaps          create
//   PUT    /api/v1/namespaces/NS/configmaps/NAME     update
//   GET    /api/v1/namespaces/NS/configmaps/NAME     get
//   GET    /api/v1/namespaces/NS/configmaps          list (?watch=1: watch)
//   POST   /api/v1/namespaces                        accepted, ignored
// With --cert and --key it serves HTTPS with them, to separate TLS cost from server cost.
import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';

interface Obj {
  metadata: Record<string, unknown> & { name?: string; namespace?: string };
  [k: string]: unknown;
}

const { values } = parseArgs({ options: { cert: { type: 'string' }, key: { type: 'string' } } });
const objects = new Map<string, Obj>(); // "ns/name" → object
const watchers = new Set<(line: string) => void>();
let revision = 1;

function send(res: http.ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function readJson(req: http.IncomingMessage): Promise<Obj> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Obj);
      } catch (err) {
        reject(err as Error);
      }
    });
  });
}

function write(type: 'ADDED' | 'MODIFIED', obj: Obj): void {
  const line = `${JSON.stringify({ type, object: obj })}\n`;
  for (const w of watchers) w(line);
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://floor.invalid');
  const parts = url.pathname.split('/').filter(Boolean); // api v1 namespaces NS configmaps [NAME]
  if (req.method === 'POST' && parts.length === 3) {
    send(res, 201, await readJson(req));
    return;
  }
  const ns = parts[3] ?? '';
  const name = parts[5];
  if (parts[4] !== 'configmaps') {
    send(res, 404, { kind: 'Status', code: 404 });
    return;
  }
  if (req.method === 'GET' && name !== undefined) {
    const obj = objects.get(`${ns}/${name}`);
    send(res, obj ? 200 : 404, obj ?? { kind: 'Status', code: 404 });
    return;
  }
  if (req.method === 'GET' && url.searchParams.get('watch')) {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
    const w = (line: string): void => void res.write(line);
    watchers.add(w);
    res.on('close', () => watchers.delete(w));
    return;
  }
  if (req.method === 'GET') {
    const items = [...objects.values()].filter((o) => o.metadata.namespace === ns);
    send(res, 200, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: String(revision) }, items });
    return;
  }
  if (req.method === 'POST' || req.method === 'PUT') {
    const body = await readJson(req);
    const key = `${ns}/${body.metadata.name ?? ''}`;
    const existing = objects.get(key);
    if (req.method === 'POST' && existing) {
      send(res, 409, { kind: 'Status', code: 409 });
      return;
    }
    revision++;
    const obj: Obj = {
      ...body,
      metadata: {
        ...body.metadata,
        namespace: ns,
        uid: existing?.metadata.uid ?? randomUUID(),
        resourceVersion: String(revision),
        creationTimestamp: existing?.metadata.creationTimestamp ?? new Date().toISOString(),
      },
    };
    objects.set(key, obj);
    write(existing ? 'MODIFIED' : 'ADDED', obj);
    send(res, existing ? 200 : 201, obj);
    return;
  }
  send(res, 405, { kind: 'Status', code: 405 });
}

const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
  handle(req, res).catch(() => send(res, 400, { kind: 'Status', code: 400 }));
};
const server = values.cert && values.key
  ? https.createServer({ cert: readFileSync(values.cert), key: readFileSync(values.key) }, handler)
  : http.createServer(handler);
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`floor ready ${values.cert ? 'https' : 'http'}://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
