import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEventRecorder } from '../../../../src/controllers/runtime/event-recorder.ts';
import { validateEvent } from '../../../../src/apiserver/validation/lease-event.ts';
import type { Upstream } from '../../../../src/kube/upstream.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

/** An upstream that keeps each POSTed Event and answers 201, or 422 when kube 1.20's Event rule refuses it. */
function recordingUpstream(posted: Array<{ path: string; body: Record<string, unknown> }>): Upstream {
  return {
    request: async (_method: string, path: string, body?: unknown) => {
      const event = body as Record<string, unknown>;
      posted.push({ path, body: event });
      return { status: validateEvent(event).length === 0 ? 201 : 422, headers: {}, body: {} };
    },
  } as unknown as Upstream;
}

const crb: KubeObject = { apiVersion: 'work.karmada.io/v1alpha2', kind: 'ClusterResourceBinding', metadata: { name: 'abcdef-r', uid: 'u1' } };
const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'abcdef-app', uid: 'u2' } };

describe('event recorder: where Events about cluster-scoped objects go', () => {
  it('in a tenant\'s namespace, the reference names it (kube 1.20 refuses an empty one outside default)', async () => {
    const posted: Array<{ path: string; body: Record<string, unknown> }> = [];
    const logs: string[] = [];
    const recorder = createEventRecorder({ upstream: recordingUpstream(posted), component: 'c', clusterScopedNamespace: 'abcdef-default', log: (l) => logs.push(l) });
    await recorder.record(crb, 'Normal', 'ScheduleBindingSucceed', 'm');
    await recorder.record(pod, 'Normal', 'Synced', 'm');
    assert.deepEqual(posted.map((p) => [p.path, (p.body.involvedObject as { namespace?: string }).namespace]), [
      ['/api/v1/namespaces/abcdef-default/events', 'abcdef-default'],
      ['/api/v1/namespaces/abcdef-app/events', 'abcdef-app'],
    ]);
    assert.deepEqual(logs, [], 'both written');
  });

  it('in the host\'s default, the reference has no namespace, as kube writes it', async () => {
    const posted: Array<{ path: string; body: Record<string, unknown> }> = [];
    await createEventRecorder({ upstream: recordingUpstream(posted), component: 'c' }).record(crb, 'Warning', 'R', 'm');
    assert.equal(posted[0]?.path, '/api/v1/namespaces/default/events');
    assert.equal((posted[0]?.body.involvedObject as { namespace?: string }).namespace, undefined);
  });
});
