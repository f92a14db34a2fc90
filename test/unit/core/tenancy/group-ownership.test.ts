// Break 6: a group was taken for a built-in one by its suffix, so tenant A's
// `<A>-foo.k8s.io` showed in tenant B's discovery and OpenAPI. Groups are now
// classified by ownership: the caller's prefix, or the resource table.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  checkCrdGroup, crdGroupRefusal, isBuiltinGroup, isCustomGroup, KNOWN_GROUPS, RESERVED_SUFFIXES, upstreamGroupView,
} from '../../../../src/core/tenancy/resource-classes.ts';
import { toTenantAggregatedDiscovery, toTenantGroupList, toTenantResourceList } from '../../../../src/core/tenancy/discovery-translation.ts';
import { translateRequest } from '../../../../src/core/tenancy/request-translation.ts';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';
import { toUpstreamObject } from '../../../../src/core/tenancy/object-translation.ts';
import { ApiError } from '../../../../src/core/api-error.ts';
import { tenantSwagger } from '../../../../src/gateway/answered/openapi.ts';
import { apiVersionToTenant } from '../../../../src/core/tenancy/kind-treatment.ts';

const tenantIdArb = fc.stringMatching(/^[a-z][a-z0-9]{5}$/);
const labelArb = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
const plainGroupArb = fc.array(labelArb, { minLength: 1, maxLength: 3 }).map((parts) => `${parts.join('.')}.com`);
const knownGroupArb = fc.constantFrom(...[...KNOWN_GROUPS].filter((g) => g !== ''));
const reservedArb = fc.tuple(labelArb, fc.constantFrom(...RESERVED_SUFFIXES, '.k8s.io.evil.com', 'k8s.io', 'kubernetes.io', 'karmada.io'))
  .map(([head, suffix]) => (suffix.startsWith('.') ? `${head}${suffix}` : suffix));
const lookAlikeArb = fc.tuple(knownGroupArb, fc.constantFrom('x', '-', '.evil.com', 'x.k8s.io')).map(([g, extra]) => `${g}${extra}`);

/** Any group a tenant might write: plain, built-in, reserved, look-alikes, and spelled with any prefix. */
function tenantGroupArb(otherId: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const base = fc.oneof(plainGroupArb, knownGroupArb, reservedArb, lookAlikeArb);
  return fc.oneof(base, fc.tuple(otherId, base).map(([id, g]) => `${id}-${g}`));
}

const versions = (name: string) => ({ name, versions: [{ groupVersion: `${name}/v1`, version: 'v1' }], preferredVersion: { groupVersion: `${name}/v1`, version: 'v1' } });
const aggregatedItem = (name: string) => ({
  metadata: { name },
  versions: [{ version: 'v1', resources: [{ resource: 'foos', responseKind: { group: name, version: 'v1', kind: 'Foo' }, subresources: [{ subresource: 'status', responseKind: { group: name, version: 'v1', kind: 'Foo' } }] }] }],
});
function swaggerOf(groups: string[]) {
  const definitions: Record<string, unknown> = {};
  const paths: Record<string, unknown> = {};
  for (const g of groups) {
    definitions[`${g.split('.').reverse().join('.')}.v1.Foo`] = { description: `schema of ${g}`, 'x-kubernetes-group-version-kind': [{ group: g, version: 'v1', kind: 'Foo' }] };
    paths[`/apis/${g}/v1/foos`] = { get: { description: `list ${g}` } };
  }
  return { swagger: '2.0', definitions, paths };
}

describe('CRD groups are classified by ownership, never by suffix', () => {
  it('the attack: A\'s group in a reserved domain is not built-in for B', () => {
    assert.equal(upstreamGroupView('globex', 'acme01-foo.k8s.io'), undefined);
    assert.equal(upstreamGroupView('globex', 'acme01-foo.karmada.io'), undefined);
    assert.equal(upstreamGroupView('globex', 'acme01-foo.kubernetes.io'), undefined);
    assert.deepEqual(upstreamGroupView('globex', 'apps'), { group: 'apps', custom: false });
    assert.deepEqual(upstreamGroupView('globex', 'globex-a.com'), { group: 'a.com', custom: true });
    // A group the upstream serves but the table does not know is nobody's to see.
    assert.equal(upstreamGroupView('globex', 'resource.k8s.io'), undefined);
    assert.equal(upstreamGroupView('globex', 'platform.example.com'), undefined);
  });

  it('with the tenant\'s CRD list, a prefixed group without a CRD is hidden too', () => {
    assert.deepEqual(upstreamGroupView('globex', 'globex-a.com', new Set(['a.com'])), { group: 'a.com', custom: true });
    assert.equal(upstreamGroupView('globex', 'globex-b.com', new Set(['a.com'])), undefined);
  });

  it('no built-in group can be read as some tenant\'s prefixed group', () => {
    for (const g of KNOWN_GROUPS) assert.doesNotMatch(g, /^[a-z][a-z0-9]{5}-/, g);
  });

  it('what a tenant may name its CRD groups', () => {
    const cases: Array<[string, RegExp | undefined]> = [
      ['a.com', undefined], ['example.io', undefined], ['k8s.io.example.com', undefined],
      ['foo.k8s.io', /k8s\.io are reserved/], ['k8s.io', /k8s\.io are reserved/], ['x.kubernetes.io', /kubernetes\.io are reserved/],
      ['mine.karmada.io', /karmada\.io are reserved/], ['policy.karmada.io', /built-in/], ['apps', /built-in/],
      ['x.tenancy.warren.dev', /warren\.dev are reserved/],
    ];
    for (const [group, want] of cases) {
      const why = crdGroupRefusal(group);
      if (want) assert.match(why ?? '', want, group);
      else assert.equal(why, undefined, group);
      assert.equal(isCustomGroup(group), want === undefined, group);
    }
  });

  it('a CRD in a reserved group is refused with 422 in tenant terms', () => {
    const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'foos.foo.k8s.io' }, spec: { group: 'foo.k8s.io', names: { plural: 'foos', kind: 'Foo' }, scope: 'Namespaced' } };
    assert.throws(() => toUpstreamObject({ id: 'acme01' }, structuredClone(crd)), (err: unknown) => {
      assert.ok(err instanceof ApiError);
      assert.equal(err.code, 422);
      assert.equal(err.reason, 'Invalid');
      assert.match(err.message, /^CustomResourceDefinition\.apiextensions\.k8s\.io "foos\.foo\.k8s\.io" is invalid: spec\.group: Invalid value: "foo\.k8s\.io"/);
      assert.doesNotMatch(err.message, /acme01/);
      return true;
    });
    const ok = toUpstreamObject({ id: 'acme01' }, { ...structuredClone(crd), metadata: { name: 'foos.a.com' }, spec: { ...crd.spec, group: 'a.com' } });
    assert.equal((ok.spec as { group: string }).group, 'acme01-a.com');
    assert.equal(checkCrdGroup('foos.a.com', 'a.com'), null);
  });

  it('a CRD group valid only once prefixed (leading "-") or over the budget is a 422 in tenant terms (property)', () => {
    const kubeSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
    const chars = fc.constantFrom(...'ab0-.'.split(''));
    fc.assert(fc.property(fc.array(chars, { minLength: 1, maxLength: 30 }).map((c) => `${c.join('')}.com`), (group) => {
      fc.pre(crdGroupRefusal(group) === undefined);
      const err = checkCrdGroup(`foos.${group}`, group);
      assert.equal(err === null, kubeSubdomain.test(group), `${JSON.stringify(group)}: ${err?.message}`);
    }));
    const long = checkCrdGroup('foos.x', `${'a'.repeat(247)}.com`);
    assert.match(long?.message ?? '', /must be no more than 246 characters/);
  });

  it('property: B\'s discovery and OpenAPI never show A\'s groups or A\'s id', () => {
    fc.assert(fc.property(tenantIdArb, tenantIdArb, fc.array(tenantGroupArb(tenantIdArb), { minLength: 1, maxLength: 6 }), (a, b, groupsOfA) => {
      fc.pre(a !== b && !b.startsWith(`${a}-`));
      // Upstream holds A's groups (whatever A named them, reserved ones included: CRDs made
      // before the refusal), built-in groups, and a group of B's own.
      const upstreamGroups = [...groupsOfA.map((g) => `${a}-${g}`), 'apps', 'policy.karmada.io', `${b}-mine.com`];
      const docs = [
        toTenantGroupList(b, { kind: 'APIGroupList', groups: upstreamGroups.map(versions) }),
        toTenantAggregatedDiscovery(b, { kind: 'APIGroupDiscoveryList', items: upstreamGroups.map(aggregatedItem) }),
        tenantSwagger(b, swaggerOf(upstreamGroups)),
        ...upstreamGroups.map((g) => toTenantResourceList(b, { kind: 'APIResourceList', groupVersion: `${g}/v1`, resources: [{ name: 'foos' }] }) ?? {}),
      ];
      for (const doc of docs) {
        const text = JSON.stringify(doc);
        assert.ok(!text.includes(`${a}-`), `B's view names A's prefix: ${text.slice(0, 400)}`);
      }
      for (const g of groupsOfA) {
        const view = upstreamGroupView(b, `${a}-${g}`);
        assert.equal(view, undefined, `${a}-${g} shows to ${b} as ${JSON.stringify(view)}`);
        assert.equal(apiVersionToTenant({ id: b }, `${a}-${g}/v1`), undefined);
      }
      // B's own group stays visible, under its own spelling.
      assert.ok(JSON.stringify(docs[0]).includes('"mine.com"'));
    }), { numRuns: 300 });
  });

  it('property: B\'s paths in any group reach only B\'s prefix or a built-in group', () => {
    fc.assert(fc.property(tenantIdArb, tenantGroupArb(tenantIdArb), (b, group) => {
      const path = `/apis/${group}/v1/namespaces/dev/foos/x`;
      const query = new URLSearchParams();
      let upstreamPath: string;
      try {
        const out = translateRequest({ id: b }, parseRequestInfo('GET', path, query), query);
        if (out.action !== 'forward') return;
        upstreamPath = out.path;
      } catch (err) {
        assert.ok(err instanceof ApiError, String(err));
        assert.ok([403, 404, 405].includes(err.code), `${path}: ${err.code}`);
        return;
      }
      const upstreamGroup = upstreamPath.split('/')[2] ?? '';
      assert.ok(upstreamGroup.startsWith(`${b}-`) || isBuiltinGroup(upstreamGroup), `${path} → ${upstreamPath}`);
      if (isCustomGroup(group)) assert.equal(upstreamGroup, `${b}-${group}`);
    }), { numRuns: 500 });
  });
});
