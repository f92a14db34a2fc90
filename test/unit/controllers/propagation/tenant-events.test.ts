import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { tenantEventRecorder } from '../../../../src/controllers/propagation/tenant-events.ts';
import type { EventRecorder } from '../../../../src/controllers/runtime/event-recorder.ts';
import { TENANT_LABEL } from '../../../../src/core/tenancy/tenant-id.ts';

describe('tenantEventRecorder', () => {
  it('puts a tenant\'s cluster-scoped objects\' events in its own default namespace, other events where the object is', async () => {
    const written: string[] = [];
    const made: Array<string | undefined> = [];
    const events = tenantEventRecorder((ns) => {
      made.push(ns);
      return { record: async (obj) => { written.push(`${obj.metadata.namespace ?? ns ?? 'default'}/${obj.metadata.name ?? ''}`); } } satisfies EventRecorder;
    });
    const crb = (id: string) => ({ metadata: { name: `${id}-reader-clusterrole`, labels: { [TENANT_LABEL]: id } } });
    await events.record(crb('aaaaaa'), 'Normal', 'R', 'm');
    await events.record(crb('aaaaaa'), 'Normal', 'R', 'm');
    await events.record(crb('bbbbbb'), 'Normal', 'R', 'm');
    await events.record({ metadata: { name: 'nginx-deployment', namespace: 'aaaaaa-default', labels: { [TENANT_LABEL]: 'aaaaaa' } } }, 'Normal', 'R', 'm');
    await events.record({ metadata: { name: 'platform-thing' } }, 'Normal', 'R', 'm');
    assert.deepEqual(written, [
      'aaaaaa-default/aaaaaa-reader-clusterrole', 'aaaaaa-default/aaaaaa-reader-clusterrole', 'bbbbbb-default/bbbbbb-reader-clusterrole',
      'aaaaaa-default/nginx-deployment', 'default/platform-thing',
    ]);
    assert.deepEqual(made, [undefined, 'aaaaaa-default', 'bbbbbb-default'], 'one recorder per tenant, made once');
  });
});
