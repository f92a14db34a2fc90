// Property (ADR 0023): whatever a hostile tenant sends to a held Deployment
// (update, server-side apply, JSON/merge/strategic patch, scale), what reaches
// the upstream is still held (paused, 0 replicas, marked), keeps the engine's
// status annotation and the host's .status, and carries the tenant's desired
// replicas in the annotation; or the write is refused with a 4xx. A body that
// names one of the marks is refused, and so is a status write of a held object.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../../../src/core/api-error.ts';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import { translateRequest, type ForwardedRequest } from '../../../../src/core/tenancy/request-translation.ts';
import { toUpstreamObject } from '../../../../src/core/tenancy/object-translation.ts';
import { requestKindOf } from '../../../../src/core/tenancy/request-kind.ts';
import { desiredOf, fullyHeld, HELD_LABEL, HELD_MARKS, HELD_STATUS_ANNOTATION, hold, withHeldStatus } from '../../../../src/core/propagation/host-hold.ts';
import { HELD_KINDS, HELD_NODE_SELECTOR_KEY, type HeldKind } from '../../../../src/core/propagation/held-kinds.ts';
import { translateWrite, type WriteTarget } from '../../../../src/gateway/forward/write-object.ts';
import { patchByReadModifyWrite } from '../../../../src/gateway/forward/patch-by-update.ts';
import { writeHeldKind } from '../../../../src/gateway/forward/held-writes.ts';
import { writeHeldScale } from '../../../../src/gateway/forward/held-scale.ts';
import type { Upstream } from '../../../../src/kube/upstream.ts';

const A = 'aaaaaa';
const ctx = { id: A, user: 'eve' };
const PATH = '/apis/apps/v1/namespaces/web/deployments';
const ENGINE_STATUS = { replicas: 3, readyReplicas: 3 };
const HOST_STATUS = { observedGeneration: 2, conditions: [{ type: 'Progressing', status: 'Unknown', reason: 'DeploymentPaused' }] };

/** The stored object: web, 3 replicas, held by the engine, with both statuses. */
function storedHeld(): KubeObject {
  const tenant: KubeObject = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'web', resourceVersion: '7', labels: { app: 'web' } },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
  return { ...withHeldStatus(hold(toUpstreamObject(ctx, tenant, { namespaced: true })), ENGINE_STATUS), status: HOST_STATUS };
}

const markKey = fc.constantFrom(...HELD_MARKS);
const metadata = fc.record({
  labels: fc.dictionary(fc.oneof(fc.constant('app'), markKey), fc.constantFrom('web', 'true', '0', '99')),
  annotations: fc.dictionary(fc.oneof(fc.constant('note'), markKey), fc.constantFrom('x', '5', 'true', '{"replicas":100}')),
}, { requiredKeys: [] });
const body = fc.record({
  metadata,
  spec: fc.record({ replicas: fc.oneof(fc.integer({ min: -2, max: 50 }), fc.constant('7')), paused: fc.oneof(fc.boolean(), fc.constant('no')) }, { requiredKeys: [] }),
  status: fc.record({ replicas: fc.nat(9), readyReplicas: fc.nat(9) }, { requiredKeys: [] }),
}, { requiredKeys: [] }).map((b) => JSON.parse(JSON.stringify(b)) as Record<string, unknown>);

function forwardOf(method: string, path: string): { info: ReturnType<typeof parseRequestInfo>; fwd: ForwardedRequest } {
  const info = parseRequestInfo(method, path, new URLSearchParams());
  const fwd = translateRequest(ctx, info, new URLSearchParams());
  assert.equal(fwd.action, 'forward');
  return { info, fwd: fwd as ForwardedRequest };
}
const targetOf = (info: ReturnType<typeof parseRequestInfo>, fwd: ForwardedRequest): WriteTarget => ({ ctx, info, fwd, kind: requestKindOf(ctx, info), podSecurity: 'restricted' });

function fakeUpstream(stored: KubeObject, sent: KubeObject[]): Upstream {
  return {
    request: async (method: string, _path: string, b?: unknown) => {
      if (method === 'GET') return { status: 200, headers: {}, body: structuredClone(stored) };
      sent.push(b as KubeObject);
      return { status: 200, headers: {}, body: b };
    },
  } as unknown as Upstream;
}

function assertRefusal(err: unknown): void {
  assert.ok(err instanceof ApiError, `not an ApiError: ${String(err)}`);
  assert.ok(err.code >= 400 && err.code < 500, `code ${err.code}: ${err.message}`);
}

/** Still held, both statuses kept, the tenant's replicas (if it named a valid one) in the annotation. */
function assertStillHeld(sent: KubeObject, wanted: unknown, apply: boolean): void {
  const spec = sent.spec as { replicas?: unknown; paused?: unknown };
  assert.equal(sent.metadata.labels?.[HELD_LABEL], 'true', 'held label');
  assert.equal(spec.replicas, 0, 'held replicas');
  assert.equal(spec.paused, true, 'held paused');
  if (!apply) {
    assert.equal(sent.metadata.annotations?.[HELD_STATUS_ANNOTATION], JSON.stringify(ENGINE_STATUS), 'the engine\'s status annotation kept');
    assert.deepEqual(sent.status, HOST_STATUS, 'the host\'s .status kept');
  } else {
    assert.equal(sent.status, undefined, 'an applied status would make the tenant a writer of the host\'s field');
  }
  if (typeof wanted === 'number' && wanted >= 0) assert.equal(desiredOf(sent).replicas, wanted, 'the tenant\'s replicas');
}

const namesMark = (b: Record<string, unknown>): boolean => {
  const meta = (b.metadata ?? {}) as { labels?: object; annotations?: object };
  return [meta.labels, meta.annotations].some((m) => m !== undefined && HELD_MARKS.some((k) => k in m));
};

/** Held values upstream never sees (it sees 0 and true): checked by the gateway as kube would. */
const badHeldValues = (b: Record<string, unknown>): boolean => {
  const spec = (b.spec ?? {}) as { replicas?: unknown; paused?: unknown };
  return (spec.replicas !== undefined && !(typeof spec.replicas === 'number' && spec.replicas >= 0)) || (spec.paused !== undefined && typeof spec.paused !== 'boolean');
};

describe('held writes property: a held Deployment stays held through every tenant write (ADR 0023)', () => {
  it('update and server-side apply', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom('update', 'apply'), body, async (verb, tenantBody) => {
      const { info, fwd } = forwardOf(verb === 'update' ? 'PUT' : 'PATCH', `${PATH}/web`);
      const obj = { apiVersion: 'apps/v1', kind: 'Deployment', ...structuredClone(tenantBody), metadata: { name: 'web', ...(tenantBody.metadata as object) } } as KubeObject;
      const sent: KubeObject[] = [];
      try {
        const final = translateWrite(targetOf(info, fwd), obj, { source: 'body', verb });
        await writeHeldKind({
          upstream: fakeUpstream(storedHeld(), sent), info, user: 'eve', vet: async () => undefined,
          prepared: { method: verb === 'update' ? 'PUT' : 'PATCH', path: fwd.path, query: fwd.query, mode: 'json', final: { ...final, apply: verb === 'apply' } },
        });
      } catch (err) {
        assertRefusal(err);
        assert.ok(namesMark(tenantBody) || badHeldValues(tenantBody), `refused only for naming a mark or a bad held value: ${String(err)}`);
        assert.equal(sent.length, 0);
        return;
      }
      assert.ok(!namesMark(tenantBody), 'a body naming a mark is refused');
      assert.ok(!badHeldValues(tenantBody), 'a negative or mistyped held value is refused');
      assert.equal(sent.length, 1);
      assertStillHeld(sent[0]!, (tenantBody.spec as { replicas?: unknown } | undefined)?.replicas, verb === 'apply');
      assert.equal(sent[0]!.metadata.resourceVersion, '7', 'pinned to the version read');
    }), { numRuns: 300 });
  });

  it('JSON, merge and strategic patches', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom('json', 'merge', 'strategic'), body, async (patchType, tenantBody) => {
      const { info, fwd } = forwardOf('PATCH', `${PATH}/web`);
      const sent: KubeObject[] = [];
      const patch = patchType === 'json' ? Object.entries(tenantBody).map(([k, v]) => ({ op: 'add', path: `/${k}`, value: v })) : tenantBody;
      try {
        await patchByReadModifyWrite({
          upstream: fakeUpstream(storedHeld(), sent), target: targetOf(info, fwd), vet: async () => undefined,
          prepared: { method: 'PUT', path: fwd.path, query: fwd.query, mode: 'patch', body: patch, patchType },
        });
      } catch (err) {
        assertRefusal(err);
        assert.equal(sent.length, 0);
        return;
      }
      assert.ok(!namesMark(tenantBody), 'a patch that adds a mark is refused');
      assert.ok(!badHeldValues(tenantBody), 'a negative or mistyped held value is refused');
      assert.equal(sent.length, 1);
      assertStillHeld(sent[0]!, (tenantBody.spec as { replicas?: unknown } | undefined)?.replicas, false);
    }), { numRuns: 300 });
  });

  it('a status write of a held object is refused (its status is the engine\'s), by update and by patch', async () => {
    const { info, fwd } = forwardOf('PUT', `${PATH}/web/status`);
    const sent: KubeObject[] = [];
    const final = translateWrite(targetOf(info, fwd), { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, status: { replicas: 9 } }, { source: 'body', verb: 'update' });
    await assert.rejects(writeHeldKind({ upstream: fakeUpstream(storedHeld(), sent), info, user: 'eve', vet: async () => undefined, prepared: { method: 'PUT', path: fwd.path, query: fwd.query, mode: 'json', final: { ...final, apply: false } } }),
      (err: ApiError) => err.code === 403 && /status of a propagated object/.test(err.message) && !err.message.includes(`${A}-`));
    const patched = forwardOf('PATCH', `${PATH}/web/status`);
    await assert.rejects(patchByReadModifyWrite({ upstream: fakeUpstream(storedHeld(), sent), target: targetOf(patched.info, patched.fwd), vet: async () => undefined,
      prepared: { method: 'PUT', path: patched.fwd.path, query: patched.fwd.query, mode: 'patch', body: { status: { replicas: 9 } }, patchType: 'merge' } }), (err: ApiError) => err.code === 403);
    assert.equal(sent.length, 0);
  });

  it('scale: the tenant\'s replicas go to the annotation, the parent stays held; a stale version is a conflict, a negative count invalid', async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: -3, max: 40 }), fc.constantFrom('patch', 'update'), async (replicas, mode) => {
      const { info, fwd } = forwardOf(mode === 'patch' ? 'PATCH' : 'PUT', `${PATH}/web/scale`);
      const sent: KubeObject[] = [];
      const guarded: string[] = [];
      const scale = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', namespace: 'web' }, spec: { replicas } };
      let answer;
      try {
        answer = await writeHeldScale({
          upstream: fakeUpstream(storedHeld(), sent), ctx, info, guard: (_o, path) => { guarded.push(path); }, admit: async () => undefined,
          prepared: mode === 'patch'
            ? { method: 'PUT', path: fwd.path, query: fwd.query, mode: 'patch', body: { spec: { replicas } }, patchType: 'merge' }
            : { method: 'PUT', path: fwd.path, query: fwd.query, mode: 'json', final: { tenant: scale, upstream: scale, apply: false } },
        });
      } catch (err) {
        assert.ok(err instanceof ApiError && err.code === 422 && replicas < 0, String(err));
        assert.equal(sent.length, 0);
        return;
      }
      assert.ok(replicas >= 0);
      assert.ok(answer && 'scale' in answer);
      assert.deepEqual(answer.scale.spec, replicas === 0 ? {} : { replicas });
      assert.equal(answer.scale.metadata.namespace, 'web', 'the Scale is in tenant terms');
      assert.deepEqual(guarded, [`/apis/apps/v1/namespaces/${A}-web/deployments/web`], 'guarded at the parent\'s path');
      assertStillHeld(sent[0]!, replicas, false);
    }), { numRuns: 60 });
    const { info, fwd } = forwardOf('PUT', `${PATH}/web/scale`);
    const stale = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', resourceVersion: '3' }, spec: { replicas: 2 } };
    await assert.rejects(writeHeldScale({ upstream: fakeUpstream(storedHeld(), []), ctx, info, guard: () => undefined, admit: async () => undefined,
      prepared: { method: 'PUT', path: fwd.path, query: fwd.query, mode: 'json', final: { tenant: stale, upstream: stale, apply: false } } }), (err: ApiError) => err.code === 409);
  });
});

// The same property over every held kind (held-kinds.ts): a hostile body (the kind's held fields mistyped or
// negative, a mark in labels or annotations, a DaemonSet's node term) never reaches the upstream unheld.
const KIND_PATHS: Record<string, { path: string; apiVersion: string }> = {
  Deployment: { path: '/apis/apps/v1/namespaces/web/deployments', apiVersion: 'apps/v1' },
  StatefulSet: { path: '/apis/apps/v1/namespaces/web/statefulsets', apiVersion: 'apps/v1' },
  ReplicaSet: { path: '/apis/apps/v1/namespaces/web/replicasets', apiVersion: 'apps/v1' },
  DaemonSet: { path: '/apis/apps/v1/namespaces/web/daemonsets', apiVersion: 'apps/v1' },
  ReplicationController: { path: '/api/v1/namespaces/web/replicationcontrollers', apiVersion: 'v1' },
  Job: { path: '/apis/batch/v1/namespaces/web/jobs', apiVersion: 'batch/v1' },
  CronJob: { path: '/apis/batch/v1beta1/namespaces/web/cronjobs', apiVersion: 'batch/v1beta1' },
};

function storedHeldOf(kind: HeldKind): KubeObject {
  const spec: Record<string, unknown> = { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }], nodeSelector: { disk: 'ssd' } } } };
  for (const f of kind.fields) spec[f.name] = f.type === 'count' ? 3 : false;
  const tenant: KubeObject = { apiVersion: KIND_PATHS[kind.kind]!.apiVersion, kind: kind.kind, metadata: { name: 'web', namespace: 'web', resourceVersion: '7' }, spec };
  return { ...withHeldStatus(hold(toUpstreamObject(ctx, tenant, { namespaced: true })), ENGINE_STATUS), status: HOST_STATUS };
}

const anyKindBody = fc.record({
  metadata,
  spec: fc.record({
    replicas: fc.oneof(fc.integer({ min: -2, max: 50 }), fc.constant('7')),
    parallelism: fc.oneof(fc.integer({ min: -2, max: 50 }), fc.constant('7')),
    paused: fc.oneof(fc.boolean(), fc.constant('no')),
    suspend: fc.oneof(fc.boolean(), fc.constant('no')),
    template: fc.record({ spec: fc.record({ nodeSelector: fc.dictionary(fc.constantFrom('disk', HELD_NODE_SELECTOR_KEY), fc.constantFrom('ssd', 'true', 'false')) }) }),
  }, { requiredKeys: [] }),
}, { requiredKeys: [] }).map((b) => JSON.parse(JSON.stringify(b)) as Record<string, unknown>);

/** What the kind refuses in this body: a mark, the node term (DaemonSet), or a bad value of one of its held fields. */
function refusable(kind: HeldKind, b: Record<string, unknown>): boolean {
  const spec = (b.spec ?? {}) as Record<string, any>;
  const badField = kind.fields.some((f) => spec[f.name] !== undefined
    && (f.type === 'count' ? !(typeof spec[f.name] === 'number' && spec[f.name] >= 0) : typeof spec[f.name] !== 'boolean'));
  const nodeTerm = kind.nodeSelector && spec.template?.spec?.nodeSelector !== undefined && HELD_NODE_SELECTOR_KEY in spec.template.spec.nodeSelector;
  return namesMark(b) || badField || nodeTerm;
}

describe('held writes property, every held kind (ADR 0023)', () => {
  it('update, server-side apply and patches keep each kind held, or are refused for a mark or a bad held value', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...HELD_KINDS), fc.constantFrom('update', 'apply', 'merge', 'strategic'), anyKindBody, async (kind, verb, tenantBody) => {
      const { path, apiVersion } = KIND_PATHS[kind.kind]!;
      const patch = verb === 'merge' || verb === 'strategic';
      const { info, fwd } = forwardOf(verb === 'update' ? 'PUT' : 'PATCH', `${path}/web`);
      const sent: KubeObject[] = [];
      const upstream = fakeUpstream(storedHeldOf(kind), sent);
      try {
        if (patch) {
          await patchByReadModifyWrite({ upstream, target: targetOf(info, fwd), vet: async () => undefined,
            prepared: { method: 'PUT', path: fwd.path, query: fwd.query, mode: 'patch', body: tenantBody, patchType: verb } });
        } else {
          const obj = { apiVersion, kind: kind.kind, ...structuredClone(tenantBody), metadata: { name: 'web', ...(tenantBody.metadata as object) } } as KubeObject;
          const final = translateWrite(targetOf(info, fwd), obj, { source: 'body', verb: verb === 'update' ? 'update' : 'apply' });
          await writeHeldKind({ upstream, info, user: 'eve', vet: async () => undefined,
            prepared: { method: verb === 'update' ? 'PUT' : 'PATCH', path: fwd.path, query: fwd.query, mode: 'json', final: { ...final, apply: verb === 'apply' } } });
        }
      } catch (err) {
        assertRefusal(err);
        assert.ok(refusable(kind, tenantBody), `${kind.kind} ${verb} refused only for a mark, the node term or a bad held value: ${String(err)}`);
        assert.equal(sent.length, 0);
        return;
      }
      assert.ok(!refusable(kind, tenantBody), `${kind.kind} ${verb}: a mark, the node term or a bad held value is refused`);
      assert.equal(sent.length, 1);
      const out = sent[0]!;
      assert.ok(fullyHeld(out), `${kind.kind} ${verb}: still held in full upstream`);
      if (verb !== 'apply') {
        assert.equal(out.metadata.annotations?.[HELD_STATUS_ANNOTATION], JSON.stringify(ENGINE_STATUS));
        assert.deepEqual(out.status, HOST_STATUS);
      }
      const wanted = (tenantBody.spec ?? {}) as Record<string, unknown>;
      const desired = desiredOf(out) as Record<string, unknown>;
      for (const f of kind.fields) if (wanted[f.name] !== undefined) assert.equal(desired[f.name], wanted[f.name], `${kind.kind}: the tenant's ${f.name} recorded`);
    }), { numRuns: 400 });
  });
});
