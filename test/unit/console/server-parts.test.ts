// The console server's pure parts: what its informers keep of a binding, and
// the Tenant patches behind Suspend, Resume and Revoke.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceBinding } from '../../../src/core/propagation/karmada-types.ts';
import { slimBinding, slimObject } from '../../../src/console/server/slim-objects.ts';
import { actionPatch } from '../../../src/console/server/tenant-actions.ts';
import { revokeInstant } from '../../../src/tenants/revoke-instant.ts';

describe('console server parts', () => {
  it('a slim binding keeps reference, placement, conditions and ready counts, nothing else', () => {
    const binding = {
      metadata: { name: 'web-deployment', namespace: 'abc123-default', annotations: { big: 'x'.repeat(1000) }, managedFields: [{ manager: 'm' }] },
      spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'abc123-default', name: 'web' }, replicas: 4, clusters: [{ name: 'member1', replicas: 4 }], placement: { clusterAffinity: { clusterNames: ['member1'] } } },
      status: { conditions: [{ type: 'Scheduled', status: 'True' }], aggregatedStatus: [{ clusterName: 'member1', applied: true, health: 'Healthy', status: { readyReplicas: 3, conditions: [{ type: 'Available' }] } }] },
    } as unknown as ResourceBinding;
    assert.deepEqual(slimBinding(binding), {
      metadata: { name: 'web-deployment', namespace: 'abc123-default' },
      spec: { resource: binding.spec.resource, replicas: 4, clusters: [{ name: 'member1', replicas: 4 }] },
      status: { conditions: [{ type: 'Scheduled', status: 'True' }], aggregatedStatus: [{ clusterName: 'member1', applied: true, health: 'Healthy', status: { readyReplicas: 3 } }] },
    });
    assert.deepEqual(slimObject({ metadata: { name: 'n', resourceVersion: '5', annotations: { a: 'b' } }, spec: { x: 1 } }), { metadata: { name: 'n', resourceVersion: '5' }, spec: { x: 1 } });
  });

  it('suspend, resume and revoke are one merge patch each; revocation reaches the next whole second', () => {
    const now = Date.parse('2026-11-26T12:00:00.250Z');
    assert.deepEqual(actionPatch('suspend', now), { spec: { suspended: true } });
    assert.deepEqual(actionPatch('resume', now), { spec: { suspended: false } });
    assert.deepEqual(actionPatch('revoke', now), { spec: { credentials: { revokeBefore: '2026-11-26T12:00:01Z' } } });
    assert.equal(revokeInstant(Date.parse('2026-11-26T12:00:00.000Z')), '2026-11-26T12:00:01Z', 'a credential issued in this very second is revoked too');
  });
});
