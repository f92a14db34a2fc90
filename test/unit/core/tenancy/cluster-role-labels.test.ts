// ADR 0028: a tenant ClusterRole's labels are stored in a key space only that
// tenant writes, so no host aggregationRule (nor another tenant's) selects it;
// a tenant's aggregationRule selects only its own roles; both round-trip.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { toTenantObject, toUpstreamObject } from '../../../../src/core/tenancy/object-translation.ts';
import { toTenantList } from '../../../../src/core/tenancy/response-translation.ts';
import { translateRequest } from '../../../../src/core/tenancy/request-translation.ts';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';
import { toTenantRoleLabelKey, toUpstreamRoleLabelKey } from '../../../../src/core/tenancy/cluster-role-labels.ts';
import { aggregateClusterRoles } from '../../../../src/core/rbac/aggregation.ts';
import { ApiError } from '../../../../src/core/api-error.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { ClusterRole } from '../../../../src/core/rbac/types.ts';

const L = 'tenancy.warren.dev/tenant';
const RBAC = 'rbac.authorization.k8s.io';
const type = { group: RBAC, kind: 'ClusterRole' };
const up = (id: string, obj: unknown): KubeObject => toUpstreamObject({ id }, structuredClone(obj) as KubeObject, { type });
const role = (name: string, labels: Record<string, string>, extra: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name, labels }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }], ...extra });

const tenantId = fc.stringMatching(/^[a-z][a-z0-9]{5}$/);
const dnsLabel = fc.stringMatching(/^[a-z]([a-z0-9-]{0,8}[a-z0-9])?$/);
const labelKey = fc.oneof(
  dnsLabel,
  fc.tuple(fc.array(dnsLabel, { minLength: 1, maxLength: 3 }), dnsLabel).map(([p, n]) => `${p.join('.')}/${n}`),
  fc.constantFrom('rbac.authorization.k8s.io/aggregate-to-admin', 'rbac.authorization.k8s.io/aggregate-to-edit', 'aggregate-to-view', 'kubernetes.io/bootstrapping'),
);

describe('ClusterRole label keys', () => {
  it('map into the tenant\'s space: p/n → <id>.p/n, n → <id>/n, the tenant label untouched', () => {
    assert.equal(toUpstreamRoleLabelKey('abcdef', 'rbac.authorization.k8s.io/aggregate-to-admin'), 'abcdef.rbac.authorization.k8s.io/aggregate-to-admin');
    assert.equal(toUpstreamRoleLabelKey('abcdef', 'team'), 'abcdef/team');
    assert.equal(toUpstreamRoleLabelKey('abcdef', L), L);
    assert.equal(toTenantRoleLabelKey('abcdef', 'abcdef/team'), 'team');
    assert.equal(toTenantRoleLabelKey('abcdef', 'rbac.authorization.k8s.io/aggregate-to-admin'), 'rbac.authorization.k8s.io/aggregate-to-admin', 'a key stored before the mapping reads as it is');
  });

  it('property: round trip, and every stored key is in the writer\'s own space (no host or other tenant selector can name it)', () => {
    fc.assert(fc.property(tenantId, tenantId, fc.dictionary(labelKey, dnsLabel, { maxKeys: 6 }), (a, b, labels) => {
      const stored = up(a, role('r', { ...labels }));
      for (const key of Object.keys(stored.metadata.labels ?? {})) {
        if (key === L) continue;
        assert.ok(key.startsWith(`${a}.`) || key.startsWith(`${a}/`), key);
        // Another tenant's own keys never coincide with it: B's writes always carry B's head.
        if (a !== b) for (const k of Object.keys(labels)) assert.notEqual(toUpstreamRoleLabelKey(b, k), key);
      }
      assert.deepEqual(toTenantObject({ id: a }, stored)?.metadata.labels ?? {}, { ...labels });
    }));
  });

  it('a key whose mapped prefix would be longer than kube allows is a 422 in tenant terms', () => {
    const key = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(60)}/x`;
    assert.throws(() => up('abcdef', role('r', { [key]: 'v' })), (err: unknown) => err instanceof ApiError && err.code === 422 && !err.message.includes('abcdef'));
  });
});

describe('aggregation on the host, as its controller would fold roles', () => {
  // The host's own admin role, as kube's bootstrap policy defines it.
  const hostAdmin: ClusterRole = { metadata: { name: 'admin' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [`${RBAC}/aggregate-to-admin`]: 'true' } }] }, rules: [] };
  const hostEdit: ClusterRole = { metadata: { name: 'system:aggregate-to-edit', labels: { [`${RBAC}/aggregate-to-edit`]: 'true' } }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] };

  it('a tenant role labelled aggregate-to-admin does not join the host\'s admin', () => {
    const evil = up('abcdef', role('evil', { [`${RBAC}/aggregate-to-admin`]: 'true' })) as unknown as ClusterRole;
    const folded = aggregateClusterRoles([hostAdmin, evil]);
    assert.deepEqual(folded.find((r) => r.metadata.name === 'admin')?.rules, []);
  });

  it('a tenant aggregationRule selects its own roles only, neither the host\'s nor another tenant\'s', () => {
    const grab = up('abcdef', role('grab', {}, { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [`${RBAC}/aggregate-to-edit`]: 'true' } }, { matchExpressions: [{ key: 'x', operator: 'Exists' }] }, {}] }, rules: [] })) as unknown as ClusterRole;
    const mine = up('abcdef', role('mine', { [`${RBAC}/aggregate-to-edit`]: 'true' })) as unknown as ClusterRole;
    const other = up('zzzzzz', role('theirs', { [`${RBAC}/aggregate-to-edit`]: 'true', x: '1' })) as unknown as ClusterRole;
    const folded = aggregateClusterRoles([grab, mine, other, hostEdit]).find((r) => r.metadata.name === 'abcdef-grab');
    assert.deepEqual(folded?.rules, [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }], 'only abcdef-mine was folded in');
  });

  it('read back, the tenant sees its own selectors and labels, without the tenant label', () => {
    const stored = up('abcdef', role('grab', { team: 'a' }, { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [`${RBAC}/aggregate-to-edit`]: 'true' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['x'] }] }] } }));
    const view = toTenantObject({ id: 'abcdef' }, stored);
    assert.deepEqual(view?.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { [`${RBAC}/aggregate-to-edit`]: 'true' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['x'] }] }] });
    assert.deepEqual(view?.metadata.labels, { team: 'a' });
  });

  it('list items without kind (a real apiserver) are translated as ClusterRoles too', () => {
    const stored = up('abcdef', role('r', { team: 'a' }));
    delete stored.kind;
    delete stored.apiVersion;
    const list = toTenantList({ id: 'abcdef' }, { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleList', metadata: {}, items: [stored] });
    assert.deepEqual(list.items[0]?.metadata.labels, { team: 'a' });
    assert.equal(list.items[0]?.kind, undefined, 'the lent kind is taken back');
  });
});

describe('label selectors on clusterroles', () => {
  it('list and watch selectors are mapped into the tenant\'s space', () => {
    const url = new URL(`https://x/apis/${RBAC}/v1/clusterroles?labelSelector=${encodeURIComponent(`${RBAC}/aggregate-to-admin=true,!team`)}`);
    const info = parseRequestInfo('GET', url.pathname, url.searchParams);
    const out = translateRequest({ id: 'abcdef' }, info, url.searchParams);
    assert.equal(out.action, 'forward');
    if (out.action !== 'forward') return;
    assert.equal(out.query.get('labelSelector'), `abcdef.${RBAC}/aggregate-to-admin=true,!abcdef/team,${L}=abcdef`);
  });
});
