// Fuzzing the request parser and the request translator: arbitrary methods,
// paths and queries either parse and translate, or are refused with a Status;
// a valid namespaced request's upstream path parses back to the tenant's.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseRequestInfo } from '../../../src/core/request-info.ts';
import { translateRequest } from '../../../src/core/tenancy/request-translation.ts';
import { toTenantNamespace } from '../../../src/core/tenancy/names.ts';
import type { TenantContext } from '../../../src/core/tenancy/tenant-context.ts';
import { RUNS, dnsLabel, nastyString, refusedOnlyWithStatus } from './fuzz-helpers.ts';

const ctx: TenantContext = { id: 'aaaaaa', user: 'alice' };
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'get', '', 'BREW'];
const PREFIXES = ['/api/v1', '/apis/apps/v1', '/apis/a.com/v1', '/apis/rbac.authorization.k8s.io/v1', '/apis/policy.karmada.io/v1alpha1', '/apis', '/api', '/'];
const SEGMENTS = ['namespaces', 'pods', 'configmaps', 'deployments', 'foos', 'status', 'scale', 'log', 'exec', 'watch', 'nodes', 'clusterroles', 'selfsubjectaccessreviews', 'finalize', 'default', 'x'];

const path = fc.tuple(
  fc.constantFrom(...PREFIXES),
  fc.array(fc.oneof(fc.constantFrom(...SEGMENTS), dnsLabel, nastyString.map((s) => encodeURIComponent(Buffer.from(s).toString())), nastyString), { maxLength: 6 }),
  fc.constantFrom('', '/', '//'),
).map(([prefix, segments, tail]) => `${prefix}/${segments.join('/')}${tail}`);

const query = fc.array(fc.tuple(
  fc.constantFrom('watch', 'labelSelector', 'fieldSelector', 'limit', 'continue', 'resourceVersion', 'x'),
  fc.oneof(fc.constantFrom('true', '1', 'false', 'a=b', 'metadata.name=x', 'metadata.namespace=dev', 'tenancy.warren.dev/tenant=bbbbbb', '!a', 'a in (x,y)'), nastyString),
), { maxLength: 4 }).map((pairs) => new URLSearchParams(pairs));

describe('fuzz: request parser and translator', () => {
  it('parse + translate: a translation or a Status, nothing else', () => {
    fc.assert(fc.property(fc.constantFrom(...METHODS), path, query, (method, p, q) => {
      const info = refusedOnlyWithStatus(() => parseRequestInfo(method, p, q));
      if (!info?.isResourceRequest) return;
      const out = refusedOnlyWithStatus(() => translateRequest(ctx, info, q));
      if (out?.action !== 'forward') return;
      assert.ok(out.path.startsWith('/api/') || out.path.startsWith('/apis/'), out.path);
      // The upstream request parses again with the same parser (the guard and the upstream rely on it).
      const upstream = parseRequestInfo(method, out.path, out.query);
      assert.equal(upstream.isResourceRequest, true);
      assert.equal(upstream.resource, info.resource);
    }), { numRuns: 2_000 });
  });

  it('round trip: a valid namespaced request reaches its tenant namespace upstream, and back', () => {
    const resource = fc.constantFrom('pods', 'configmaps', 'secrets', 'services');
    fc.assert(fc.property(fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH'), dnsLabel.filter((n) => n.length <= 56), resource, dnsLabel, (method, ns, res, name) => {
      const info = parseRequestInfo(method, `/api/v1/namespaces/${ns}/${res}/${name}`, new URLSearchParams());
      const out = translateRequest(ctx, info, new URLSearchParams());
      assert.equal(out.action, 'forward');
      if (out.action !== 'forward') return;
      const back = parseRequestInfo(method, out.path, out.query);
      assert.equal(toTenantNamespace(ctx.id, back.namespace), ns);
      assert.equal(back.name, name);
      assert.equal(back.resource, res);
    }), RUNS);
  });
});
