// Boundary: translation + guard + admission on the write path. The URL decides
// the kind, never the body: a body that omits `kind` or `apiVersion` is still
// translated, guarded and admitted as the URL's kind (or refused), and one that
// contradicts the URL is a 400. Each case is judged on the host: what was
// stored, with which subjects, labels and references (break 2, and the
// server-side-apply namespace and hidden-create cases). Then fast-check sends
// generated hostile bodies and a host snapshot proves nothing outside the
// caller's prefix was written.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KubeObject } from '../../src/core/types.ts';
import { PATCH } from '../helpers/kube-http.ts';
import { useAdversaryEnv } from './support/adversary-env.ts';
import { assertRefused } from './support/verdicts.ts';
import { outsideTenant } from './support/tenant-scope.ts';
import { changedOutside, snapshot, writtenInside } from './support/host-snapshot.ts';
import { hostileRequest, type HostileCase } from './support/hostile-bodies.ts';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const ENFORCE = 'pod-security.kubernetes.io/enforce';

function without<T extends object>(obj: T, ...keys: string[]): Partial<T> {
  const copy: Record<string, unknown> = { ...(obj as Record<string, unknown>) };
  for (const k of keys) delete copy[k];
  return copy as Partial<T>;
}

describe('adversarial: the write path (kind-less bodies, references, admission)', { timeout: 240_000 }, () => {
  const env = useAdversaryEnv('write-path');
  let acmeId = '';
  let globexId = '';
  const globex = () => env.http('globex');
  const hostGet = (path: string) => env.host().request<KubeObject>('GET', path);

  before(async () => {
    acmeId = env.idOf('acme');
    globexId = env.idOf('globex');
    await env.as('acme')('create', 'namespace', 'shop');
  });

  it('break 2: a Namespace without kind or apiVersion, or patched, asking for privileged ends up restricted upstream or is refused', async () => {
    const privileged = { metadata: { labels: { [ENFORCE]: 'privileged' } } };
    const attempts: Array<[string, Promise<{ status: number }>]> = [
      ['ns-nokind', globex().post('/api/v1/namespaces', { apiVersion: 'v1', metadata: { name: 'ns-nokind', labels: { [ENFORCE]: 'privileged' } } })],
      ['ns-noapiversion', globex().post('/api/v1/namespaces', { kind: 'Namespace', metadata: { name: 'ns-noapiversion', labels: { [ENFORCE]: 'privileged' } } })],
      ['ns-bare', globex().post('/api/v1/namespaces', { metadata: { name: 'ns-bare', labels: { [ENFORCE]: 'privileged' } } })],
    ];
    for (const [name, request] of attempts) {
      const res = await request;
      const stored = await hostGet(`/api/v1/namespaces/${globexId}-${name}`);
      if (stored.status === 404) {
        assert.ok(res.status === 403 || res.status === 400, `${name}: refused with 403 or 400, got ${res.status}`);
        continue;
      }
      assert.equal(stored.body.metadata.labels?.[ENFORCE], 'restricted', `${name}: stored upstream with enforce=${stored.body.metadata.labels?.[ENFORCE]}`);
    }
    // An existing namespace, weakened by merge patch, by a patch without kind in an apply, and by PUT.
    await env.as('globex')('create', 'namespace', 'plain');
    await globex().patch('/api/v1/namespaces/plain', PATCH.merge, privileged);
    await globex().patch('/api/v1/namespaces/plain?fieldManager=evil&force=true', PATCH.apply, JSON.stringify({ apiVersion: 'v1', metadata: { name: 'plain', labels: { [ENFORCE]: 'privileged' } } }));
    const current = await globex().get('/api/v1/namespaces/plain');
    await globex().put('/api/v1/namespaces/plain', without({ ...current.body, metadata: { ...current.body.metadata, labels: { [ENFORCE]: 'privileged' } } }, 'kind'));
    const plain = await hostGet(`/api/v1/namespaces/${globexId}-plain`);
    assert.equal(plain.body.metadata.labels?.[ENFORCE], 'restricted', 'the patched namespace stays restricted upstream');
  });

  it('break 2: a RoleBinding without apiVersion naming system:masters, admin or acme\'s ServiceAccount is never stored with those subjects', async () => {
    const subjects = [
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' },
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'admin' },
      { kind: 'ServiceAccount', name: 'default', namespace: `${acmeId}-shop` },
    ];
    const roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' };
    const bodies: Array<[string, Record<string, unknown>]> = [
      ['rb-noapiversion', { kind: 'RoleBinding', metadata: { name: 'rb-noapiversion' }, roleRef, subjects }],
      ['rb-nokind', { apiVersion: 'rbac.authorization.k8s.io/v1', metadata: { name: 'rb-nokind' }, roleRef, subjects }],
      ['rb-bare', { metadata: { name: 'rb-bare' }, roleRef, subjects }],
    ];
    for (const [name, body] of bodies) {
      const res = await globex().post(`${RBAC}/namespaces/default/rolebindings`, body);
      const stored = await hostGet(`${RBAC}/namespaces/${globexId}-default/rolebindings/${name}`);
      if (stored.status === 404) {
        assert.ok(res.status === 403 || res.status === 400, `${name}: refused with 403 or 400 when not stored, got ${res.status}`);
        continue;
      }
      // Stored: then only in globex's own terms, and the caller was told so (no 404-but-stored).
      assert.ok(res.status === 201, `${name}: stored upstream but answered ${res.status}`);
      assert.deepEqual(outsideTenant(stored.body, globexId), [], `${name}: stored upstream as ${JSON.stringify({ roleRef: (stored.body as { roleRef?: unknown }).roleRef, subjects: (stored.body as { subjects?: unknown }).subjects })}`);
    }
    // The same through a PUT over an existing binding, without apiVersion.
    await env.as('globex')('create', 'rolebinding', 'viewers', '-n', 'default', '--clusterrole=view', '--user=frank');
    const existing = await globex().get(`${RBAC}/namespaces/default/rolebindings/viewers`);
    await globex().put(`${RBAC}/namespaces/default/rolebindings/viewers`, without({ ...existing.body, roleRef: existing.body.roleRef, subjects }, 'apiVersion'));
    const viewers = await hostGet(`${RBAC}/namespaces/${globexId}-default/rolebindings/viewers`);
    assert.deepEqual(outsideTenant(viewers.body, globexId), [], 'PUT without apiVersion keeps the subjects in globex\'s terms');
  });

  it('break 2: a CRD whose conversion webhook names acme\'s namespace is refused, in any spelling; nothing reaches acme upstream', async () => {
    const crd = (name: string, namespace: string) => ({
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${name}.evil.example.com` },
      spec: {
        group: 'evil.example.com', scope: 'Namespaced', names: { plural: name, singular: name.slice(0, -1), kind: name[0]!.toUpperCase() + name.slice(1, -1), listKind: `${name[0]!.toUpperCase() + name.slice(1, -1)}List` },
        versions: ['v1', 'v2'].map((v, i) => ({ name: v, served: true, storage: i === 0, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } })),
        conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: { namespace, name: 'hook', path: '/convert' } } } },
      },
    });
    const attempts: Array<[string, unknown]> = [
      ['widgets', without(crd('widgets', `${acmeId}-shop`), 'apiVersion')],
      ['gadgets', without(crd('gadgets', `${acmeId}-shop`), 'kind')],
      ['sprockets', { ...crd('sprockets', `${acmeId}-shop`), metadata: { name: `sprockets.${globexId}-evil.example.com` } }],
    ];
    for (const [plural, body] of attempts) {
      const res = await globex().post(CRDS, body);
      const list = await env.host().request<{ items: KubeObject[] }>('GET', CRDS);
      const stored = list.body.items.filter((c) => (c.metadata.name ?? '').startsWith(`${plural}.`));
      for (const c of stored) assert.deepEqual(outsideTenant(c, globexId), [], `${plural}: stored upstream as ${c.metadata.name} ${JSON.stringify((c.spec as { conversion?: unknown }).conversion)}`);
      if (stored.length === 0) assert.ok(res.status === 403 || res.status === 400 || res.status === 422, `${plural}: refused, got ${res.status}`);
    }
    // In plain spelling the tenant names its own namespace `<acmeid>-shop`: stored as globex's, or refused; never acme's.
    const plain = await globex().post(CRDS, crd('levers', `${acmeId}-shop`));
    const stored = await hostGet(`${CRDS}/levers.${globexId}-evil.example.com`);
    if (stored.status === 200) assert.deepEqual(outsideTenant(stored.body, globexId), []);
    else assert.ok(plain.status >= 400 && plain.status < 500, `levers: ${plain.status}`);
  });

  it('a body whose kind or apiVersion disagrees with the URL is a 400, and nothing is stored', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['Secret at configmaps', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'mismatch-a' } }],
      ['apps/v1 ConfigMap', '/api/v1/namespaces/default/configmaps', { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'mismatch-b' } }],
      ['ClusterRoleBinding at rolebindings', `${RBAC}/namespaces/default/rolebindings`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'mismatch-c' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [] }],
      ['Namespace at rolebindings', `${RBAC}/namespaces/default/rolebindings`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'mismatch-d' } }],
    ];
    for (const [what, path, body] of cases) assertRefused(await globex().post(path, body), 400, what, [globexId]);
    for (const n of ['mismatch-a', 'mismatch-b']) assert.equal((await hostGet(`/api/v1/namespaces/${globexId}-default/configmaps/${n}`)).status, 404);
    assert.equal((await hostGet(`/api/v1/namespaces/${globexId}-default/secrets/mismatch-a`)).status, 404);
    assert.equal((await hostGet(`${RBAC}/namespaces/${globexId}-default/rolebindings/mismatch-c`)).status, 404);
    assert.equal((await hostGet(`${RBAC}/clusterrolebindings/${globexId}-mismatch-c`)).status, 404);
  });

  it('server-side apply whose metadata.namespace is not the URL\'s is a 400, and nothing is stored', async () => {
    for (const ns of ['kube-system', `${acmeId}-shop`, 'shop']) {
      const res = await globex().patch(`/api/v1/namespaces/default/configmaps/ssa-${ns.length}?fieldManager=evil&force=true`, PATCH.apply,
        JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `ssa-${ns.length}`, namespace: ns }, data: { a: 'b' } }));
      // kube's message echoes the namespace the caller sent; only what the caller did not write counts as a leak.
      assertRefused({ ...res, text: res.text.replaceAll(ns, '<sent>') }, 400, `apply with metadata.namespace ${ns}`, [globexId, acmeId]);
    }
    const list = await env.host().request<{ items: KubeObject[] }>('GET', '/api/v1/configmaps');
    assert.deepEqual(list.body.items.filter((c) => (c.metadata.name ?? '').startsWith('ssa-')).map((c) => `${c.metadata.namespace}/${c.metadata.name}`), []);
  });

  it('a create whose result the caller could not see is not stored (no 404-but-stored)', async () => {
    // Bodies that today slip past translation: whatever the answer, a 404 or 403 must mean nothing was stored, and 201 must mean globex can read it.
    const bodies: Array<[string, string, Record<string, unknown>]> = [
      ['hidden-rb', `${RBAC}/namespaces/default/rolebindings`, { kind: 'RoleBinding', metadata: { name: 'hidden-rb' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'frank' }] }],
      ['hidden-rb2', `${RBAC}/namespaces/default/rolebindings`, { kind: 'RoleBinding', metadata: { name: 'hidden-rb2' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'x' }, subjects: [] }],
      ['hidden-cm', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'hidden-cm', labels: { 'tenancy.warren.dev/tenant': acmeId } }, data: { a: 'b' } }],
      ['hidden-cm2', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'hidden-cm2', labels: { 'tenancy.warren.dev/tenant': acmeId } } }],
    ];
    for (const [name, path, body] of bodies) {
      const res = await globex().post(path, body);
      const readBack = await globex().get(`${path}/${name}`);
      const hostPath = path.replace('/namespaces/default/', `/namespaces/${globexId}-default/`);
      const stored = await hostGet(`${hostPath}/${name}`);
      if (res.status === 201) assert.equal(readBack.status, 200, `${name}: created (201) but hidden from its creator (${readBack.status})`);
      else assert.equal(stored.status, 404, `${name}: answered ${res.status} yet stored upstream`);
      if (stored.status === 200) assert.deepEqual(outsideTenant(stored.body, globexId), [], `${name} upstream`);
    }
  });

  it('property: generated hostile bodies write nothing outside globex\'s prefix, and every stored object stays in globex\'s terms', async () => {
    const ids = { self: globexId, other: acmeId };
    let run = 0;
    await fc.assert(fc.asyncProperty(hostileRequest(ids), async (c: HostileCase) => {
      run++;
      const before = await snapshot(env.host());
      const res = await globex().request(c.method, c.path, { body: c.body, contentType: c.contentType });
      const after = await snapshot(env.host());
      assert.ok(res.status < 500, `${c.method} ${c.path} → ${res.status}: ${res.text.slice(0, 200)}`);
      assert.deepEqual(changedOutside(before, after, globexId), [], `${c.method} ${c.path} ${String(c.body).slice(0, 300)}`);
      for (const obj of writtenInside(before, after, globexId).filter((o) => (o.metadata.name ?? '').includes('fc'))) {
        assert.deepEqual(outsideTenant(obj, globexId, { podSecurity: 'restricted' }), [], `${c.method} ${c.path} ${String(c.body).slice(0, 300)}`);
      }
    }), { numRuns: 40, endOnFailure: true });
    assert.equal(run, 40);
  });
});
