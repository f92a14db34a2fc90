// The per-tenant /openapi/v2 on a real 1.20 host was 55.7 MB (14x the upstream's
// 4 MB) and its protobuf form 4 bytes: kube-openapi of that era answers with
// Content-Type text/plain, the upstream client handed back a string, and
// `{ ...string }` made one `"123":"c"` property per character. These tests serve
// the document the way 1.20 does (text/plain, ETag, 304 on If-None-Match).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import fc from 'fast-check';
import { createOpenApiService } from '../../../../src/gateway/answered/openapi.ts';
import { swaggerOfBody } from '../../../../src/gateway/answered/openapi-upstream-v2.ts';
import { encodeOpenApiV2Protobuf, OPENAPI_V2_PROTOBUF_ACCEPT } from '../../../../src/core/openapi-protobuf/index.ts';
import type { TenantContext } from '../../../../src/core/tenancy/tenant-context.ts';
import type { Upstream, UpstreamResponse } from '../../../../src/kube/upstream.ts';
import { decodeOpenApiV2 } from '../../core/openapi-protobuf/openapi-v2-decoder.ts';

type Obj = Record<string, unknown>;

const ID = 'abc123';
const OTHER = 'zzz999';

/** A swagger document with built-in, own and another tenant's CRD groups, and many shared $refs. */
function hostSwagger(): Obj {
  const definitions: Obj = {
    'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { type: 'object', properties: { name: { type: 'string', description: 'Name.' } } },
    // Shared: one GVK per group, hidden ones included, as on 1.20 ("extensions", "imagepolicy.k8s.io").
    'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions': {
      type: 'object',
      'x-kubernetes-group-version-kind': ['', 'apps', 'extensions', 'imagepolicy.k8s.io', `${ID}-a.com`, `${OTHER}-a.com`].map((group) => ({ group, version: 'v1', kind: 'DeleteOptions' })),
    },
    'io.k8s.api.policy.v1beta1.Eviction': {
      type: 'object',
      properties: { deleteOptions: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions' } },
      'x-kubernetes-group-version-kind': [{ group: 'policy', version: 'v1beta1', kind: 'Eviction' }],
    },
  };
  const paths: Obj = {};
  for (let i = 0; i < 40; i++) {
    definitions[`io.k8s.api.apps.v1.Kind${i}`] = {
      type: 'object',
      description: `Kind ${i}, described at some length so that the document has weight.`,
      properties: { metadata: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }, spec: { type: 'object' } },
      'x-kubernetes-group-version-kind': [{ group: 'apps', version: 'v1', kind: `Kind${i}` }],
    };
    paths[`/apis/apps/v1/kind${i}s`] = { get: { operationId: `listKind${i}`, responses: { 200: { description: 'OK', schema: { $ref: `#/definitions/io.k8s.api.apps.v1.Kind${i}` } } } } };
  }
  for (const [id, kind] of [[ID, 'Mine'], [OTHER, 'Theirs']] as const) {
    definitions[`com.${id}-a.v1.${kind}`] = { type: 'object', 'x-kubernetes-group-version-kind': [{ group: `${id}-a.com`, version: 'v1', kind }] };
    paths[`/apis/${id}-a.com/v1/${kind.toLowerCase()}s`] = { get: { operationId: `list${kind}` } };
  }
  return { swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.20.2' }, paths, definitions };
}

interface FakeHost extends Upstream {
  calls: Array<{ ifNoneMatch?: string; status: number; bytes: number }>;
  setDoc(doc: Obj): void;
}

/** Serves /openapi/v2 as kube-apiserver 1.20 does: text/plain, quoted ETag, 304 for a matching If-None-Match. */
function fakeHost(doc: Obj): FakeHost {
  let text = JSON.stringify(doc);
  let etag = '"E1"';
  const calls: FakeHost['calls'] = [];
  return {
    server: 'https://host.invalid',
    calls,
    setDoc(d) {
      text = JSON.stringify(d);
      etag = `"E${calls.length + 2}"`;
    },
    requestOptions: () => ({}),
    async request<T>(method: string, path: string, _body?: unknown, headers: Record<string, string> = {}): Promise<UpstreamResponse<T>> {
      assert.equal(`${method} ${path}`, 'GET /openapi/v2');
      await new Promise((r) => setImmediate(r));
      if (headers['If-None-Match'] === etag) {
        calls.push({ ifNoneMatch: etag, status: 304, bytes: 0 });
        return { status: 304, headers: { etag }, body: undefined as T };
      }
      calls.push({ ifNoneMatch: headers['If-None-Match'], status: 200, bytes: text.length });
      return { status: 200, headers: { etag, 'content-type': 'text/plain; charset=utf-8' }, body: text as T };
    },
    stream: () => Promise.reject(new Error('no streams here')),
    close() {},
  };
}

interface Answer { status: number; headers: Obj; body: Buffer }

async function get(service: ReturnType<typeof createOpenApiService>, headers: Record<string, string> = {}, id = ID): Promise<Answer> {
  const answer: Answer = { status: 0, headers: {}, body: Buffer.alloc(0) };
  const res = {
    writeHead(status: number, h: Obj) {
      answer.status = status;
      answer.headers = h;
      return res;
    },
    end(body?: string | Uint8Array) {
      if (body !== undefined) answer.body = Buffer.from(body);
    },
  };
  const req = { headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])), url: '/openapi/v2' };
  await service.serve(req as unknown as IncomingMessage, res as unknown as ServerResponse, { id } as TenantContext, '/openapi/v2');
  return answer;
}

describe('gateway /openapi/v2 on a host that answers text/plain (kube-apiserver 1.20)', () => {
  it('is the upstream document minus other tenants\' groups, not one property per character', async () => {
    const doc = hostSwagger();
    const service = createOpenApiService(fakeHost(doc));
    const answer = await get(service, { Accept: 'application/json' });
    assert.equal(answer.status, 200);
    const served = JSON.parse(answer.body.toString('utf8')) as Obj;
    assert.equal(served['0'], undefined, 'the document was spread as a string');
    assert.equal(served.swagger, '2.0');
    const definitions = Object.keys(served.definitions as Obj);
    assert.ok(definitions.includes('com.a.v1.Mine'), 'own group shown unprefixed');
    assert.ok(!definitions.some((d) => d.includes(OTHER) || d.includes('Theirs')), 'another tenant\'s group hidden');
    assert.ok(!Object.keys(served.paths as Obj).some((p) => p.includes(OTHER)));
    const upstreamSize = JSON.stringify(doc).length;
    assert.ok(answer.body.length <= upstreamSize, `served ${answer.body.length} bytes for an upstream of ${upstreamSize}`);
    assert.ok(answer.body.length > upstreamSize * 0.9, `served ${answer.body.length} bytes for an upstream of ${upstreamSize}`);
  });

  it('protobuf form decodes back to the tenant document, no larger than the JSON', async () => {
    const service = createOpenApiService(fakeHost(hostSwagger()));
    const json = JSON.parse((await get(service, { Accept: 'application/json' })).body.toString('utf8')) as Obj;
    const pb = await get(service, { Accept: OPENAPI_V2_PROTOBUF_ACCEPT });
    assert.equal(pb.status, 200);
    const decoded = decodeOpenApiV2(new Uint8Array(pb.body));
    assert.ok(Object.keys(decoded.definitions as Obj).includes('com.a.v1.Mine'));
    assert.deepEqual(Object.keys(decoded.definitions as Obj).sort(), Object.keys(json.definitions as Obj).sort());
    assert.deepEqual(Object.keys(decoded.paths as Obj).sort(), Object.keys(json.paths as Obj).sort());
    assert.ok(pb.body.length < JSON.stringify(json).length, `protobuf ${pb.body.length} vs JSON ${JSON.stringify(json).length}`);
  });

  it('downloads the upstream body once: later requests, any tenant, revalidate with If-None-Match', async () => {
    const host = fakeHost(hostSwagger());
    const service = createOpenApiService(host);
    const first = await get(service, { Accept: 'application/json' });
    await get(service, { Accept: OPENAPI_V2_PROTOBUF_ACCEPT });
    await get(service, { Accept: 'application/json' }, OTHER);
    assert.deepEqual(host.calls.map((c) => c.status), [200, 304, 304]);
    assert.ok(host.calls.slice(1).every((c) => c.ifNoneMatch === '"E1"'));
    // The other tenant sees its own group, not this one's.
    const other = JSON.parse((await get(service, {}, OTHER)).body.toString('utf8')) as Obj;
    assert.ok(Object.keys(other.definitions as Obj).includes('com.a.v1.Theirs'));
    assert.ok(!Object.keys(other.definitions as Obj).includes('com.a.v1.Mine'));
    // A caller holding the ETag gets 304, no body.
    const again = await get(service, { 'If-None-Match': String(first.headers.ETag) });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
  });

  it('concurrent first requests share one upstream download', async () => {
    const host = fakeHost(hostSwagger());
    const service = createOpenApiService(host);
    const answers = await Promise.all([get(service), get(service), get(service, {}, OTHER), get(service, { Accept: OPENAPI_V2_PROTOBUF_ACCEPT })]);
    assert.ok(answers.every((a) => a.status === 200));
    assert.deepEqual(host.calls.map((c) => c.status), [200]);
  });

  it('a changed upstream document (new ETag) is downloaded and served', async () => {
    const host = fakeHost(hostSwagger());
    const service = createOpenApiService(host);
    const before = await get(service);
    const changed = hostSwagger();
    (changed.definitions as Obj)['io.k8s.api.apps.v1.New'] = { type: 'object' };
    host.setDoc(changed);
    const after = await get(service);
    assert.deepEqual(host.calls.map((c) => c.status), [200, 200]);
    assert.notEqual(after.headers.ETag, before.headers.ETag);
    assert.ok(Object.keys((JSON.parse(after.body.toString('utf8')) as Obj).definitions as Obj).includes('io.k8s.api.apps.v1.New'));
  });

  it('refuses (503) an upstream body that is not a swagger object, rather than serving it spread', async () => {
    for (const body of ['not json', '"a string"', '[1,2]', 42]) {
      const host = fakeHost({});
      host.request = async <T>(): Promise<UpstreamResponse<T>> => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: body as T });
      await assert.rejects(get(createOpenApiService(host)), (err: { reason?: string }) => err.reason === 'ServiceUnavailable');
    }
  });
});

/** Every `$ref` target in a document. */
function refsOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsOf(v, into);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') into.add(v);
      else refsOf(v, into);
    }
  }
  return into;
}

describe('gateway /openapi/v2: shared definitions that list hidden groups', () => {
  it('keeps DeleteOptions (kubectl: "unknown model in reference" otherwise), without the GVKs the tenant may not see', async () => {
    for (const [id, own] of [[ID, 'Mine'], [OTHER, 'Theirs']] as const) {
      const served = JSON.parse((await get(createOpenApiService(fakeHost(hostSwagger())), {}, id)).body.toString('utf8')) as Obj;
      const definitions = served.definitions as Obj;
      for (const ref of refsOf(served)) assert.ok(ref.replace('#/definitions/', '') in definitions, `${id}: dangling ${ref}`);
      const deleteOptions = definitions['io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions'] as Obj;
      const groups = (deleteOptions['x-kubernetes-group-version-kind'] as Array<{ group: string }>).map((g) => g.group);
      assert.deepEqual(groups, ['', 'apps', 'a.com'], `${id} sees its own group unprefixed and no other`);
      assert.ok(!JSON.stringify(served).includes(id === ID ? OTHER : ID), `${id} sees nothing of the other tenant`);
      assert.ok(Object.keys(definitions).includes(`com.a.v1.${own}`));
    }
  });
});

describe('swaggerOfBody', () => {
  it('reads any JSON object the same whether parsed already or as text, and nothing else', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      const parsed = swaggerOfBody(JSON.stringify(value));
      const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
      if (isObject) assert.deepEqual(parsed, JSON.parse(JSON.stringify(value)));
      else assert.equal(parsed, undefined);
    }));
  });
});

describe('encodeOpenApiV2Protobuf with shared $refs', () => {
  it('writes a $ref as the reference, not the referenced schema: size grows with the refs, not their targets', () => {
    const big = { type: 'object', description: 'x'.repeat(10_000) };
    const refs = (n: number): Obj => ({
      swagger: '2.0',
      definitions: {
        Big: big,
        ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`User${i}`, { properties: { big: { $ref: '#/definitions/Big' } } }])),
      },
    });
    const one = encodeOpenApiV2Protobuf(refs(1)).length;
    const hundred = encodeOpenApiV2Protobuf(refs(100)).length;
    assert.ok(hundred - one < 100 * 100, `99 more refs cost ${hundred - one} bytes`);
    assert.ok(hundred < JSON.stringify(refs(100)).length);
    const decoded = decodeOpenApiV2(encodeOpenApiV2Protobuf(refs(3)));
    assert.deepEqual((decoded.definitions as Obj).User2, { properties: { big: { $ref: '#/definitions/Big' } } });
  });
});
