// Break 6, as the attacker ran it: tenant A's CRD group in a reserved domain
// (`<A>-foo.k8s.io` upstream, made before such groups were refused, here
// written straight to the upstream) was taken for a built-in group, so tenant
// B's discovery, /openapi/v2 and /v3 listed it, schema and A's id included, and
// GET /apis/<A>-foo.k8s.io/v1 answered 200. Real HTTPS and real kubectl.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { eventually } from '../../helpers/poll.ts';
import { kubectl } from '../../helpers/kubectl.ts';
import type { KubeHttp } from '../../helpers/kube-http.ts';

const AGG_ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const MARK = 'A-SCHEMA-MARKER';

function crd(name: string, group: string, annotations: Record<string, string> = {}) {
  const [plural = ''] = name.split('.');
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name, annotations },
    spec: {
      group, scope: 'Namespaced', names: { plural, singular: plural.replace(/s$/, ''), kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', description: MARK, properties: { spec: { type: 'object', properties: { secretField: { type: 'string' } } } } } } }],
    },
  };
}

describe('adversarial: B never sees A\'s CRD groups, whatever their suffix', { timeout: 120_000 }, () => {
  let h: GatewayHarness;
  let a: KubeHttp;
  let b: KubeHttp;
  const foreign = ['acme01-foo.k8s.io', 'acme01-bar.kubernetes.io', 'acme01-baz.karmada.io', 'acme01-plain.example.com'];

  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS });
    a = h.http('acme', 'admin');
    b = h.http('globex', 'admin');
    for (const group of foreign) {
      const r = await h.upstreamHttp.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd(`widgets.${group}`, group, { 'api-approved.kubernetes.io': 'https://example.invalid/approved' }));
      assert.equal(r.status, 201, r.text);
    }
    await eventually(async () => {
      const r = await h.upstreamHttp.get('/apis');
      return foreign.every((g) => r.text.includes(`"${g}"`));
    }, 'A\'s groups served upstream', { timeoutMs: 20_000 });
  });
  after(async () => { await h?.stop(); });

  const leaks = (text: string): string[] => ['acme01', MARK, 'secretField'].filter((s) => text.includes(s));

  it('discovery: /apis (legacy and aggregated) and /apis/<group> never name A', async () => {
    for (const accept of ['application/json', AGG_ACCEPT]) {
      const r = await b.get('/apis', { Accept: accept });
      assert.equal(r.status, 200);
      assert.deepEqual(leaks(r.text), [], accept);
    }
    for (const group of foreign) {
      for (const path of [`/apis/${group}`, `/apis/${group}/v1`, `/apis/${group}/v1/namespaces/default/widgets`]) {
        const r = await b.get(path);
        assert.equal(r.status, 404, `${path}: ${r.status} ${r.text}`);
        assert.deepEqual(leaks(r.text.replaceAll(group, '')), [], path);
      }
    }
  });

  it('OpenAPI v2 and v3 never carry A\'s schemas or id', async () => {
    const v2 = await b.get('/openapi/v2');
    assert.equal(v2.status, 200);
    assert.deepEqual(leaks(v2.text), []);
    const v3 = await b.get('/openapi/v3');
    assert.equal(v3.status, 200);
    assert.deepEqual(leaks(v3.text), []);
    for (const group of foreign) {
      const doc = await b.get(`/openapi/v3/apis/${group}/v1`);
      assert.equal(doc.status, 404, `${group}: ${doc.status}`);
    }
  });

  it('kubectl api-resources and explain as B show nothing of A', async () => {
    const kc = h.kubeconfigPath('globex', 'admin');
    const res = await kubectl('1.32', ['api-resources'], { kubeconfigPath: kc });
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(leaks(res.stdout + res.stderr), []);
    assert.doesNotMatch(res.stdout, /widgets/);
    const explain = await kubectl('1.32', ['explain', 'widgets'], { kubeconfigPath: kc });
    assert.notEqual(explain.code, 0);
    assert.deepEqual(leaks(explain.stdout + explain.stderr), []);
  });

  it('A may not create a CRD in a reserved or built-in group (422 in tenant terms); a plain one works', async () => {
    for (const group of ['foo.k8s.io', 'x.kubernetes.io', 'mine.karmada.io', 'policy.karmada.io', 'apps']) {
      const r = await a.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd(`widgets.${group}`, group));
      assert.equal(r.status, 422, `${group}: ${r.status} ${r.text}`);
      assert.equal(r.body.reason, 'Invalid');
      assert.match(r.body.message, new RegExp(`spec\\.group: Invalid value: "${group.replaceAll('.', '\\.')}"`));
      assert.doesNotMatch(r.text, /acme01/);
    }
    const up = await h.upstreamHttp.get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.acme01-foo.example.com');
    assert.equal(up.status, 404);
    const ok = await a.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('widgets.foo.example.com', 'foo.example.com'));
    assert.equal(ok.status, 201, ok.text);
  });

  it('A\'s own plain group shows to A, not to B', async () => {
    await eventually(async () => (await a.get('/apis')).text.includes('"plain.example.com"'), 'A sees its plain.example.com', { timeoutMs: 20_000 });
    const bList = await b.get('/apis');
    assert.doesNotMatch(bList.text, /plain\.example\.com|foo\.example\.com/);
  });
});
