import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { computeUsage } from '../../../../src/controllers/onboarding/compute-usage.ts';
import { TENANT_LABEL } from '../../../../src/core/tenancy/tenant-id.ts';
import { fakeClient } from './fake-client.ts';

const labels = (id: string) => ({ [TENANT_LABEL]: id });

describe('onboarding: status.usage', () => {
  const client = fakeClient();
  client.objects.set('/api/v1/namespaces/ab12cd-shop', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ab12cd-shop', labels: labels('ab12cd') } });
  client.objects.set('/apis/apps/v1/deployments/web', {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'ab12cd-shop', labels: labels('ab12cd') },
    spec: { replicas: 3, template: { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '500m', memory: '512Mi' } } }] } } },
  });
  client.objects.set('/api/v1/persistentvolumeclaims/data', { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'ab12cd-shop', labels: labels('ab12cd') }, spec: { resources: { requests: { storage: '10Gi' } } } });
  client.objects.set('/api/v1/pods/other', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'other', namespace: 'zz99yy-x', labels: labels('zz99yy') }, spec: { containers: [{ name: 'c', resources: { requests: { cpu: '8' } } }] } });

  it('counts namespaces, and cpu, memory and storage by the admission rules when the quota limits them', async () => {
    assert.deepEqual(await computeUsage(client, 'ab12cd', { cpu: '4' }), { namespaces: 1, cpu: '1500m', memory: '1536Mi', storage: '10Gi' });
  });

  it('without resource limits, only namespaces (no extra LISTs)', async () => {
    assert.deepEqual(await computeUsage(client, 'ab12cd'), { namespaces: 1 });
    assert.deepEqual(await computeUsage(client, 'ab12cd', { namespaces: 3 } as never), { namespaces: 1 });
  });
});
