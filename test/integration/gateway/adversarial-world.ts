// The world of the adversarial suite: tenant B (globex, globx1) holds objects
// tenant A (acme, acme01) must never reach. Every B object carries a marker
// string, so a test can assert on raw bodies that nothing of B came back.
import https from 'node:https';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { eventually } from '../../helpers/poll.ts';
import type { KubeHttp, HttpResult } from '../../helpers/kube-http.ts';

/** What only B's objects hold, and A's own prefix: never in any of A's responses. */
export const ALWAYS_LEAK = ['B-MARKER', 'secretField', 'acme01-'];
/** B's names: a leak unless A wrote them itself in the request (an echo in tenant terms is fine: "namespaces \"globx1-web\" not found"). */
export const NAME_LEAK = ['globx1', 'b-secret', 'b.example.com', 'b-role', 'b-private'];

export interface World {
  h: GatewayHarness;
  a: KubeHttp;
  b: KubeHttp;
  bDeploymentUid: string;
}

const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

export async function startWorld(): Promise<World> {
  const h = await startGatewayHarness({ tenants: TWO_TENANTS });
  const a = h.http('acme', 'admin');
  const b = h.http('globex', 'admin');
  for (const [client, names] of [[a, ['web']], [b, ['web', 'b-private']]] as const) {
    for (const n of names) assert.equal((await client.post('/api/v1/namespaces', ns(n))).status, 201);
  }
  assert.equal((await a.post('/api/v1/namespaces/web/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a-own' }, data: { v: 'a' } })).status, 201);
  for (const n of ['web', 'b-private']) {
    const r = await b.post(`/api/v1/namespaces/${n}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b-secret', labels: { team: 'b' } }, data: { v: 'B-MARKER' } });
    assert.equal(r.status, 201);
  }
  const dep = await b.post('/apis/apps/v1/namespaces/web/deployments', {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx' },
    spec: { replicas: 1, selector: { matchLabels: { app: 'nginx' } }, template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } } },
  });
  assert.equal(dep.status, 201, dep.text);
  assert.equal((await b.post('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'b-role' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['*'] }],
  })).status, 201);
  const crd = await b.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'bars.b.example.com' },
    spec: {
      group: 'b.example.com', scope: 'Namespaced', names: { plural: 'bars', singular: 'bar', kind: 'Bar', listKind: 'BarList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { secretField: { type: 'string' } } } } } } }],
    },
  });
  assert.equal(crd.status, 201, crd.text);
  await eventually(async () => (await b.get('/apis/b.example.com/v1/namespaces/web/bars')).status === 200, 'B\'s CRD to serve', { timeoutMs: 10_000 });
  return { h, a, b, bDeploymentUid: dep.body.metadata.uid as string };
}

/** A request whose path goes over the wire byte for byte: no URL normalisation of `..`, `.` or `//`. */
export async function rawRequest(client: KubeHttp, method: string, rawPath: string, headers: Record<string, string> = {}): Promise<HttpResult> {
  const url = new URL(client.server);
  const opts: https.RequestOptions = { method, hostname: url.hostname, port: url.port, path: rawPath, headers: { Accept: 'application/json', ...headers }, agent: false };
  await client.kubeConfig.applyToHTTPSOptions(opts);
  return await new Promise((resolve, reject) => {
    const req = https.request(opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try { body = JSON.parse(text); } catch { body = undefined; }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
      });
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`${rawPath}: no answer in 10 s`)));
    req.on('error', reject);
    req.end();
  });
}

/** `sent`: everything A put in the request (path, query, body), decoded or not. */
export function assertNoLeak(r: HttpResult, what: string, sent = what): void {
  let decoded = sent;
  try { decoded = decodeURIComponent(sent); } catch { /* keep it raw */ }
  const markers = [...ALWAYS_LEAK, ...NAME_LEAK.filter((m) => !sent.includes(m) && !decoded.includes(m))];
  for (const m of markers) assert.ok(!r.text.includes(m), `${what} leaked "${m}" (${r.status}): ${r.text.slice(0, 400)}`);
  assert.ok(r.status < 500, `${what}: ${r.status} ${r.text.slice(0, 300)}`);
}
