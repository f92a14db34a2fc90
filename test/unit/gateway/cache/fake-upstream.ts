// An in-memory Upstream for the shared cache's unit tests: one collection path
// of objects with a global resourceVersion, paged LISTs (limit/continue), and
// watch streams that receive every later change as JSON lines. It counts LISTs
// and WATCHes so tests can prove that tenants share one upstream watch.
import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { Upstream, UpstreamResponse } from '../../../../src/kube/upstream.ts';

interface Stream { out: PassThrough; from: number }

export class FakeUpstream implements Upstream {
  readonly server = 'https://fake.invalid';
  rv = 100;
  readonly objects = new Map<string, KubeObject>();
  readonly history: { rv: number; line: string }[] = [];
  readonly streams = new Set<Stream>();
  lists = 0;
  watches = 0;
  probes = 0;

  constructor(readonly listPath: string, readonly listKind: string, readonly apiVersion: string) {}

  requestOptions() { return {}; }
  close(): void { for (const s of this.streams) s.out.destroy(); }

  private key(obj: KubeObject): string {
    return obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : obj.metadata.name ?? '';
  }

  /** Writes obj (ADDED or MODIFIED) or deletes it, as the upstream apiserver would, and streams the event. */
  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', input: KubeObject): KubeObject {
    this.rv++;
    const obj: KubeObject = structuredClone({ apiVersion: this.apiVersion, kind: this.listKind.replace(/List$/, ''), ...input });
    obj.metadata.resourceVersion = String(this.rv);
    if (type === 'DELETED') this.objects.delete(this.key(obj));
    else this.objects.set(this.key(obj), obj);
    const line = `${JSON.stringify({ type, object: obj })}\n`;
    this.history.push({ rv: this.rv, line });
    for (const s of this.streams) s.out.write(line);
    return obj;
  }

  /** Moves the version without touching this resource (a write elsewhere upstream). */
  bump(): void { this.rv++; }

  bookmark(): void {
    const line = `${JSON.stringify({ type: 'BOOKMARK', object: { apiVersion: this.apiVersion, kind: 'X', metadata: { resourceVersion: String(this.rv) } } })}\n`;
    for (const s of this.streams) s.out.write(line);
  }

  async request<T = unknown>(method: string, path: string): Promise<UpstreamResponse<T>> {
    const url = new URL(path, 'https://fake.invalid');
    if (method !== 'GET' || url.pathname !== this.listPath) {
      return { status: 404, headers: {}, body: { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, metadata: {} } as T };
    }
    const limit = Number(url.searchParams.get('limit') ?? '0');
    if (limit === 1) this.probes++;
    else this.lists++;
    const keys = [...this.objects.keys()].sort();
    const start = Number(url.searchParams.get('continue') || '0');
    const end = limit > 0 ? Math.min(keys.length, start + limit) : keys.length;
    // Items of a built-in list carry no kind on the wire.
    const items = keys.slice(start, end).map((k) => {
      const { apiVersion: _a, kind: _k, ...rest } = structuredClone(this.objects.get(k)!);
      return rest;
    });
    const metadata: Record<string, unknown> = { resourceVersion: String(this.rv) };
    if (end < keys.length) metadata.continue = String(end);
    return { status: 200, headers: {}, body: { apiVersion: this.apiVersion, kind: this.listKind, metadata, items } as T };
  }

  async stream(path: string): Promise<IncomingMessage> {
    this.watches++;
    const url = new URL(path, 'https://fake.invalid');
    const from = Number(url.searchParams.get('resourceVersion') ?? '0');
    const out = new PassThrough();
    const s: Stream = { out, from };
    Object.assign(out, { statusCode: 200, headers: {} });
    this.streams.add(s);
    out.on('close', () => this.streams.delete(s));
    for (const h of this.history) if (h.rv > from) out.write(h.line);
    return out as unknown as IncomingMessage;
  }

  /** Ends every upstream watch with a 410 ERROR, so informers relist. */
  expireWatches(): void {
    const line = `${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410, message: 'too old', metadata: {} } })}\n`;
    for (const s of this.streams) s.out.write(line);
  }
}
