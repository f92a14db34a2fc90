// The gateway's per-tenant /openapi/v2 on a real 1.20 host. 1.20 serves the
// document as text/plain; the gateway spread that string into one property per
// character (55.7 MB for a 4 MB document, 4 bytes of protobuf), and kubectl
// create -f / apply / explain, which download it, timed out or failed. Checked
// here as kubectl uses it: size near the host's, protobuf that decodes, a 304
// for a known ETag, no dangling $ref, and kubectl validating and explaining.
// Also here, on the same control plane (one start less in CI): upstream error text in tenant
// terms (issue 13). Real 1.20's PUT with another uid answers 409 whose message holds the etcd
// storage key with the UPSTREAM namespace (`StorageError: invalid object, Code: 4, Key:
// /registry/configmaps/<id>-shop/x, ...`); the tenant must get kube's 409 without the key, the
// prefix or any host layout.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectlAs } from '../fixtures/up/warren-up-process.ts';
import { KubeHttp } from '../helpers/kube-http.ts';
import { realKubeSkipReason, startRealWarren, type RealWarren } from '../helpers/real-warren.ts';
import { decodeOpenApiV2 } from '../unit/core/openapi-protobuf/openapi-v2-decoder.ts';

type Obj = Record<string, unknown>;
const PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const DEPLOYMENT = (name: string, extra = ''): string => `
apiVersion: apps/v1
kind: Deployment
metadata: { name: ${name} }
spec:
  replicas: 1${extra}
  selector: { matchLabels: { app: ${name} } }
  template:
    metadata: { labels: { app: ${name} } }
    spec: { containers: [{ name: web, image: nginx }] }
`;

async function fetchBytes(http: KubeHttp, accept: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Obj; bytes: Buffer }> {
  // Generous: correctness is checked here, not speed, and the machine is shared.
  const { res } = await http.open('GET', '/openapi/v2', { headers: { Accept: accept, ...headers }, timeoutMs: 120_000 });
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return { status: res.statusCode ?? 0, headers: res.headers as Obj, bytes: Buffer.concat(chunks) };
}

/** `$ref` strings (a schema property named "$ref", as in JSONSchemaProps, is an object: skipped). */
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

const skip = realKubeSkipReason();

describe('gateway /openapi/v2 on a real 1.20 host', { timeout: 600_000, ...(skip ? { skip } : {}) }, () => {
  let w: RealWarren;
  let kc = '';
  let tenant: KubeHttp;
  let otherId = '';
  let acmeId = '';

  before(async () => {
    w = await startRealWarren({ controllerManager: false });
    kc = await w.kubeconfigOf('acme');
    tenant = new KubeHttp(readFileSync(kc, 'utf8'));
    otherId = await w.tenantId('globex');
    acmeId = await w.tenantId('acme');
  });
  after(async () => {
    await w?.stop();
  });

  it('JSON: about the host document\'s size, parsed, no dangling $ref, nothing of another tenant', async () => {
    // The host's document can grow between two reads (1.20 publishes a CRD's schema a moment
    // after the CRD is established): compare with a host document read before and after the same.
    let direct = await w.hostHttp.get('/openapi/v2');
    let got = await fetchBytes(tenant, 'application/json');
    for (let i = 0; i < 10; i++) {
      const after = await w.hostHttp.get('/openapi/v2');
      if (after.text === direct.text) break;
      direct = after;
      got = await fetchBytes(tenant, 'application/json');
    }
    assert.equal(direct.status, 200);
    assert.equal(got.status, 200);
    const size = got.bytes.length;
    const hostSize = Buffer.byteLength(direct.text);
    assert.ok(size <= hostSize && size > hostSize * 0.9, `gateway ${size} bytes, host ${hostSize}`);
    const doc = JSON.parse(got.bytes.toString('utf8')) as Obj;
    assert.equal(doc.swagger, '2.0');
    const definitions = doc.definitions as Obj;
    for (const ref of refsOf(doc)) assert.ok(ref.replace('#/definitions/', '') in definitions, `dangling ${ref}`);
    assert.ok('io.k8s.api.apps.v1.Deployment' in definitions);
    assert.ok('io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions' in definitions);
    assert.ok(!got.bytes.toString('utf8').includes(`${otherId}-`), 'another tenant\'s prefix shows');
  });

  it('protobuf: the corrected Content-Type, smaller than the JSON, decodes to the same definitions; 304 for a known ETag', async () => {
    // One ETag for both forms of one document. A real host's document can still change between
    // two requests (1.20 publishes a CRD's schema a moment after the CRD is established), so the
    // pair is re-fetched until both come from one document, and only then compared.
    let pair = { json: await fetchBytes(tenant, 'application/json'), pb: await fetchBytes(tenant, PROTOBUF) };
    for (let i = 0; i < 10 && pair.pb.headers.etag !== pair.json.headers.etag; i++) pair = { json: await fetchBytes(tenant, 'application/json'), pb: await fetchBytes(tenant, PROTOBUF) };
    assert.equal(pair.pb.headers.etag, pair.json.headers.etag);
    const { json, pb } = pair;
    assert.equal(pb.status, 200);
    assert.equal(pb.headers['content-type'], 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    assert.ok(pb.bytes.length < json.bytes.length && pb.bytes.length > json.bytes.length / 2, `protobuf ${pb.bytes.length}, JSON ${json.bytes.length}`);
    const decoded = decodeOpenApiV2(new Uint8Array(pb.bytes));
    const want = Object.keys((JSON.parse(json.bytes.toString('utf8')) as Obj).definitions as Obj).sort();
    assert.deepEqual(Object.keys(decoded.definitions as Obj).sort(), want);
    // A known ETag gets 304. A 200 is only right when the document changed since: it must then carry
    // a new ETag, which the next request sends.
    let known = String(pair.pb.headers.etag);
    let again = await fetchBytes(tenant, PROTOBUF, { 'If-None-Match': known });
    for (let i = 0; i < 10 && again.status === 200; i++) {
      assert.notEqual(String(again.headers.etag), known, 'a 200 for the ETag the client already holds');
      known = String(again.headers.etag);
      again = await fetchBytes(tenant, PROTOBUF, { 'If-None-Match': known });
    }
    assert.equal(again.status, 304);
    assert.equal(again.bytes.length, 0);
  });

  it('kubectl create -f validates against it (an unknown field refused), apply and explain work', async () => {
    const kubectl = kubectlAs(kc);
    const good = join(w.dir, 'h9-good.yaml');
    const bad = join(w.dir, 'h9-bad.yaml');
    writeFileSync(good, DEPLOYMENT('h9-good'));
    writeFileSync(bad, DEPLOYMENT('h9-bad', '\n  bogusField: 3'));
    const created = await kubectl(['create', '-f', good], 120_000);
    assert.equal(created.code, 0, created.stderr);
    const refused = await kubectl(['create', '-f', bad], 120_000);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /unknown field "bogusField"/);
    const applied = await kubectl(['apply', '-f', good], 120_000);
    assert.equal(applied.code, 0, applied.stderr);
    const explained = await kubectl(['explain', 'deployment.spec.strategy'], 120_000);
    assert.equal(explained.code, 0, explained.stderr);
    assert.match(explained.stdout, /RESOURCE: strategy <Object>/);
  });

  it('a PUT with another uid: 409 Conflict, no storage key, no prefix', async () => {
    assert.equal((await tenant.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } })).status, 201);
    const made = await tenant.post('/api/v1/namespaces/shop/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: '1' } });
    assert.equal(made.status, 201, made.text);
    const put = await tenant.put('/api/v1/namespaces/shop/configmaps/x', {
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', uid: '00000000-0000-0000-0000-000000000001' }, data: { a: '2' },
    });
    process.stderr.write(`real 1.20 uid-409 through the gateway: ${put.text}\n`);
    assert.equal(put.status, 409, put.text);
    assert.equal(put.body.reason, 'Conflict');
    assert.match(put.body.message, /^Operation cannot be fulfilled on configmaps "x"/);
    assert.doesNotMatch(put.text, /\/registry|Key: \//, 'no storage key');
    for (const id of [acmeId, otherId]) assert.ok(!put.text.includes(`${id}-`), `no prefix ${id}- in ${put.text}`);
    const direct = await w.hostHttp.put(`/api/v1/namespaces/${acmeId}-shop/configmaps/x`, {
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: `${acmeId}-shop`, uid: '00000000-0000-0000-0000-000000000001' }, data: { a: '2' },
    });
    process.stderr.write(`real 1.20 uid-409 straight from the host: ${direct.text}\n`);
    assert.match(direct.text, /Key: \/registry\/configmaps\//, 'the host itself names the key: the case this test is about still exists');
  });
});
