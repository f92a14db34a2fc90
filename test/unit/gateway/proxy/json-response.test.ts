// Real loopback HTTP on both sides: an "upstream" that answers with fixed
// bytes, and a front server that relays through sendTranslatedJson.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { notFound } from '../../../../src/core/api-error.ts';
import { sendTranslatedJson, type JsonResponseOptions } from '../../../../src/gateway/proxy/json-response.ts';
import { plainGet, type PlainAnswer } from '../../../helpers/plain-get.ts';

interface Canned { status: number; headers: Record<string, string | string[]>; body: Buffer | string }

let upstream: http.Server;
let front: http.Server;
let canned: Canned;
let options: JsonResponseOptions;
let done: Promise<void> = Promise.resolve();

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

before(async () => {
  upstream = http.createServer((_req, res) => { res.writeHead(canned.status, canned.headers); res.end(canned.body); });
  const upstreamPort = await listen(upstream);
  front = http.createServer((_req, res) => {
    http.get({ host: '127.0.0.1', port: upstreamPort, path: '/', agent: false }, (upstreamRes) => { done = sendTranslatedJson(upstreamRes, res, options); });
  });
  await listen(front);
});
after(() => { upstream.close(); front.close(); });

async function fetchFront(): Promise<PlainAnswer> {
  return await plainGet((front.address() as AddressInfo).port);
}

const json = { 'Content-Type': 'application/json' };
const unprefix = (s: string): string => s.replace(/^abc123-/, '');

function configMap(i: number): any {
  return { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: `cm-${i}`, namespace: i % 10 === 0 ? 'zzz999-other' : 'abc123-ns', uid: `u-${i}` }, data: { k: `välue ${i}` } };
}

/** The translation the lead's chain would pass: drop other tenants' items, strip our prefix. */
const translateList = (body: any): unknown => {
  body.items = body.items.filter((item: any) => item.metadata.namespace.startsWith('abc123-'));
  for (const item of body.items) item.metadata.namespace = unprefix(item.metadata.namespace);
  return body;
};

describe('sendTranslatedJson', () => {
  it('translates a single object and sets an exact Content-Length', async () => {
    canned = { status: 200, headers: json, body: JSON.stringify(configMap(1)) };
    options = { translate: (b: any) => { b.metadata.namespace = unprefix(b.metadata.namespace); return b; } };
    const res = await fetchFront();
    assert.equal(res.status, 200);
    assert.equal(JSON.parse(res.text).metadata.namespace, 'ns');
    assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.text));
    assert.equal(res.headers['transfer-encoding'], undefined);
  });

  it('streams a LIST of 10,000 objects, filtered and translated, as valid JSON with chunked encoding', async () => {
    const items = Array.from({ length: 10_000 }, (_, i) => configMap(i));
    canned = { status: 200, headers: json, body: JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '42' }, items }) };
    let translated: any;
    options = { translate: (b) => (translated = translateList(b)) };
    const res = await fetchFront();
    await done;
    assert.equal(res.status, 200);
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    assert.equal(res.headers['content-length'], undefined);
    const list = JSON.parse(res.text);
    assert.equal(list.kind, 'ConfigMapList');
    assert.deepEqual(list.metadata, { resourceVersion: '42' });
    assert.equal(list.items.length, 9_000);
    assert.ok(list.items.every((item: any) => item.metadata.namespace === 'ns'));
    assert.deepEqual(list.items[0], { ...configMap(1), metadata: { ...configMap(1).metadata, namespace: 'ns' } });
    // Each item is let go once written, so the parsed list shrinks as the output grows.
    assert.ok(translated.items.every((item: unknown) => item === undefined));
  });

  it('streams an empty list and a list with no other fields', async () => {
    for (const body of [{ kind: 'PodList', apiVersion: 'v1', metadata: {}, items: [] }, { items: [{ a: 1 }] }]) {
      canned = { status: 200, headers: json, body: JSON.stringify(body) };
      options = { translate: (b) => b };
      assert.deepEqual(JSON.parse((await fetchFront()).text), body);
    }
  });

  it('streams a Table by its rows', async () => {
    const table = { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: {}, columnDefinitions: [{ name: 'Name', format: 'name' }], rows: Array.from({ length: 3000 }, (_, i) => ({ cells: [`abc123-x${i}`] })) };
    canned = { status: 200, headers: { 'Content-Type': 'application/json;as=Table;v=v1;g=meta.k8s.io' }, body: JSON.stringify(table) };
    options = { translate: (b: any) => { for (const row of b.rows) row.cells[0] = unprefix(row.cells[0]); return b; } };
    const res = await fetchFront();
    assert.equal(res.headers['content-type'], 'application/json;as=Table;v=v1;g=meta.k8s.io');
    const got = JSON.parse(res.text);
    assert.equal(got.rows.length, 3000);
    assert.equal(got.rows[2999].cells[0], 'x2999');
    assert.deepEqual(got.columnDefinitions, table.columnDefinitions);
  });

  const statusCases = [
    { name: 'keeps upstream status for a translated Status', upstreamCode: 404, translatedCode: 404, expect: 404 },
    { name: 'takes the translated Status code when translation changes it', upstreamCode: 404, translatedCode: 403, expect: 403 },
    { name: 'keeps 201 for a created object', upstreamCode: 201, translatedCode: undefined, expect: 201 },
  ];
  for (const c of statusCases) {
    it(c.name, async () => {
      const upstreamBody = c.translatedCode === undefined ? configMap(1) : { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: c.upstreamCode, message: 'configmaps "abc123-x" not found' };
      canned = { status: c.upstreamCode, headers: json, body: JSON.stringify(upstreamBody) };
      options = { translate: (b: any) => (b.kind === 'Status' ? { ...b, code: c.translatedCode, message: unprefix(b.message) } : b) };
      const res = await fetchFront();
      assert.equal(res.status, c.expect);
      assert.ok(!res.text.includes('abc123-x"') || c.translatedCode === undefined);
    });
  }

  it('sends the ApiError thrown by translate instead of the body', async () => {
    canned = { status: 200, headers: json, body: JSON.stringify(configMap(0)) };
    options = { translate: () => { throw notFound({ resource: 'configmaps', name: 'cm-0' }); } };
    const res = await fetchFront();
    assert.equal(res.status, 404);
    assert.equal(JSON.parse(res.text).reason, 'NotFound');
    assert.ok(!res.text.includes('zzz999'));
  });

  const refused = [
    { name: 'malformed JSON', headers: json, body: '{"kind":"ConfigMap","metadata":{"namespace":"zzz999-b"' },
    { name: 'a body that is not JSON (fail closed)', headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf' }, body: 'k8s\0zzz999-b' },
  ];
  for (const c of refused) {
    it(`answers 500 without echoing upstream bytes on ${c.name}`, async () => {
      canned = { status: 200, headers: c.headers, body: c.body };
      options = { translate: (b) => b };
      const res = await fetchFront();
      assert.equal(res.status, 500);
      assert.equal(JSON.parse(res.text).reason, 'InternalError');
      assert.ok(!res.text.includes('zzz999'));
    });
  }

  for (const [code, reason] of [[404, 'NotFound'], [405, 'MethodNotAllowed'], [403, 'Forbidden'], [503, 'ServiceUnavailable']] as const) {
    it(`keeps the code of an error answered in plain text (${code}), as a Status in words of its own`, async () => {
      // A real kube-apiserver answers a path under an unknown group with `404 page not found`, text/plain.
      canned = { status: code, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'zzz999-b page not found' };
      options = { translate: (b) => b };
      const res = await fetchFront();
      assert.equal(res.status, code);
      const status = JSON.parse(res.text);
      assert.equal(status.kind, 'Status');
      assert.equal(status.reason, reason);
      assert.equal(status.code, code);
      assert.ok(!res.text.includes('zzz999'), 'the upstream text is not passed on');
    });
  }

  it('passes an empty body with its status', async () => {
    canned = { status: 200, headers: {}, body: '' };
    options = { translate: () => assert.fail('nothing to translate') };
    const res = await fetchFront();
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
  });

  it('decompresses a gzip body before translating', async () => {
    canned = { status: 200, headers: { ...json, 'Content-Encoding': 'gzip' }, body: gzipSync(JSON.stringify(configMap(3))) };
    options = { translate: (b: any) => { b.metadata.namespace = unprefix(b.metadata.namespace); return b; } };
    const res = await fetchFront();
    assert.equal(res.headers['content-encoding'], undefined);
    assert.equal(JSON.parse(res.text).metadata.namespace, 'ns');
  });

  it('copies only safe headers, and Warnings one by one through the scrubber', async () => {
    canned = {
      status: 200,
      headers: {
        ...json, 'Audit-Id': 'a-1', 'Cache-Control': 'no-cache, private', 'Set-Cookie': 'x=1',
        'X-Kubernetes-Pf-Flowschema-Uid': 'f', 'Warning': ['299 - "ns abc123-a, deprecated"', '299 - "drop me"'],
      },
      body: JSON.stringify(configMap(1)),
    };
    options = { translate: (b) => b, scrubWarning: (w) => (w.includes('drop me') ? undefined : w.replace('abc123-', '')) };
    const res = await fetchFront();
    assert.equal(res.headers['audit-id'], 'a-1');
    assert.equal(res.headers['cache-control'], 'no-cache, private');
    assert.equal(res.headers['set-cookie'], undefined);
    assert.equal(res.headers['x-kubernetes-pf-flowschema-uid'], undefined);
    const warnings = res.rawHeaders.filter((_, i) => i % 2 === 1 && res.rawHeaders[i - 1]?.toLowerCase() === 'warning');
    assert.deepEqual(warnings, ['299 - "ns a, deprecated"']);
  });

  it('drops Warnings when no scrubber is given', async () => {
    canned = { status: 200, headers: { ...json, Warning: '299 - "abc123-a"' }, body: JSON.stringify(configMap(1)) };
    options = { translate: (b) => b };
    assert.equal((await fetchFront()).headers.warning, undefined);
  });
});

describe('sendTranslatedJson when the upstream dies mid-body', () => {
  for (const declared of [4_000, 200_000]) {
    it(`answers a 503 Status, not a hang or a cut (Content-Length ${declared}, ${declared >= 65_536 ? 'large' : 'small'} path)`, async () => {
      // Head and a first slice of the body, then the connection is destroyed.
      const dying = http.createServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(declared) });
        res.write('{"kind":"ConfigMap","metadata":{"name":"a');
        setTimeout(() => res.socket?.destroy(), 20);
      });
      const dyingPort = await listen(dying);
      const relay = http.createServer((_req, res) => {
        http.get({ host: '127.0.0.1', port: dyingPort, path: '/', agent: false }, (upstreamRes) => {
          void sendTranslatedJson(upstreamRes, res, { translate: (b) => b });
        }).on('error', () => undefined);
      });
      const relayPort = await listen(relay);
      try {
        const res = await new Promise<{ status: number; text: string }>((resolve, reject) => {
          http.get({ host: '127.0.0.1', port: relayPort, path: '/', agent: false }, (r) => {
            const chunks: Buffer[] = [];
            r.on('data', (c: Buffer) => chunks.push(c));
            r.on('end', () => resolve({ status: r.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          }).on('error', reject);
        });
        assert.equal(res.status, 503);
        assert.equal(JSON.parse(res.text).reason, 'ServiceUnavailable');
      } finally {
        dying.close();
        relay.close();
      }
    });
  }
});
