import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ruleAllows } from '../../../../src/core/rbac/index.ts';
import type { AuthorizationAttributes, PolicyRule } from '../../../../src/core/rbac/index.ts';
import { pathRequest, request, rule, urlRule, user } from './rbac-fixtures.ts';

const u = user('alice');

describe('ruleAllows: resource requests', () => {
  const cases: { name: string; rule: PolicyRule; attrs: AuthorizationAttributes; allowed: boolean }[] = [
    { name: 'exact verb, group, resource', rule: rule(['get'], [''], ['pods']), attrs: request(u, 'get', { resource: 'pods' }), allowed: true },
    { name: 'other verb', rule: rule(['get'], [''], ['pods']), attrs: request(u, 'list', { resource: 'pods' }), allowed: false },
    { name: 'verb *', rule: rule(['*'], [''], ['pods']), attrs: request(u, 'escalate', { resource: 'pods' }), allowed: true },
    { name: 'other group', rule: rule(['get'], [''], ['deployments']), attrs: request(u, 'get', { apiGroup: 'apps', resource: 'deployments' }), allowed: false },
    { name: 'group *', rule: rule(['get'], ['*'], ['deployments']), attrs: request(u, 'get', { apiGroup: 'apps', resource: 'deployments' }), allowed: true },
    { name: 'group * matches the core group', rule: rule(['get'], ['*'], ['pods']), attrs: request(u, 'get', { resource: 'pods' }), allowed: true },
    { name: 'no apiGroups matches nothing', rule: { verbs: ['get'], resources: ['pods'] }, attrs: request(u, 'get', { resource: 'pods' }), allowed: false },
    { name: 'resource *', rule: rule(['get'], [''], ['*']), attrs: request(u, 'get', { resource: 'secrets' }), allowed: true },
    { name: 'resource * covers subresources', rule: rule(['get'], [''], ['*']), attrs: request(u, 'get', { resource: 'pods', subresource: 'log' }), allowed: true },
    { name: 'plain resource does not cover its subresource', rule: rule(['get'], [''], ['pods']), attrs: request(u, 'get', { resource: 'pods', subresource: 'log' }), allowed: false },
    { name: 'resource/subresource', rule: rule(['get'], [''], ['pods/log']), attrs: request(u, 'get', { resource: 'pods', subresource: 'log' }), allowed: true },
    { name: 'resource/subresource does not cover the resource', rule: rule(['get'], [''], ['pods/log']), attrs: request(u, 'get', { resource: 'pods' }), allowed: false },
    { name: '*/subresource', rule: rule(['update'], ['*'], ['*/status']), attrs: request(u, 'update', { apiGroup: 'apps', resource: 'deployments', subresource: 'status' }), allowed: true },
    { name: '*/subresource is not the resource', rule: rule(['update'], ['*'], ['*/status']), attrs: request(u, 'update', { apiGroup: 'apps', resource: 'deployments' }), allowed: false },
    { name: '*/subresource needs the whole subresource name', rule: rule(['get'], [''], ['*/tatus']), attrs: request(u, 'get', { resource: 'pods', subresource: 'status' }), allowed: false },
    { name: 'pods/* is not a wildcard', rule: rule(['get'], [''], ['pods/*']), attrs: request(u, 'get', { resource: 'pods', subresource: 'log' }), allowed: false },
    { name: 'resourceNames: listed name', rule: rule(['get'], [''], ['configmaps'], ['a']), attrs: request(u, 'get', { resource: 'configmaps', name: 'a' }), allowed: true },
    { name: 'resourceNames: other name', rule: rule(['get'], [''], ['configmaps'], ['a']), attrs: request(u, 'get', { resource: 'configmaps', name: 'b' }), allowed: false },
    { name: 'resourceNames: list has no name', rule: rule(['list'], [''], ['configmaps'], ['a']), attrs: request(u, 'list', { resource: 'configmaps' }), allowed: false },
    { name: 'resourceNames: watch has no name', rule: rule(['watch'], [''], ['configmaps'], ['a']), attrs: request(u, 'watch', { resource: 'configmaps' }), allowed: false },
    { name: 'resourceNames: watch of one name (fieldSelector metadata.name)', rule: rule(['watch'], [''], ['configmaps'], ['a']), attrs: request(u, 'watch', { resource: 'configmaps', name: 'a' }), allowed: true },
    { name: 'resourceNames: create has no name', rule: rule(['create'], [''], ['configmaps'], ['a']), attrs: request(u, 'create', { resource: 'configmaps' }), allowed: false },
    { name: 'resourceNames: deletecollection has no name', rule: rule(['deletecollection'], [''], ['configmaps'], ['a']), attrs: request(u, 'deletecollection', { resource: 'configmaps' }), allowed: false },
    { name: 'resourceNames: subresource of a listed name', rule: rule(['get'], [''], ['pods/log'], ['p']), attrs: request(u, 'get', { resource: 'pods', subresource: 'log', name: 'p' }), allowed: true },
    { name: 'empty resourceNames allows any name', rule: rule(['get'], [''], ['configmaps'], []), attrs: request(u, 'get', { resource: 'configmaps', name: 'z' }), allowed: true },
    { name: 'a nonResourceURLs rule grants no resources', rule: urlRule(['*'], ['*']), attrs: request(u, 'get', { resource: 'pods' }), allowed: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(ruleAllows(c.attrs, c.rule), c.allowed));
});

describe('ruleAllows: non-resource requests', () => {
  const cases: { name: string; urls: string[]; verb?: string; path: string; allowed: boolean }[] = [
    { name: 'exact path', urls: ['/healthz'], path: '/healthz', allowed: true },
    { name: 'exact path is not a prefix', urls: ['/healthz'], path: '/healthz/etcd', allowed: false },
    { name: 'trailing * is a prefix', urls: ['/healthz/*'], path: '/healthz/etcd', allowed: true },
    { name: 'trailing * needs the text before it', urls: ['/healthz/*'], path: '/healthz', allowed: false },
    { name: 'trailing * matches the bare prefix', urls: ['/apis/*'], path: '/apis/', allowed: true },
    { name: 'prefix without slash', urls: ['/api*'], path: '/apis/apps', allowed: true },
    { name: '* matches everything', urls: ['*'], path: '/anything/at/all', allowed: true },
    { name: '* in the middle is literal', urls: ['/a/*/c'], path: '/a/b/c', allowed: false },
    { name: 'verb must match', urls: ['/healthz'], verb: 'post', path: '/healthz', allowed: false },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(ruleAllows(pathRequest(u, c.verb ?? 'get', c.path), urlRule(['get'], c.urls)), c.allowed));
  }
  it('a resource rule grants no paths', () => assert.equal(ruleAllows(pathRequest(u, 'get', '/api'), rule(['*'], ['*'], ['*'])), false));
});

const token = fc.stringMatching(/^[a-z][a-z0-9.-]{0,10}$/);
const attrsArb: fc.Arbitrary<AuthorizationAttributes> = fc.record({
  user: fc.constant(u),
  verb: token,
  isResourceRequest: fc.boolean(),
  path: token.map((s) => `/${s}`),
  apiGroup: fc.oneof(fc.constant(''), token),
  resource: token,
  subresource: fc.oneof(fc.constant(''), token),
  name: fc.oneof(fc.constant(''), token),
  namespace: fc.oneof(fc.constant(''), token),
});

describe('ruleAllows: properties', () => {
  it('a rule with * everywhere allows every request', () => {
    fc.assert(fc.property(attrsArb, (attrs) => {
      const everything: PolicyRule = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], nonResourceURLs: ['*'] };
      return ruleAllows(attrs, everything);
    }));
  });
  it('adding resourceNames never widens a rule', () => {
    fc.assert(fc.property(attrsArb, fc.array(token, { minLength: 1 }), (attrs, names) => {
      const base = rule(['*'], ['*'], ['*']);
      return !ruleAllows(attrs, { ...base, resourceNames: names }) || ruleAllows(attrs, base);
    }));
  });
  it('a named rule never allows a request without a name', () => {
    fc.assert(fc.property(attrsArb, fc.array(token, { minLength: 1 }), (attrs, names) =>
      !attrs.isResourceRequest || !ruleAllows({ ...attrs, name: '' }, rule(['*'], ['*'], ['*'], names))));
  });
});
