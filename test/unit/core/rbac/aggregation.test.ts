import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { aggregateClusterRoles } from '../../../../src/core/rbac/index.ts';
import type { ClusterRole, PolicyRule } from '../../../../src/core/rbac/index.ts';
import { clusterRole, rule } from './rbac-fixtures.ts';

const A = rule(['get'], [''], ['pods']);
const B = rule(['list'], [''], ['pods']);
const C = rule(['create'], ['apps'], ['deployments']);
const aggregated = (name: string, selectors: NonNullable<ClusterRole['aggregationRule']>['clusterRoleSelectors'], labels?: Record<string, string>, rules?: PolicyRule[]): ClusterRole =>
  ({ metadata: { name, ...(labels ? { labels } : {}) }, aggregationRule: { clusterRoleSelectors: selectors ?? [] }, ...(rules ? { rules } : {}) });
const rulesOf = (roles: ClusterRole[], name: string): PolicyRule[] | null | undefined => roles.find((r) => r.metadata.name === name)?.rules;

describe('aggregateClusterRoles', () => {
  it('unions the rules of matching roles, sorted by name, first duplicate kept', () => {
    const out = aggregateClusterRoles([
      aggregated('agg', [{ matchLabels: { agg: 'yes' } }]),
      clusterRole('zeta', [C, A], { agg: 'yes' }),
      clusterRole('alpha', [A, B], { agg: 'yes' }),
      clusterRole('other', [rule(['*'], ['*'], ['*'])], { agg: 'no' }),
    ]);
    assert.deepEqual(rulesOf(out, 'agg'), [A, B, C]);
  });

  it('absent and empty lists are the same rule (Semantic.DeepEqual)', () => {
    const out = aggregateClusterRoles([
      aggregated('agg', [{}]),
      clusterRole('a', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]),
      clusterRole('b', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }]),
    ]);
    assert.equal(rulesOf(out, 'agg')?.length, 1);
  });

  it('selectors are visited in order and their matches concatenated', () => {
    const out = aggregateClusterRoles([
      aggregated('agg', [{ matchLabels: { s: '2' } }, { matchLabels: { s: '1' } }]),
      clusterRole('a', [A], { s: '1' }),
      clusterRole('b', [B], { s: '2' }),
    ]);
    assert.deepEqual(rulesOf(out, 'agg'), [B, A]);
  });

  it('matchExpressions select too', () => {
    const out = aggregateClusterRoles([
      aggregated('agg', [{ matchExpressions: [{ key: 'tier', operator: 'In', values: ['x', 'y'] }] }]),
      clusterRole('a', [A], { tier: 'y' }),
      clusterRole('b', [B], { tier: 'z' }),
    ]);
    assert.deepEqual(rulesOf(out, 'agg'), [A]);
  });

  it('an aggregated role does not select itself', () => {
    const out = aggregateClusterRoles([aggregated('agg', [{}], undefined, [C]), clusterRole('a', [A])]);
    assert.deepEqual(rulesOf(out, 'agg'), [A]);
  });

  it('replaces stale stored rules; no selector matches means no rules', () => {
    const out = aggregateClusterRoles([aggregated('agg', [{ matchLabels: { none: 'x' } }], undefined, [C])]);
    assert.deepEqual(rulesOf(out, 'agg'), []);
  });

  it('settles chains: admin ⊇ edit ⊇ view, as the controller converges to', () => {
    const out = aggregateClusterRoles([
      aggregated('admin', [{ matchLabels: { 'to-admin': 'true' } }]),
      aggregated('edit', [{ matchLabels: { 'to-edit': 'true' } }], { 'to-admin': 'true' }),
      aggregated('view', [{ matchLabels: { 'to-view': 'true' } }], { 'to-edit': 'true' }),
      clusterRole('v', [A], { 'to-view': 'true' }),
      clusterRole('e', [B], { 'to-edit': 'true' }),
      clusterRole('x', [C], { 'to-admin': 'true' }),
    ]);
    assert.deepEqual(rulesOf(out, 'view'), [A]);
    assert.deepEqual(rulesOf(out, 'edit'), [B, A]);
    assert.deepEqual(rulesOf(out, 'admin'), [B, A, C]);
  });

  it('cycles settle: each role ends with what the other reaches', () => {
    const out = aggregateClusterRoles([
      aggregated('p', [{ matchLabels: { g: 'q' } }], { g: 'p' }),
      aggregated('q', [{ matchLabels: { g: 'p' } }], { g: 'q' }),
      clusterRole('leaf', [A], { g: 'p' }),
    ]);
    // q selects p and leaf; p selects q; so both end with leaf's rule.
    assert.deepEqual(rulesOf(out, 'p'), [A]);
    assert.deepEqual(rulesOf(out, 'q'), [A]);
  });

  it('a role with an unparseable selector keeps its stored rules (the controller errors and writes nothing)', () => {
    const out = aggregateClusterRoles([aggregated('agg', [{ matchExpressions: [{ key: 'k', operator: 'Near' }] }], undefined, [C]), clusterRole('a', [A])]);
    assert.deepEqual(rulesOf(out, 'agg'), [C]);
  });

  it('leaves roles without aggregationRule as they are and does not mutate its input', () => {
    const input = [aggregated('agg', [{}]), clusterRole('a', [A])];
    const before = structuredClone(input);
    const out = aggregateClusterRoles(input);
    assert.deepEqual(input, before);
    assert.equal(out[1], input[1]);
  });

  it('property: the aggregate allows exactly the union of what the selected roles hold, and is idempotent', () => {
    const ruleArb = fc.constantFrom(A, B, C, rule(['watch'], [''], ['secrets']));
    fc.assert(fc.property(fc.array(fc.tuple(fc.array(ruleArb, { maxLength: 3 }), fc.boolean()), { maxLength: 6 }), (parts) => {
      const roles = [aggregated('agg', [{ matchLabels: { pick: 'y' } }]), ...parts.map(([rules, picked], i) => clusterRole(`r${i}`, rules, { pick: picked ? 'y' : 'n' }))];
      const once = aggregateClusterRoles(roles);
      const expected = new Set(parts.filter(([, picked]) => picked).flatMap(([rules]) => rules.map((r) => JSON.stringify(r))));
      const got = (rulesOf(once, 'agg') ?? []).map((r) => JSON.stringify(r));
      assert.equal(got.length, expected.size);
      assert.deepEqual(new Set(got), expected);
      assert.deepEqual(aggregateClusterRoles(once), once);
    }));
  });
});
