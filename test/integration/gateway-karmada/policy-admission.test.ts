// Karmada policy admission through a real gateway: a (Cluster)PropagationPolicy
// or (Cluster)OverridePolicy that Karmada's webhook would refuse gets a 422
// Invalid with one cause per field, in the tenant's terms, on create, update,
// every patch type and server-side apply, and kubectl prints it; what Karmada
// accepts (a policy selecting nothing, a cluster that does not exist) is stored.
// The CRDs in crds/ keep the deep parts of spec schemaless, so every refusal
// below is the gateway's own admission, not the upstream's schema.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { startGatewayHarness, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { PATCH, type KubeHttp } from '../../helpers/kube-http.ts';
import { kubectl } from '../../helpers/kubectl.ts';
import { ensureCrds, readCrdFiles } from '../../../src/kube/ensure-crds.ts';
import { CRDS_DIR } from '../../../src/warren.ts';

const TENANT_ID = 'acme01';
const NS = 'apps';
const GROUP = '/apis/policy.karmada.io/v1alpha1';
const PP = `${GROUP}/namespaces/${NS}/propagationpolicies`;
const OP = `${GROUP}/namespaces/${NS}/overridepolicies`;
const CPP = `${GROUP}/clusterpropagationpolicies`;
const COP = `${GROUP}/clusteroverridepolicies`;

const selectors = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }];

const pp = (name: string, placement: unknown, kind = 'PropagationPolicy') => ({
  apiVersion: 'policy.karmada.io/v1alpha1', kind,
  metadata: kind === 'PropagationPolicy' ? { name, namespace: NS } : { name },
  spec: { resourceSelectors: selectors, placement },
});

const op = (name: string, overriders: unknown, kind = 'OverridePolicy') => ({
  apiVersion: 'policy.karmada.io/v1alpha1', kind,
  metadata: kind === 'OverridePolicy' ? { name, namespace: NS } : { name },
  spec: { resourceSelectors: selectors, overrideRules: [{ targetCluster: { clusterNames: ['member1'] }, overriders }] },
});

const bothAffinities = { clusterAffinity: { clusterNames: ['member1'] }, clusterAffinities: [{ affinityName: 'first', clusterNames: ['member2'] }] };
const badSpread = { spreadConstraints: [{ spreadByField: 'cluster', minGroups: 3, maxGroups: 1 }] };
const badPlaintext = { plaintext: [{ operator: 'bogus', value: 'x' }] };

interface Cause { reason: string; field: string; message: string }
const causesOf = (body: { details?: { causes?: Cause[] } }): Cause[] => body.details?.causes ?? [];

function assertInvalid(r: { status: number; body: any; text: string }, kind: string, name: string, expected: Array<Partial<Cause>>): void {
  assert.equal(r.status, 422, r.text);
  assert.equal(r.body.kind, 'Status');
  assert.equal(r.body.reason, 'Invalid');
  assert.equal(r.body.details.kind, kind);
  assert.equal(r.body.details.group, 'policy.karmada.io');
  assert.equal(r.body.details.name, name);
  const causes = causesOf(r.body);
  for (const want of expected) {
    assert.ok(causes.some((c) => Object.entries(want).every(([k, v]) => (k === 'message' ? c.message.includes(String(v)) : c[k as keyof Cause] === v))),
      `expected a cause like ${JSON.stringify(want)} in ${JSON.stringify(causes)}`);
  }
  assert.doesNotMatch(r.text, new RegExp(`${TENANT_ID}-`), 'causes are in the tenant\'s terms');
}

describe('Karmada policy admission through the gateway', { timeout: 180_000 }, () => {
  let h: GatewayHarness;
  let http: KubeHttp;
  let kubeconfigPath: string;
  const kc = (args: string[], input?: string) => kubectl('1.33', args, { kubeconfigPath, ...(input === undefined ? {} : { input }) });

  before(async () => {
    h = await startGatewayHarness({ tenants: [{ name: 'acme', id: TENANT_ID, users: [{ name: 'admin', admin: true }] }] });
    await ensureCrds(h.upstream, readCrdFiles(CRDS_DIR).filter((crd) => String(crd.metadata.name).endsWith('.policy.karmada.io')));
    http = h.http('acme', 'admin');
    kubeconfigPath = h.kubeconfigPath('acme', 'admin');
    const ns = await http.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    assert.equal(ns.status, 201, ns.text);
  });

  after(async () => {
    await h?.stop();
  });

  it('refuses clusterAffinity together with clusterAffinities (422, field spec.placement)', async () => {
    const r = await http.post(PP, pp('both', bothAffinities));
    assertInvalid(r, 'PropagationPolicy', 'both', [{ reason: 'FieldValueInvalid', field: 'spec.placement', message: 'clusterAffinities cannot co-exist with clusterAffinity' }]);
    assert.equal((await http.get(`${PP}/both`)).status, 404, 'nothing was stored');
  });

  it('refuses spreadConstraints with maxGroups < minGroups on a ClusterPropagationPolicy, named as the tenant named it', async () => {
    const r = await http.post(CPP, pp('spread', badSpread, 'ClusterPropagationPolicy'));
    assertInvalid(r, 'ClusterPropagationPolicy', 'spread', [{ field: 'spec.placement.spreadConstraints[0]', message: 'maxGroups lower than minGroups is not allowed' }]);
    assert.match(r.body.message, /^ClusterPropagationPolicy\.policy\.karmada\.io "spread" is invalid: /);
  });

  it('refuses an invalid plaintext overrider on OverridePolicy and ClusterOverridePolicy, with every cause', async () => {
    const r = await http.post(OP, op('plain', badPlaintext));
    assertInvalid(r, 'OverridePolicy', 'plain', [
      { reason: 'FieldValueRequired', field: 'spec.overrideRules[0].overriders.plaintext[0].path' },
      { reason: 'FieldValueNotSupported', field: 'spec.overrideRules[0].overriders.plaintext[0].operator', message: 'Unsupported value: "bogus"' },
    ]);
    const c = await http.post(COP, op('plain', badPlaintext, 'ClusterOverridePolicy'));
    assertInvalid(c, 'ClusterOverridePolicy', 'plain', [{ field: 'spec.overrideRules[0].overriders.plaintext[0].operator' }]);
  });

  it('kubectl create and apply print the refusal with its causes and exit non-zero', async () => {
    const created = await kc(['create', '-f', '-'], stringify(pp('both', bothAffinities)));
    assert.notEqual(created.code, 0);
    assert.match(created.stderr, /The PropagationPolicy "both" is invalid: spec\.placement: Invalid value: .*clusterAffinities cannot co-exist with clusterAffinity/);
    const applied = await kc(['apply', '-f', '-'], stringify(op('plain', badPlaintext)));
    assert.notEqual(applied.code, 0);
    assert.match(applied.stderr, /The OverridePolicy "plain" is invalid/);
    assert.match(applied.stderr, /spec\.overrideRules\[0\]\.overriders\.plaintext\[0\]\.operator: Unsupported value: "bogus"/);
    const dry = await kc(['apply', '--dry-run=server', '-f', '-'], stringify(pp('spread', badSpread, 'ClusterPropagationPolicy')));
    assert.notEqual(dry.code, 0, 'admission runs on server dry runs too');
    assert.match(dry.stderr, /maxGroups lower than minGroups is not allowed/);
  });

  it('accepts a policy that selects nothing and names a cluster that does not exist', async () => {
    const policy = pp('nowhere', { clusterAffinity: { clusterNames: ['no-such-cluster'] } });
    policy.spec.resourceSelectors = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'never-created' }];
    const r = await kc(['apply', '-f', '-'], stringify(policy));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /propagationpolicy\.policy\.karmada\.io\/nowhere created/);
    const got = await http.get(`${PP}/nowhere`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.spec.placement.clusterAffinity.clusterNames, ['no-such-cluster']);
    const cop = await http.post(COP, op('fine', { plaintext: [{ path: '/spec/replicas', operator: 'replace', value: 2 }] }, 'ClusterOverridePolicy'));
    assert.equal(cop.status, 201, cop.text);
  });

  it('judges the final object of updates: PUT, merge and JSON patches, client- and server-side apply', async () => {
    const created = await http.post(PP, pp('live', { clusterAffinity: { clusterNames: ['member1'] } }));
    assert.equal(created.status, 201, created.text);
    const path = `${PP}/live`;

    const put = await http.put(path, { ...created.body, spec: { ...created.body.spec, placement: bothAffinities } });
    assertInvalid(put, 'PropagationPolicy', 'live', [{ field: 'spec.placement' }]);

    // Each patch is harmless alone; with what is stored, the result is what Karmada refuses.
    const merge = await http.patch(path, PATCH.merge, { spec: { placement: { clusterAffinities: [{ affinityName: 'a', clusterNames: ['member2'] }] } } });
    assertInvalid(merge, 'PropagationPolicy', 'live', [{ field: 'spec.placement', message: 'clusterAffinities cannot co-exist with clusterAffinity' }]);
    const json = await http.patch(path, PATCH.json, [{ op: 'add', path: '/spec/placement/spreadConstraints', value: badSpread.spreadConstraints }]);
    assertInvalid(json, 'PropagationPolicy', 'live', [{ field: 'spec.placement.spreadConstraints[0]' }]);
    const strategic = await http.patch(path, PATCH.strategic, { spec: { placement: { clusterAffinities: [{ affinityName: 'a' }] } } });
    assert.equal(strategic.status, 415, 'custom resources take no strategic merge patch, as in kube');

    const ssa = await http.patch(`${path}?fieldManager=test`, PATCH.apply, pp('live', bothAffinities));
    assertInvalid(ssa, 'PropagationPolicy', 'live', [{ field: 'spec.placement' }]);

    const clientSide = await kc(['apply', '-f', '-'], stringify(pp('live', bothAffinities)));
    assert.notEqual(clientSide.code, 0);
    assert.match(clientSide.stderr, /The PropagationPolicy "live" is invalid: spec\.placement/);

    const after = await http.get(path);
    assert.equal(after.body.metadata.resourceVersion, created.body.metadata.resourceVersion, 'no refused write reached the upstream');

    // A valid change still goes through every path.
    const ok = await http.patch(path, PATCH.merge, { spec: { placement: { clusterAffinity: null, clusterAffinities: [{ affinityName: 'a', clusterNames: ['member2'] }] } } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.spec.placement.clusterAffinity, undefined);
  });

  it('does not judge deletes or other groups', async () => {
    const del = await http.delete(`${PP}/nowhere`);
    assert.equal(del.status, 200, del.text);
    const cm = await http.post(`/api/v1/namespaces/${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { placement: 'x' } });
    assert.equal(cm.status, 201, cm.text);
  });
});
