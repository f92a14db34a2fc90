// The gateway's impersonation step: whatever Impersonate-* lines a hostile
// client sends, the acting identity stays in the caller's tenant, is the caller
// itself unless the tenant's RBAC allowed every attribute, and remembers who asked.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildPolicyIndex, defaultClusterRoleBindings, defaultClusterRoles } from '../../../../src/core/rbac/index.ts';
import { ApiError } from '../../../../src/core/api-error.ts';
import { actingIdentity } from '../../../../src/gateway/authn/impersonation.ts';
import type { Identity } from '../../../../src/gateway/identity.ts';

const RBAC = 'rbac.authorization.k8s.io';
const policy = buildPolicyIndex({
  clusterRoles: [...defaultClusterRoles(), { metadata: { name: 'imp' }, rules: [{ apiGroups: [''], resources: ['users', 'groups'], verbs: ['impersonate'], resourceNames: ['viewer', 'readers'] }] }],
  clusterRoleBindings: [...defaultClusterRoleBindings(), { metadata: { name: 'imp' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'imp' }, subjects: [{ kind: 'User', name: 'dev' }] },
    { metadata: { name: 'admins' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ kind: 'User', name: 'admin' }] }],
  roles: [], roleBindings: [],
});
const caller = (user: string): Identity => ({ tenantId: 'acme01', user, groups: ['devs'], via: 'certificate', issuedAt: new Date(0) });

describe('actingIdentity', () => {
  it('no Impersonate-* lines: the authenticated identity itself', () => {
    const dev = caller('dev');
    assert.equal(actingIdentity(policy, dev, []), dev);
  });

  it('allowed: the impersonated user, same tenant, with who asked', () => {
    assert.deepEqual(actingIdentity(policy, caller('dev'), [['Impersonate-User', 'viewer'], ['Impersonate-Group', 'readers']]), {
      tenantId: 'acme01', user: 'viewer', groups: ['readers', 'system:authenticated'], via: 'certificate', issuedAt: new Date(0),
      impersonatedBy: { user: 'dev', groups: ['devs'] },
    });
  });

  it('property: hostile header lines never leave the tenant, and never act as anyone without every grant', () => {
    const name = fc.oneof(fc.constantFrom('viewer', 'readers', 'admin', 'system:admin', 'system:masters', 'globx1:admin', 'system:serviceaccount:web:default', 'acme01-x', ''), fc.string({ maxLength: 12 }));
    const line = fc.tuple(fc.constantFrom('Impersonate-User', 'impersonate-group', 'IMPERSONATE-UID', 'Impersonate-Extra-Scopes', 'Impersonate-Extra-warren.dev%2Ftenant'), name);
    fc.assert(fc.property(fc.constantFrom('dev', 'admin', 'nobody'), fc.array(line, { maxLength: 5 }), (who, lines) => {
      const authenticated = caller(who);
      let acting: Identity;
      try {
        acting = actingIdentity(policy, authenticated, lines);
      } catch (err) {
        assert.ok(err instanceof ApiError && (err.code === 403 || err.code === 400), String(err));
        return;
      }
      assert.equal(acting.tenantId, 'acme01');
      if (acting === authenticated) return;
      assert.deepEqual(acting.impersonatedBy, { user: who, groups: ['devs'] });
      // Only the tenant admin may act as anyone; dev only as the names its rule lists (for users and
      // groups alike), nobody never.
      assert.notEqual(who, 'nobody');
      if (who === 'dev') {
        assert.ok(acting.user === 'viewer' || acting.user === 'readers', acting.user);
        assert.ok(acting.groups.every((g) => g === 'readers' || g === 'viewer' || g === 'system:authenticated'), acting.groups.join());
        assert.equal(acting.uid, undefined);
        assert.equal(acting.extra, undefined);
      }
    }), { numRuns: 1000 });
  });
});
