// Property: whatever a hostile tenant puts in a body (kind and apiVersion
// removed, swapped or forged; metadata with another tenant's prefixes, names
// and namespaces; RBAC subjects and roleRefs naming upstream identities or
// another tenant; CRD webhook services; binding resources), through create,
// update, server-side apply and the JSON, merge and strategic patches the
// gateway applies itself, the object that reaches the upstream (the one the
// guard sees, and the one sent) belongs to the caller, or the write is refused.
// The ownership checks below are written here, apart from the guard and the
// translator.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../../../src/core/api-error.ts';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import { translateRequest, type ForwardedRequest } from '../../../../src/core/tenancy/request-translation.ts';
import { toUpstreamObject } from '../../../../src/core/tenancy/object-translation.ts';
import { requestKindOf } from '../../../../src/core/tenancy/request-kind.ts';
import { guardUpstreamRequest } from '../../../../src/core/tenancy/isolation-guard.ts';
import { translateWrite, type WriteTarget } from '../../../../src/gateway/forward/write-object.ts';
import { patchByReadModifyWrite } from '../../../../src/gateway/forward/patch-by-update.ts';
import type { Upstream } from '../../../../src/kube/upstream.ts';

const A = 'aaaaaa';
const ctx = { id: A, user: 'eve' };
const RBAC = 'rbac.authorization.k8s.io';

interface Route { resource: string; path: string; name: string; kind: string; apiVersion: string }
const ROUTES: Route[] = [
  { resource: 'rolebindings', path: `/apis/${RBAC}/v1/namespaces/web/rolebindings`, name: 'rb', kind: 'RoleBinding', apiVersion: `${RBAC}/v1` },
  { resource: 'clusterrolebindings', path: `/apis/${RBAC}/v1/clusterrolebindings`, name: 'crb', kind: 'ClusterRoleBinding', apiVersion: `${RBAC}/v1` },
  { resource: 'namespaces', path: '/api/v1/namespaces', name: 'web', kind: 'Namespace', apiVersion: 'v1' },
  { resource: 'customresourcedefinitions', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', name: 'foos.a.com', kind: 'CustomResourceDefinition', apiVersion: 'apiextensions.k8s.io/v1' },
  // No ClusterResourceBinding: the engine's objects are read-only to tenants, refused before any body is read
  // (request-translation's read-only rows; test/unit/core/tenancy/engine-managed-read-only.test.ts).
  { resource: 'configmaps', path: '/api/v1/namespaces/web/configmaps', name: 'cm', kind: 'ConfigMap', apiVersion: 'v1' },
  { resource: 'pods', path: '/api/v1/namespaces/web/pods', name: 'p', kind: 'Pod', apiVersion: 'v1' },
];

// Values a hostile tenant reaches for.
const nameish = fc.constantFrom('web', 'x', 'bbbbbb-web', 'aaaaaa-web', 'kube-system', 'default', 'admin', 'cluster-admin', 'bbbbbb-admin', '');
const identity = fc.constantFrom('system:masters', 'admin', 'system:admin', 'warren:bbbbbb:admin', 'system:serviceaccount:bbbbbb-web:default', 'system:serviceaccount:web:default', 'system:serviceaccounts', 'system:serviceaccounts:bbbbbb-web', 'dev', 'system:authenticated');
const subject = fc.oneof(
  fc.record({ kind: fc.constantFrom('User', 'Group'), apiGroup: fc.constant(RBAC), name: identity }),
  fc.record({ kind: fc.constant('ServiceAccount'), name: fc.constant('default'), namespace: nameish }, { requiredKeys: ['kind', 'name'] }),
);
const kindField = fc.constantFrom(undefined, '', 'RoleBinding', 'ClusterRoleBinding', 'Role', 'Namespace', 'CustomResourceDefinition', 'ClusterResourceBinding', 'ConfigMap', 'Secret', 'Pod');
const apiVersionField = fc.constantFrom(undefined, '', 'v1', `${RBAC}/v1`, `${RBAC}/v1beta1`, 'apps/v1', 'apiextensions.k8s.io/v1', 'work.karmada.io/v1alpha2', 'bbbbbb-a.com/v1');
const labels = fc.dictionary(fc.constantFrom('pod-security.kubernetes.io/enforce', 'app', 'kubernetes.io/metadata.name'), fc.constantFrom('privileged', 'restricted', 'bbbbbb-web', 'x'));
const body = fc.record({
  apiVersion: apiVersionField,
  kind: kindField,
  metadata: fc.record({ name: nameish, namespace: nameish, generateName: nameish, labels, ownerReferences: fc.array(fc.record({ apiVersion: fc.constantFrom('v1', 'bbbbbb-a.com/v1', `${RBAC}/v1`), kind: fc.constantFrom('Namespace', 'Node', 'ClusterRole', 'Foo', 'ConfigMap'), name: nameish, uid: fc.constant('u') }), { maxLength: 2 }) }, { requiredKeys: [] }),
  subjects: fc.array(subject, { maxLength: 3 }),
  roleRef: fc.record({ apiGroup: fc.constant(RBAC), kind: fc.constantFrom('ClusterRole', 'Role'), name: nameish }),
  spec: fc.record({
    group: fc.constantFrom('a.com', 'bbbbbb-a.com', 'aaaaaa-a.com'),
    conversion: fc.record({ strategy: fc.constant('Webhook'), webhook: fc.record({ clientConfig: fc.record({ service: fc.record({ namespace: nameish, name: fc.constant('s') }) }) }) }),
    resource: fc.record({ apiVersion: fc.constantFrom('v1', 'apps/v1'), kind: fc.constantFrom('Namespace', 'Deployment'), namespace: nameish, name: nameish }, { requiredKeys: ['apiVersion', 'kind', 'name'] }),
    affinity: fc.record({ podAffinity: fc.record({ requiredDuringSchedulingIgnoredDuringExecution: fc.array(fc.record({ topologyKey: fc.constant('z'), namespaces: fc.array(nameish, { maxLength: 2 }) }), { maxLength: 1 }) }) }),
  }, { requiredKeys: [] }),
}, { requiredKeys: [] }).map((b) => JSON.parse(JSON.stringify(b)) as KubeObject);

const owned = (v: unknown): boolean => typeof v === 'string' && v.startsWith(`${A}-`) && v.length > A.length + 1;
const ownIdentity = (name: string): boolean =>
  name.startsWith(`warren:${A}:`) || /^system:serviceaccount:aaaaaa-[^:]+:[^:]+$/.test(name) || /^system:serviceaccounts:aaaaaa-[^:]+$/.test(name);

/** The caller's own, judged here with no code shared with the gateway. */
function assertBelongsToCaller(route: Route, fwd: ForwardedRequest, sent: KubeObject): void {
  assert.equal(sent.kind, route.kind, 'kind is the request\'s');
  assert.equal(sent.apiVersion, route.apiVersion, 'apiVersion is the request\'s');
  assert.equal(sent.metadata.labels?.['tenancy.warren.dev/tenant'], A, 'tenant label');
  if (fwd.namespaced) assert.ok(sent.metadata.namespace === undefined || sent.metadata.namespace === fwd.namespace, 'namespace is the path\'s');
  else {
    assert.equal(sent.metadata.namespace, undefined);
    const name = sent.metadata.name ?? sent.metadata.generateName;
    assert.ok(route.kind === 'CustomResourceDefinition' ? owned(String(name).slice(String(name).indexOf('.') + 1)) : owned(name), `cluster-scoped name ${String(name)} is the tenant's`);
  }
  for (const ref of sent.metadata.ownerReferences ?? []) {
    if (ref.apiVersion.includes('/') && !ref.apiVersion.startsWith(RBAC)) assert.ok(owned(ref.apiVersion.split('/')[0]), 'owner group');
    const core = ref.apiVersion === 'v1';
    if ((core && ref.kind === 'Namespace') || (ref.apiVersion.startsWith(RBAC) && ref.kind === 'ClusterRole')) assert.ok(owned(ref.name), 'owner name');
    assert.ok(!(core && ref.kind === 'Node'), 'owner is a Node');
  }
  if (route.kind.endsWith('RoleBinding')) {
    for (const s of (sent.subjects as Array<{ kind: string; name: string; namespace?: string }> | undefined) ?? []) {
      if (s.kind === 'ServiceAccount') assert.ok(owned(s.namespace), `service account in ${String(s.namespace)}`);
      else assert.ok(ownIdentity(s.name), `subject ${s.name}`);
    }
    const ref = sent.roleRef as { kind: string; name: string } | undefined;
    assert.ok(ref, 'a binding without roleRef is not sent');
    if (ref.kind === 'ClusterRole') assert.ok(owned(ref.name), `roleRef ${ref.name}`);
    else assert.equal(route.kind, 'RoleBinding');
  }
  if (route.kind === 'Namespace') assert.equal(sent.metadata.labels?.['pod-security.kubernetes.io/enforce'], 'restricted');
  const spec = sent.spec as Record<string, any> | undefined;
  if (route.kind === 'CustomResourceDefinition') {
    assert.ok(owned(spec?.group), 'CRD group');
    const ns = spec?.conversion?.webhook?.clientConfig?.service?.namespace;
    if (ns !== undefined) assert.ok(owned(ns), 'webhook service namespace');
  }
  if (route.kind === 'Pod') for (const term of spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) for (const ns of term.namespaces ?? []) assert.ok(owned(ns), `affinity namespace ${ns}`);
}

function forwardOf(method: string, path: string): { info: ReturnType<typeof parseRequestInfo>; fwd: ForwardedRequest } {
  const info = parseRequestInfo(method, path, new URLSearchParams());
  const fwd = translateRequest(ctx, info, new URLSearchParams());
  assert.equal(fwd.action, 'forward');
  return { info, fwd: fwd as ForwardedRequest };
}

const targetOf = (info: ReturnType<typeof parseRequestInfo>, fwd: ForwardedRequest): WriteTarget => ({ ctx, info, fwd, kind: requestKindOf(ctx, info), podSecurity: 'restricted' });
const guardOf = (method: string, fwd: ForwardedRequest, sent: unknown) => guardUpstreamRequest(A, { method, path: fwd.path, query: fwd.query, body: sent, podSecurity: 'restricted' });

/** Refusals must be Status errors in the 4xx range (never a crash, never a 5xx). */
function assertRefusal(err: unknown): void {
  assert.ok(err instanceof ApiError, `not an ApiError: ${String(err)}`);
  assert.ok(err.code >= 400 && err.code < 500, `code ${err.code}: ${err.message}`);
}

describe('write path property: what reaches the upstream belongs to the caller, or the write is refused', () => {
  it('create, update and server-side apply bodies', () => {
    fc.assert(fc.property(fc.constantFrom(...ROUTES), fc.constantFrom('create', 'update', 'apply'), body, (route, verb, tenantBody) => {
      const method = verb === 'create' ? 'POST' : verb === 'update' ? 'PUT' : 'PATCH';
      const path = verb === 'create' ? route.path : `${route.path}/${route.name}`;
      const { info, fwd } = forwardOf(method, path);
      let sent: KubeObject;
      try {
        sent = translateWrite(targetOf(info, fwd), tenantBody, { source: 'body', verb }).upstream;
      } catch (err) {
        assertRefusal(err);
        return;
      }
      if (guardOf(method, fwd, sent)) return; // refused by the guard: nothing is sent
      assertBelongsToCaller(route, fwd, sent);
    }), { numRuns: 600 });
  });

  it('JSON, merge and strategic patches, judged on the final object', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...ROUTES), fc.constantFrom('json', 'merge', 'strategic'), body, async (route, patchType, tenantBody) => {
      const { info, fwd } = forwardOf('PATCH', `${route.path}/${route.name}`);
      // The stored object: a valid one of the caller's, as the gateway would have written it.
      const stored = toUpstreamObject(ctx, {
        apiVersion: route.apiVersion, kind: route.kind, metadata: { name: route.name, ...(fwd.namespaced ? { namespace: 'web' } : {}), resourceVersion: '7' },
        ...(route.kind.endsWith('RoleBinding') ? { roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' }, subjects: [] } : {}),
        ...(route.kind === 'CustomResourceDefinition' ? { spec: { group: 'a.com' } } : {}),
      }, { namespaced: fwd.namespaced });
      const sent: KubeObject[] = [];
      const upstream = {
        request: async (method: string, _path: string, b?: unknown) => {
          if (method === 'GET') return { status: 200, headers: {}, body: structuredClone(stored) };
          sent.push(b as KubeObject);
          return { status: 200, headers: {}, body: b };
        },
      } as unknown as Upstream;
      const patch = patchType === 'json'
        ? Object.entries(tenantBody).map(([k, v]) => ({ op: 'add', path: `/${k}`, value: v }))
        : tenantBody;
      const guarded: KubeObject[] = [];
      try {
        await patchByReadModifyWrite({
          upstream, target: targetOf(info, fwd), prepared: { method: 'PUT', path: fwd.path, query: fwd.query, mode: 'patch', body: patch, patchType },
          vet: async (final) => {
            guarded.push(final.upstream);
            const refusal = guardOf('PUT', fwd, final.upstream);
            if (refusal) throw refusal;
          },
        });
      } catch (err) {
        assertRefusal(err);
        assert.equal(sent.length, 0, 'nothing written when refused');
        return;
      }
      assert.equal(sent.length, 1);
      assert.equal(sent[0], guarded[0], 'the object sent is the one the guard judged');
      assertBelongsToCaller(route, fwd, sent[0]!);
    }), { numRuns: 400 });
  });
});
