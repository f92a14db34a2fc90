// References the translator now maps in Pods, pod templates and Services, each
// a forward/inverse pair: pod affinity `namespaces` and `namespaceSelector`
// (which would otherwise match every tenant's namespaces upstream), and a
// Service ExternalName into the cluster (`<svc>.<ns>.svc...`). What the
// translator produces passes the independent guard.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { toTenantObject, toUpstreamObject } from '../../../../src/core/tenancy/object-translation.ts';
import { guardUpstreamRequest } from '../../../../src/core/tenancy/isolation-guard.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

const ctx = { id: 'aaaaaa' };
const LABEL = 'tenancy.warren.dev/tenant';
const affinity = (namespaces: string[], selector?: Record<string, string>) => ({
  podAntiAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'z', namespaces, ...(selector ? { namespaceSelector: { matchLabels: selector } } : {}) }],
    preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'z', namespaceSelector: {} } }],
  },
});

describe('pod affinity namespaces are the tenant\'s', () => {
  it('a Pod\'s terms are prefixed and narrowed, and read back as written', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'web' }, spec: { containers: [], affinity: affinity(['db', 'web'], { team: 'x' }) } } as KubeObject;
    const up = toUpstreamObject(ctx, structuredClone(pod));
    const terms = (up.spec as any).affinity.podAntiAffinity;
    assert.deepEqual(terms.requiredDuringSchedulingIgnoredDuringExecution[0].namespaces, ['aaaaaa-db', 'aaaaaa-web']);
    assert.deepEqual(terms.requiredDuringSchedulingIgnoredDuringExecution[0].namespaceSelector.matchLabels, { team: 'x', [LABEL]: 'aaaaaa' });
    assert.deepEqual(terms.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.namespaceSelector.matchLabels, { [LABEL]: 'aaaaaa' });
    assert.equal(guardUpstreamRequest('aaaaaa', { method: 'POST', path: '/api/v1/namespaces/aaaaaa-web/pods', query: new URLSearchParams(), body: up }), null);
    assert.deepEqual(toTenantObject(ctx, up)?.spec, pod.spec);
  });

  it('a Deployment\'s template likewise', () => {
    const d = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'web' }, spec: { template: { spec: { containers: [], affinity: affinity(['db']) } } } } as KubeObject;
    const up = toUpstreamObject(ctx, structuredClone(d));
    assert.deepEqual((up.spec as any).template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespaces, ['aaaaaa-db']);
    assert.equal(guardUpstreamRequest('aaaaaa', { method: 'POST', path: '/apis/apps/v1/namespaces/aaaaaa-web/deployments', query: new URLSearchParams(), body: up }), null);
  });

  it('round trip for any namespace names', () => {
    fc.assert(fc.property(fc.array(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), { maxLength: 4 }), (namespaces) => {
      const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'web' }, spec: { affinity: affinity(namespaces) } } as KubeObject;
      return JSON.stringify(toTenantObject(ctx, toUpstreamObject(ctx, structuredClone(pod)))?.spec) === JSON.stringify(pod.spec);
    }));
  });
});

describe('Service ExternalName into the cluster is the tenant\'s', () => {
  const svc = (externalName: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'web' }, spec: { type: 'ExternalName', externalName } }) as KubeObject;
  for (const [tenant, upstream] of <Array<[string, string]>>[['db.web.svc.cluster.local', 'db.aaaaaa-web.svc.cluster.local'], ['db.web.svc', 'db.aaaaaa-web.svc'], ['example.com', 'example.com'], ['a.b.example.com', 'a.b.example.com']]) {
    it(`${tenant} ⇄ ${upstream}`, () => {
      const up = toUpstreamObject(ctx, svc(tenant));
      assert.equal((up.spec as any).externalName, upstream);
      assert.equal(guardUpstreamRequest('aaaaaa', { method: 'POST', path: '/api/v1/namespaces/aaaaaa-web/services', query: new URLSearchParams(), body: up }), null);
      assert.equal((toTenantObject(ctx, up)?.spec as any).externalName, tenant);
    });
  }
  it('an upstream Service pointing into another tenant\'s namespace is not shown', () => {
    const up = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'aaaaaa-web' }, spec: { externalName: 'db.bbbbbb-web.svc' } } as KubeObject;
    assert.equal(toTenantObject(ctx, up), undefined);
  });
});
