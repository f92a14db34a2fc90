// The property the escalation checks exist for: over random policies and random
// Role, ClusterRole, RoleBinding and ClusterRoleBinding writes, an accepted write
// never lets anyone (the caller or anyone bound) do something the caller could not
// already do there, unless the caller may escalate (roles) or bind (bindings).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  authorize, buildPolicyIndex, checkBindingWrite, checkRoleWrite,
  type AuthorizationAttributes, type ClusterRole, type PolicyRule, type PolicySnapshot, type Subject, type UserInfo,
} from '../../../../src/core/rbac/index.ts';
import { clusterRole, clusterRoleBinding, request, role, roleBinding, user } from './rbac-fixtures.ts';

const RBAC = 'rbac.authorization.k8s.io';
const NAMESPACES = ['a', 'b'];
const ROLE_NAMES = ['r1', 'r2', 'r3'];
const USERS: UserInfo[] = [user('alice', 'devs'), user('bob', 'ops'), user('carol'), user('system:serviceaccount:a:bot')];
const pick = <T>(xs: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...xs);

const ruleArb: fc.Arbitrary<PolicyRule> = fc.oneof(
  { weight: 6, arbitrary: fc.record({
    verbs: fc.subarray(['get', 'list', 'create', 'update', 'bind', 'escalate', '*'], { minLength: 1 }),
    apiGroups: fc.subarray(['', 'apps', RBAC, '*'], { minLength: 1 }),
    resources: fc.subarray(['pods', 'pods/log', 'deployments', 'roles', 'rolebindings', 'clusterroles', 'clusterrolebindings', '*', '*/log'], { minLength: 1 }),
    resourceNames: fc.oneof(fc.constant([] as string[]), fc.subarray(['r1', 'x'], { minLength: 1 })),
  }) },
  { weight: 1, arbitrary: fc.record({ verbs: fc.subarray(['get', '*'], { minLength: 1 }), nonResourceURLs: fc.subarray(['/healthz', '/api/*', '*'], { minLength: 1 }) }) },
);
const subjectArb: fc.Arbitrary<Subject> = fc.oneof(
  pick(['alice', 'bob', 'carol']).map((name): Subject => ({ kind: 'User', name })),
  pick(['devs', 'ops', 'system:authenticated']).map((name): Subject => ({ kind: 'Group', name })),
  fc.constant<Subject>({ kind: 'ServiceAccount', name: 'bot', namespace: 'a' }),
);
const labelsArb = fc.option(fc.constant({ feed: 'agg' }), { nil: undefined });
// "agg" aggregates every ClusterRole labelled feed=agg, so label writes feed bound roles.
const AGG: ClusterRole = { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { feed: 'agg' } }] }, rules: [] };
const refArb = fc.record({ kind: pick(['Role', 'ClusterRole'] as const), name: pick([...ROLE_NAMES, 'agg']) });

const policyArb: fc.Arbitrary<PolicySnapshot> = fc.record({
  roles: fc.uniqueArray(fc.tuple(pick(NAMESPACES), pick(ROLE_NAMES), fc.array(ruleArb, { maxLength: 3 })), { maxLength: 4, selector: ([ns, n]) => `${ns}/${n}` })
    .map((xs) => xs.map(([ns, n, rules]) => role(ns, n, rules))),
  clusterRoles: fc.uniqueArray(fc.tuple(pick(ROLE_NAMES), fc.array(ruleArb, { maxLength: 3 }), labelsArb), { maxLength: 3, selector: ([n]) => n })
    .map((xs) => [AGG, ...xs.map(([n, rules, labels]) => clusterRole(n, rules, labels))]),
  roleBindings: fc.array(fc.tuple(pick(NAMESPACES), refArb, fc.array(subjectArb, { minLength: 1, maxLength: 2 })), { maxLength: 4 })
    .map((xs) => xs.map(([ns, ref, subjects], i) => roleBinding(ns, `rb${i}`, ref, subjects))),
  clusterRoleBindings: fc.array(fc.tuple(pick([...ROLE_NAMES, 'agg']), fc.array(subjectArb, { minLength: 1, maxLength: 2 })), { maxLength: 3 })
    .map((xs) => xs.map(([n, subjects], i) => clusterRoleBinding(`crb${i}`, n, subjects))),
});

type Write =
  | { kind: 'roles'; namespace: string; name: string; rules: PolicyRule[] }
  | { kind: 'clusterroles'; name: string; rules: PolicyRule[]; labels: Record<string, string> | undefined }
  | { kind: 'rolebindings'; namespace: string; name: string; ref: { kind: 'Role' | 'ClusterRole'; name: string }; subjects: Subject[] }
  | { kind: 'clusterrolebindings'; name: string; ref: string; subjects: Subject[] };

const writeArb: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ kind: fc.constant('roles' as const), namespace: pick(NAMESPACES), name: pick(ROLE_NAMES), rules: fc.array(ruleArb, { maxLength: 3 }) }),
  fc.record({ kind: fc.constant('clusterroles' as const), name: pick(ROLE_NAMES), rules: fc.array(ruleArb, { maxLength: 3 }), labels: labelsArb }),
  fc.record({ kind: fc.constant('rolebindings' as const), namespace: pick(NAMESPACES), name: pick(['rb0', 'new']), ref: refArb, subjects: fc.array(subjectArb, { minLength: 1, maxLength: 2 }) }),
  fc.record({ kind: fc.constant('clusterrolebindings' as const), name: pick(['crb0', 'new']), ref: pick([...ROLE_NAMES, 'agg']), subjects: fc.array(subjectArb, { minLength: 1, maxLength: 2 }) }),
);

/** The policy after the write (create or replace by name). */
function apply(p: PolicySnapshot, w: Write): PolicySnapshot {
  const replace = <T extends { metadata: { name: string; namespace?: string } }>(xs: readonly T[], obj: T): T[] =>
    [...xs.filter((x) => !(x.metadata.name === obj.metadata.name && x.metadata.namespace === obj.metadata.namespace)), obj];
  switch (w.kind) {
    case 'roles': return { ...p, roles: replace(p.roles, role(w.namespace, w.name, w.rules)) };
    case 'clusterroles': return { ...p, clusterRoles: replace(p.clusterRoles, clusterRole(w.name, w.rules, w.labels)) };
    case 'rolebindings': return { ...p, roleBindings: replace(p.roleBindings, roleBinding(w.namespace, w.name, w.ref, w.subjects)) };
    case 'clusterrolebindings': return { ...p, clusterRoleBindings: replace(p.clusterRoleBindings, clusterRoleBinding(w.name, w.ref, w.subjects)) };
  }
}

/** The caller's check, and whether escalate/bind (rather than covering) would let it through. */
function check(p: PolicySnapshot, caller: UserInfo, w: Write): { accepted: boolean; byVerb: boolean } {
  const index = buildPolicyIndex(p);
  const can = (verb: string, resource: string, name: string, namespace: string): boolean =>
    authorize(request(caller, verb, { apiGroup: RBAC, resource, name, namespace }), index).allowed;
  switch (w.kind) {
    case 'roles':
      return { accepted: !checkRoleWrite(index, caller, { resource: 'roles', namespace: w.namespace, requestName: w.name, role: role(w.namespace, w.name, w.rules) }), byVerb: can('escalate', 'roles', w.name, w.namespace) };
    case 'clusterroles':
      return { accepted: !checkRoleWrite(index, caller, { resource: 'clusterroles', namespace: '', requestName: w.name, role: clusterRole(w.name, w.rules, w.labels) }), byVerb: can('escalate', 'clusterroles', w.name, '') };
    case 'rolebindings':
      return { accepted: !checkBindingWrite(index, caller, { resource: 'rolebindings', namespace: w.namespace, binding: roleBinding(w.namespace, w.name, w.ref, w.subjects) }), byVerb: can('bind', w.ref.kind === 'Role' ? 'roles' : 'clusterroles', w.ref.name, w.namespace) };
    case 'clusterrolebindings':
      return { accepted: !checkBindingWrite(index, caller, { resource: 'clusterrolebindings', namespace: '', binding: clusterRoleBinding(w.name, w.ref, w.subjects) }), byVerb: can('bind', 'clusterroles', w.ref, '') };
  }
}

const REQUESTS: Array<Omit<AuthorizationAttributes, 'user'>> = [];
for (const namespace of ['', ...NAMESPACES]) {
  for (const verb of ['get', 'create', 'update', 'bind', 'escalate', 'deletecollection']) {
    for (const [apiGroup, resource, subresource] of [['', 'pods', ''], ['', 'pods', 'log'], ['apps', 'deployments', ''], [RBAC, 'roles', ''], [RBAC, 'clusterroles', ''], ['batch', 'jobs', '']] as const) {
      for (const name of ['', 'r1', 'x']) REQUESTS.push({ verb, isResourceRequest: true, path: '', apiGroup, resource, subresource, name, namespace });
    }
  }
}
for (const path of ['/healthz', '/api/v1', '/metrics']) {
  REQUESTS.push({ verb: 'get', isResourceRequest: false, path, apiGroup: '', resource: '', subresource: '', name: '', namespace: '' });
}

describe('escalation: properties', () => {
  it('an accepted write grants nobody anything the caller did not hold there, unless escalate/bind allowed it', () => {
    fc.assert(fc.property(policyArb, pick(USERS), writeArb, (before, caller, write) => {
      const { accepted, byVerb } = check(before, caller, write);
      if (!accepted || byVerb) return;
      const was = buildPolicyIndex(before);
      const now = buildPolicyIndex(apply(before, write));
      for (const who of [...USERS, caller]) {
        for (const req of REQUESTS) {
          if (!authorize({ ...req, user: who }, now).allowed || authorize({ ...req, user: who }, was).allowed) continue;
          assert.ok(authorize({ ...req, user: caller }, was).allowed,
            `${JSON.stringify(write)} by ${caller.name} gave ${who.name} ${req.verb} ${req.resource}/${req.subresource} "${req.name}" in "${req.namespace}" ${req.path}, which ${caller.name} did not hold`);
        }
      }
    }), { numRuns: 400 });
  });

  it('the checks refuse writes: some random writes are refused (the property above is not vacuous)', () => {
    let refused = 0;
    let accepted = 0;
    fc.assert(fc.property(policyArb, pick(USERS), writeArb, (before, caller, write) => {
      const { accepted: ok, byVerb } = check(before, caller, write);
      if (ok && !byVerb) accepted++;
      if (!ok) refused++;
    }), { numRuns: 300, seed: 42 });
    assert.ok(refused > 30 && accepted > 30, `refused ${refused}, accepted without escalate/bind ${accepted}`);
  });
});
