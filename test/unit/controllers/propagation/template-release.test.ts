// The release of a held template (template-hold.ts) is built on a fresh GET, because the engine's informer keeps
// templates without managedFields and the release takes the hold's marks out of managedFields too. Review of
// session 11: the fresh read and the write must not lose a tenant's write that lands between them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/types.ts';
import { hold, isHeld, HELD_LABEL } from '../../../../src/core/propagation/host-hold.ts';
import { ensureReleased } from '../../../../src/controllers/propagation/template-hold.ts';
import type { EngineContext } from '../../../../src/controllers/propagation/engine-context.ts';
import type { TemplateResource } from '../../../../src/controllers/propagation/template-resources.ts';

const DEPLOYMENTS = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment' } as TemplateResource;

function heldDeployment(resourceVersion: string): KubeObject {
  const held = hold({
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: 'web', namespace: 'acme01-app', resourceVersion, labels: { app: 'web' } },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } } } },
  });
  assert.ok(isHeld(held));
  return held;
}

/** The stored object as a GET answers it: managedFields naming the engine's mark (what the informer copy lacks). */
function stored(resourceVersion: string): KubeObject {
  const obj = heldDeployment(resourceVersion);
  obj.metadata.managedFields = [{ manager: 'warren-propagation', operation: 'Update', fieldsV1: { 'f:metadata': { 'f:labels': { [`f:${HELD_LABEL}`]: {}, 'f:app': {} } } } }];
  return obj;
}

function fakeUpstream(answers: { get: { status: number; body: unknown }; put?: { status: number; body: unknown } }) {
  const calls: Array<{ method: string; path: string; body: unknown }> = [];
  const upstream = {
    async request(method: string, path: string, body?: unknown) {
      calls.push({ method, path, body });
      const answer = method === 'GET' ? answers.get : answers.put;
      if (!answer) throw new Error(`unexpected ${method} ${path}`);
      return structuredClone(answer);
    },
  };
  return { ctx: { upstream } as unknown as EngineContext, calls };
}

describe('template release: the fresh read and the write', () => {
  it('a tenant write after the informer copy: no write (judged again on that write\'s event)', async () => {
    const { ctx, calls } = fakeUpstream({ get: { status: 200, body: stored('8') } });
    const result = await ensureReleased(ctx, DEPLOYMENTS, heldDeployment('7'));
    assert.deepEqual(calls.map((c) => c.method), ['GET']);
    assert.ok(result && typeof result.requeueAfterMs === 'number', 'requeued');
  });

  it('the write is pinned to the version read, and a conflict (a tenant write in between) requeues, never overwrites', async () => {
    const { ctx, calls } = fakeUpstream({ get: { status: 200, body: stored('7') }, put: { status: 409, body: { kind: 'Status', code: 409, reason: 'Conflict' } } });
    const result = await ensureReleased(ctx, DEPLOYMENTS, heldDeployment('7'));
    assert.deepEqual(calls.map((c) => c.method), ['GET', 'PUT']);
    const written = calls[1]?.body as KubeObject;
    assert.equal(written.metadata.resourceVersion, '7');
    assert.ok(result && typeof result.requeueAfterMs === 'number', 'requeued');
  });

  it('the release takes the mark out of the stored managedFields and puts the tenant\'s replicas back', async () => {
    const { ctx, calls } = fakeUpstream({ get: { status: 200, body: stored('7') }, put: { status: 200, body: {} } });
    assert.equal(await ensureReleased(ctx, DEPLOYMENTS, heldDeployment('7')), undefined);
    const written = calls[1]?.body as KubeObject;
    assert.equal(isHeld(written), false);
    assert.equal((written.spec as { replicas?: number }).replicas, 3);
    assert.deepEqual(written.metadata.managedFields?.[0]?.fieldsV1, { 'f:metadata': { 'f:labels': { 'f:app': {} } } });
  });

  it('a template deleted since: nothing written', async () => {
    const { ctx, calls } = fakeUpstream({ get: { status: 404, body: { kind: 'Status', code: 404 } } });
    assert.equal(await ensureReleased(ctx, DEPLOYMENTS, heldDeployment('7')), undefined);
    assert.deepEqual(calls.map((c) => c.method), ['GET']);
  });
});
