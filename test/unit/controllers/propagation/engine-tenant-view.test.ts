// The engine's Tenant informer keeps only what the engine reads: a check that
// nothing it reads is lost (spec, status.id, identity) and the rest is gone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { engineTenantView } from '../../../../src/controllers/propagation/engine-informers.ts';
import type { Tenant } from '../../../../src/tenants/tenant-crd.ts';

const whole: Tenant = {
  apiVersion: 'tenancy.warren.dev/v1alpha1',
  kind: 'Tenant',
  metadata: {
    name: 'acme', uid: 'u-1', resourceVersion: '42', generation: 3, creationTimestamp: '2026-01-01T00:00:00Z',
    deletionTimestamp: '2026-01-02T00:00:00Z', finalizers: ['tenancy.warren.dev/cleanup'], labels: { team: 'a' },
    managedFields: [{ manager: 'kubectl', operation: 'Update' }],
  },
  spec: { users: [{ name: 'alice', admin: true }], suspended: true, clusters: { names: ['member1'] }, defaultPlacement: { clusterAffinity: { clusterNames: ['member1'] } } },
  status: {
    id: 'abc123', phase: 'Ready', observedGeneration: 3, clusters: ['member1'], usage: { namespaces: 4 },
    conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }],
    kubeconfigSecretRef: { namespace: 'warren-system', name: 'tenant-acme-kubeconfigs' },
  },
};

describe('engineTenantView', () => {
  it('keeps identity, spec and status.id; drops conditions, usage, finalizers and managedFields', () => {
    assert.deepEqual(engineTenantView(structuredClone(whole)), {
      apiVersion: 'tenancy.warren.dev/v1alpha1',
      kind: 'Tenant',
      metadata: { name: 'acme', uid: 'u-1', resourceVersion: '42', generation: 3, deletionTimestamp: '2026-01-02T00:00:00Z', labels: { team: 'a' } },
      spec: whole.spec,
      status: { id: 'abc123' },
    });
  });

  const cases: Array<[string, Tenant, Tenant]> = [
    ['a Tenant not onboarded yet has no status', { metadata: { name: 'new', resourceVersion: '1' }, spec: { id: 'wanted' } },
      { metadata: { name: 'new', resourceVersion: '1' }, spec: { id: 'wanted' } }],
    ['a status without id is dropped', { metadata: { name: 'p', resourceVersion: '2' }, status: { phase: 'Pending' } },
      { metadata: { name: 'p', resourceVersion: '2' } }],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => assert.deepEqual(engineTenantView(input), expected));
  }
});
