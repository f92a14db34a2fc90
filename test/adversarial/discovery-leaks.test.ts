// Boundary: what a tenant learns from discovery and OpenAPI. acme defines CRDs,
// some in groups that look like Kubernetes' or Karmada's own (`.k8s.io`,
// `.kubernetes.io`, `.karmada.io`), if the gateway lets it at all. globex's
// /api, /apis, /openapi/v2, /openapi/v3 and `kubectl api-resources` must not
// mention them, their kinds or acme's id, and acme's upstream group paths are
// 404 for globex (break 6).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/core/types.ts';
import { eventually } from '../helpers/poll.ts';
import { useAdversaryEnv } from './support/adversary-env.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** A CRD whose kind is distinctive enough to grep for in any document. */
function crd(group: string, kind: string): KubeObject {
  const plural = `${kind.toLowerCase()}s`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}`, annotations: { 'api-approved.kubernetes.io': 'unapproved, experimental-only' } },
    spec: {
      group, scope: 'Namespaced', names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { acmeSecretField: { type: 'string' } } } } } } }],
    },
  };
}

const ACME_CRDS: Array<[string, string]> = [
  ['leak.k8s.io', 'Acmeleakone'],
  ['leak.kubernetes.io', 'Acmeleaktwo'],
  ['leak.karmada.io', 'Acmeleakthree'],
  ['leak.acme.example.com', 'Acmeleakfour'],
];

describe('adversarial: discovery and OpenAPI leaks between tenants', { timeout: 240_000 }, () => {
  const env = useAdversaryEnv('discovery');
  let acmeId = '';
  const created: Array<{ group: string; kind: string; upstreamGroup: string }> = [];

  before(async () => {
    acmeId = env.idOf('acme');
    for (const [group, kind] of ACME_CRDS) {
      const res = await env.http('acme').post(CRDS, crd(group, kind));
      if (res.status !== 201) continue; // refused outright is a fine answer; then there is nothing to leak
      const list = await env.host().request<{ items: KubeObject[] }>('GET', CRDS);
      const stored = list.body.items.find((c) => (c.spec as { names?: { kind?: string } }).names?.kind === kind);
      assert.ok(stored, `acme's ${kind} CRD is on the host`);
      created.push({ group, kind, upstreamGroup: (stored.spec as { group: string }).group });
    }
    assert.ok(created.some((c) => c.group === 'leak.acme.example.com'), 'acme may define a CRD in its own group (the positive control)');
    // acme itself sees its kinds: the discovery that globex must not see has been built.
    await eventually(async () => (await env.run('acme', 'api-resources', '--api-group=leak.acme.example.com')).stdout.includes('acmeleakfours'), 'acme sees its own CRD in discovery');
  });

  const mentions = (text: string): string[] => {
    const found = created.flatMap((c) => [c.kind, c.upstreamGroup, `${c.kind.toLowerCase()}s`].filter((needle) => text.includes(needle)));
    if (text.includes(acmeId)) found.push(acmeId);
    if (text.includes('acmeSecretField')) found.push('acmeSecretField');
    return found;
  };

  it('break 6: globex\'s discovery (/api, /apis, aggregated discovery, kubectl api-resources) mentions nothing of acme', async () => {
    const globex = env.http('globex');
    for (const [path, headers] of [
      ['/api', {}], ['/apis', {}],
      ['/apis', { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json' }],
    ] as Array<[string, Record<string, string>]>) {
      const res = await globex.get(path, headers);
      assert.equal(res.status, 200, `${path}: ${res.status}`);
      assert.deepEqual(mentions(res.text), [], `${path} (${headers.Accept ?? 'plain'}) leaks`);
    }
    const r = await env.run('globex', 'api-resources');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(mentions(r.stdout + r.stderr), [], 'kubectl api-resources leaks');
  });

  it('break 6: globex\'s /openapi/v2 and /openapi/v3 (index and every group document) mention nothing of acme', async () => {
    const globex = env.http('globex');
    const v2 = await globex.get('/openapi/v2');
    assert.equal(v2.status, 200);
    assert.deepEqual(mentions(v2.text), [], '/openapi/v2 leaks');
    const v3 = await globex.get('/openapi/v3');
    assert.equal(v3.status, 200);
    assert.deepEqual(mentions(v3.text), [], '/openapi/v3 index leaks');
    const paths = Object.values((v3.body as { paths?: Record<string, { serverRelativeURL?: string }> }).paths ?? {}).map((p) => p.serverRelativeURL ?? '');
    for (const url of paths.filter((u) => /leak|k8s\.io|kubernetes\.io|karmada\.io/.test(u))) {
      const doc = await globex.get(url);
      assert.deepEqual(mentions(doc.text), [], `${url} leaks`);
    }
  });

  it('break 6: acme\'s upstream and tenant group paths are 404 for globex', async () => {
    const globex = env.http('globex');
    for (const c of created) {
      for (const path of [`/apis/${c.upstreamGroup}/v1`, `/apis/${c.upstreamGroup}`, `/apis/${c.group}/v1`, `/openapi/v3/apis/${c.upstreamGroup}/v1`, `/openapi/v3/apis/${c.group}/v1`,
        `/apis/${c.upstreamGroup}/v1/namespaces/default/${c.kind.toLowerCase()}s`]) {
        const res = await globex.get(path);
        assert.equal(res.status, 404, `globex GET ${path}: want 404, got ${res.status}: ${res.text.slice(0, 200)}`);
        assert.deepEqual(mentions(res.text), [], `globex GET ${path} names acme's objects`);
      }
    }
  });
});
