// kube's own Covers cases (component-helpers/auth/rbac/validation,
// policy_comparator_test.go), reproduced as facts: coverage is literal, "*" covers
// enumerations but enumerations never cover "*", "*/scale" covers any resource's scale.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { breakdownRule, covers, ruleAllows, type PolicyRule } from '../../../../src/core/rbac/index.ts';
import { nonResourceURLCovers, MAX_ATOMS } from '../../../../src/core/rbac/covers.ts';
import { request, user } from './rbac-fixtures.ts';

const r = (apiGroups: string[], verbs: string[], resources: string[], resourceNames?: string[]): PolicyRule =>
  ({ apiGroups, verbs, resources, ...(resourceNames ? { resourceNames } : {}) });
const u = (nonResourceURLs: string[], verbs: string[]): PolicyRule => ({ nonResourceURLs, verbs });

interface Case { name: string; owner: PolicyRule[]; servant: PolicyRule[]; missing: PolicyRule[] }

const CASES: Case[] = [
  { name: 'TestCoversExactMatch', owner: [r(['v1'], ['get'], ['builds'])], servant: [r(['v1'], ['get'], ['builds'])], missing: [] },
  { name: 'TestCoversSubresourceWildcard', owner: [r(['v1'], ['get'], ['*/scale'])], servant: [r(['v1'], ['get'], ['foo/scale'])], missing: [] },
  {
    name: 'TestCoversMultipleRulesCoveringSingleRule',
    owner: [r(['v1'], ['delete'], ['deployments']), r(['v1'], ['delete'], ['builds']), r(['v1'], ['update'], ['builds', 'deployments'])],
    servant: [r(['v1'], ['delete', 'update'], ['builds', 'deployments'])],
    missing: [],
  },
  {
    name: 'TestCoversMultipleAPIGroupsCoveringSingleRule',
    owner: [
      r(['group1'], ['delete'], ['deployments']), r(['group1'], ['delete'], ['builds']), r(['group1'], ['update'], ['builds', 'deployments']),
      r(['group2'], ['delete'], ['deployments']), r(['group2'], ['delete'], ['builds']), r(['group2'], ['update'], ['builds', 'deployments']),
    ],
    servant: [r(['group1', 'group2'], ['delete', 'update'], ['builds', 'deployments'])],
    missing: [],
  },
  {
    name: 'TestCoversSingleAPIGroupsCoveringMultiple',
    owner: [r(['group1', 'group2'], ['delete', 'update'], ['builds', 'deployments'])],
    servant: [
      r(['group1'], ['delete'], ['deployments']), r(['group1'], ['delete'], ['builds']), r(['group1'], ['update'], ['builds', 'deployments']),
      r(['group2'], ['delete'], ['deployments']), r(['group2'], ['delete'], ['builds']), r(['group2'], ['update'], ['builds', 'deployments']),
    ],
    missing: [],
  },
  {
    name: 'TestCoversMultipleRulesMissingSingleVerbResourceCombination',
    owner: [r(['v1'], ['delete', 'update'], ['builds', 'deployments']), r(['v1'], ['delete'], ['pods'])],
    servant: [r(['v1'], ['delete', 'update'], ['builds', 'deployments', 'pods'])],
    missing: [r(['v1'], ['update'], ['pods'])],
  },
  { name: 'TestCoversAPIGroupStarCoveringMultiple', owner: [r(['*'], ['get'], ['roles'])], servant: [r(['group1', 'group2'], ['get'], ['roles'])], missing: [] },
  { name: 'TestCoversEnumerationNotCoveringAPIGroupStar', owner: [r(['dummy-group'], ['get'], ['roles'])], servant: [r(['*'], ['get'], ['roles'])], missing: [r(['*'], ['get'], ['roles'])] },
  { name: 'TestCoversAPIGroupStarCoveringStar', owner: [r(['*'], ['get'], ['roles'])], servant: [r(['*'], ['get'], ['roles'])], missing: [] },
  { name: 'TestCoversVerbStarCoveringMultiple', owner: [r(['v1'], ['*'], ['roles'])], servant: [r(['v1'], ['watch', 'list'], ['roles'])], missing: [] },
  {
    name: 'TestCoversEnumerationNotCoveringVerbStar',
    owner: [r(['v1'], ['get', 'list', 'watch', 'create', 'update', 'delete', 'exec'], ['roles'])],
    servant: [r(['v1'], ['*'], ['roles'])],
    missing: [r(['v1'], ['*'], ['roles'])],
  },
  { name: 'TestCoversVerbStarCoveringStar', owner: [r(['v1'], ['*'], ['roles'])], servant: [r(['v1'], ['*'], ['roles'])], missing: [] },
  { name: 'TestCoversResourceStarCoveringMultiple', owner: [r(['v1'], ['get'], ['*'])], servant: [r(['v1'], ['get'], ['resourcegroup:deployments'])], missing: [] },
  {
    name: 'TestCoversEnumerationNotCoveringResourceStar',
    owner: [r(['v1'], ['get'], ['roles', 'resourcegroup:deployments'])],
    servant: [r(['v1'], ['get'], ['*'])],
    missing: [r(['v1'], ['get'], ['*'])],
  },
  { name: 'TestCoversResourceStarCoveringStar', owner: [r(['v1'], ['get'], ['*'])], servant: [r(['v1'], ['get'], ['*'])], missing: [] },
  { name: 'TestCoversResourceNameEmptyCoveringMultiple', owner: [r(['v1'], ['get'], ['pods'], [])], servant: [r(['v1'], ['get'], ['pods'], ['foo', 'bar'])], missing: [] },
  {
    name: 'TestCoversEnumerationNotCoveringResourceNameEmpty',
    owner: [r(['v1'], ['get'], ['pods'], ['foo', 'bar'])],
    servant: [r(['v1'], ['get'], ['pods'], [])],
    missing: [r(['v1'], ['get'], ['pods'])],
  },
  { name: 'TestCoversNonResourceURLs', owner: [u(['/apis'], ['*'])], servant: [u(['/apis'], ['*'])], missing: [] },
  { name: 'TestCoversNonResourceURLsStar', owner: [u(['*'], ['*'])], servant: [u(['/apis', '/apis/v1', '/'], ['*'])], missing: [] },
  { name: 'TestCoversNonResourceURLsStarAfterPrefixDoesntCover', owner: [u(['/apis/*'], ['*'])], servant: [u(['/apis', '/apis/v1'], ['get'])], missing: [u(['/apis'], ['get'])] },
  { name: 'TestCoversNonResourceURLsStarAfterPrefix', owner: [u(['/apis/*'], ['*'])], servant: [u(['/apis/v1/foo', '/apis/v1'], ['get'])], missing: [] },
  {
    name: 'TestCoversNonResourceURLsWithOtherFields',
    owner: [{ ...r(['v1'], ['get'], ['builds']), nonResourceURLs: ['/apis'] }],
    servant: [{ ...r(['v1'], ['get'], ['builds']), nonResourceURLs: ['/apis'] }],
    missing: [],
  },
  {
    name: 'TestCoversNonResourceURLsWithOtherFieldsFailure',
    owner: [r(['v1'], ['get'], ['builds'])],
    servant: [{ ...r(['v1'], ['get'], ['builds']), nonResourceURLs: ['/apis'] }],
    missing: [u(['/apis'], ['get'])],
  },
  // Not one of kube's cases: the whole-rule shortcut must agree with the atoms for URL atoms.
  {
    name: 'an owner restricted to names never covers the URL atoms of a mixed rule',
    owner: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: ['a'], nonResourceURLs: ['*'] }],
    servant: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'], nonResourceURLs: ['/x'] }],
    missing: [u(['/x'], ['get'])],
  },
];

describe('covers (kube\'s Covers)', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const result = covers(c.owner, c.servant);
      if (c.missing.length === 0) assert.deepEqual(result, { covered: true });
      else assert.deepEqual(result, { covered: false, missing: c.missing });
    });
  }

  it('TestNonResourceURLCovers', () => {
    const table: Array<[string, string, boolean]> = [
      ['*', '', true], ['*', '/', true], ['*', '/api', true], ['/*', '', false], ['/*', '/', true], ['/*', '/foo', true],
      ['/api', '/api', true], ['/apis', '/api', false], ['/api/v1', '/api', false], ['/api/v1', '/api/v1', true],
      ['/api/*', '/api/v1', true], ['/api/*', '/api', false], ['/api/*/*', '/api/v1', false], ['/*/v1/*', '/api/v1', false],
    ];
    for (const [owner, path, want] of table) assert.equal(nonResourceURLCovers(owner, path), want, `${owner} covers ${path}`);
  });

  it('a rule too large to break down is refused, not checked (a hostile tenant cannot buy the CPU)', () => {
    const many = (p: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${p}${i}`);
    const huge = r(many('g', 100), many('v', 100), many('r', 100), many('n', 100));
    assert.deepEqual(covers([r(['g0'], ['v0'], ['r0'])], [huge]), { covered: false, tooLarge: true });
    // The same rule held whole is covered without breaking it down.
    assert.deepEqual(covers([r(['*'], ['*'], ['*'])], [huge]), { covered: true });
    assert.ok(MAX_ATOMS < 100 ** 4);
  });
});

// Covering in the sense that matters: if the owner covers a servant rule, then every
// request the servant rule allows, the owner rules allow too.
const VERBS = ['get', 'list', 'create', '*'];
const GROUPS = ['', 'apps', '*'];
const RESOURCES = ['pods', 'pods/log', 'deployments', 'deployments/scale', '*', '*/scale'];
const ruleArb: fc.Arbitrary<PolicyRule> = fc.record({
  verbs: fc.subarray(VERBS, { minLength: 1 }),
  apiGroups: fc.subarray(GROUPS, { minLength: 1 }),
  resources: fc.subarray(RESOURCES, { minLength: 1 }),
  resourceNames: fc.oneof(fc.constant([] as string[]), fc.subarray(['x', 'y'], { minLength: 1 })),
});
const requestArb = fc.record({
  verb: fc.constantFrom('get', 'list', 'create', 'delete'),
  apiGroup: fc.constantFrom('', 'apps', 'batch'),
  resource: fc.constantFrom('pods', 'deployments', 'jobs'),
  subresource: fc.constantFrom('', 'log', 'scale'),
  name: fc.constantFrom('', 'x', 'y', 'z'),
});

describe('covers: properties', () => {
  it('covered servant rules allow nothing the owner rules do not', () => {
    fc.assert(fc.property(fc.array(ruleArb, { maxLength: 4 }), fc.array(ruleArb, { maxLength: 3 }), requestArb, (owner, servant, req) => {
      if (!covers(owner, servant).covered) return;
      const attrs = request(user('u'), req.verb, req);
      if (servant.some((s) => ruleAllows(attrs, s))) assert.ok(owner.some((o) => ruleAllows(attrs, o)), 'servant allows what the owner does not');
    }), { numRuns: 2000 });
  });

  it('every rule covers itself, and the missing atoms are exactly the uncovered ones', () => {
    fc.assert(fc.property(fc.array(ruleArb, { maxLength: 3 }), fc.array(ruleArb, { maxLength: 3 }), (owner, servant) => {
      assert.deepEqual(covers(servant, servant), { covered: true });
      const result = covers(owner, servant);
      const atoms = servant.flatMap(breakdownRule);
      const uncovered = atoms.filter((a) => !covers(owner, [a]).covered);
      if (result.covered) assert.deepEqual(uncovered, []);
      else assert.deepEqual('missing' in result ? result.missing : undefined, uncovered);
    }), { numRuns: 1000 });
  });
});
