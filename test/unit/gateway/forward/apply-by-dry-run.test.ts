// Server-side apply judged on its merge (ADR 0029): the vet sees the object the
// upstream's dry run answered, in both spellings, beside what was stored and
// what was asked; the real apply is pinned to the resourceVersion the dry run
// merged over; a writer in between (a stale pin) starts again, while an SSA
// field conflict and the dry run's own refusals go to the caller unjudged.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';
import { translateRequest, type ForwardedRequest } from '../../../../src/core/tenancy/request-translation.ts';
import { requestKindOf } from '../../../../src/core/tenancy/request-kind.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { Upstream, UpstreamResponse } from '../../../../src/kube/upstream.ts';
import type { FinalObject } from '../../../../src/gateway/admission/admission-chain.ts';
import { applyByDryRun } from '../../../../src/gateway/forward/apply-by-dry-run.ts';
import { translateWrite, type WriteTarget } from '../../../../src/gateway/forward/write-object.ts';
import type { PreparedRequest } from '../../../../src/gateway/forward/prepared-request.ts';

const A = 'aaaaaa';
const ctx = { id: A, user: 'bob' };
const LABELS = { 'tenancy.warren.dev/tenant': A };
const PATH = `/api/v1/namespaces/${A}-web/configmaps/cfg`;

interface Sent { method: string; path: string; body?: unknown }
type Answer = (sent: Sent) => UpstreamResponse;

function upstreamOf(answers: Answer[]): Upstream & { sent: Sent[] } {
  const sent: Sent[] = [];
  return {
    server: 'https://host.invalid', sent, requestOptions: () => ({}),
    async request<T>(method: string, path: string, body?: unknown): Promise<UpstreamResponse<T>> {
      const s = { method, path, body: structuredClone(body) };
      sent.push(s);
      const next = answers.shift();
      assert.ok(next, `unexpected ${method} ${path}`);
      return next(s) as UpstreamResponse<T>;
    },
    stream: () => Promise.reject(new Error('no streams')), close: () => undefined,
  };
}

const stored = (rv: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: `${A}-web`, resourceVersion: rv, labels: { ...LABELS, a: '1' } }, data: { owned: 'by-alice' } } as KubeObject);
const ok = (body: unknown, status = 200): Answer => () => ({ status, headers: {}, body });
const merged = (rv: string): Answer => (s) => ({ status: 200, headers: {}, body: { ...stored(rv), metadata: { ...stored(rv).metadata, labels: { ...stored(rv).metadata.labels, ...((s.body as KubeObject).metadata.labels ?? {}) } } } });
const status = (code: number, reason: string, message: string): Answer => () => ({ status: code, headers: {}, body: { kind: 'Status', status: 'Failure', code, reason, message } });

function setup() {
  const query = new URLSearchParams('fieldManager=bob&force=true');
  const info = parseRequestInfo('PATCH', '/api/v1/namespaces/web/configmaps/cfg', query);
  const fwd = translateRequest(ctx, info, query) as ForwardedRequest;
  const target: WriteTarget = { ctx, info, fwd, kind: requestKindOf(ctx, info), podSecurity: 'baseline' };
  const applied = translateWrite(target, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', labels: { b: '2' } } } as KubeObject, { source: 'body', verb: 'apply' });
  const prepared: PreparedRequest = { method: 'PATCH', path: fwd.path, query: fwd.query, mode: 'json', body: applied.upstream };
  return { target, prepared, applied: { ...applied, apply: true } };
}

describe('server-side apply through its dry run', () => {
  it('the vet judges the merged object (with the stored one and what was asked); the apply is pinned to what it merged over', async () => {
    const upstream = upstreamOf([ok(stored('7')), merged('7'), ok({ ...stored('8') })]);
    const vetted: FinalObject[] = [];
    const answer = await applyByDryRun({ upstream, ...setup(), vet: async (f) => { vetted.push(f); } });
    assert.equal(answer.status, 200);
    assert.deepEqual(upstream.sent.map((s) => `${s.method} ${s.path}`), [`GET ${PATH}`, `PATCH ${PATH}?fieldManager=bob&force=true&dryRun=All`, `PATCH ${PATH}?fieldManager=bob&force=true`]);
    assert.equal((upstream.sent[1]!.body as KubeObject).metadata.resourceVersion, '7');
    assert.equal((upstream.sent[2]!.body as KubeObject).metadata.resourceVersion, '7');
    assert.equal(vetted.length, 1);
    assert.deepEqual(vetted[0]!.tenant.data, { owned: 'by-alice' }, 'fields other managers own are judged too');
    assert.deepEqual(vetted[0]!.tenant.metadata.labels, { a: '1', b: '2' });
    assert.equal(vetted[0]!.tenant.metadata.namespace, 'web', 'tenant terms');
    assert.equal(vetted[0]!.upstream.metadata.namespace, `${A}-web`);
    assert.deepEqual(vetted[0]!.applied?.metadata.labels, { b: '2' });
    assert.equal(vetted[0]!.stored?.metadata.resourceVersion, '7');
    assert.equal(vetted[0]!.apply, false);
  });

  it('a refusal by the vet sends nothing more', async () => {
    const upstream = upstreamOf([ok(stored('7')), merged('7')]);
    await assert.rejects(applyByDryRun({ upstream, ...setup(), vet: async () => { throw new Error('escalation'); } }), /escalation/);
    assert.equal(upstream.sent.length, 2);
  });

  it('a writer between the dry run and the apply (stale pin) starts again, and the second merge is judged', async () => {
    const stale = status(409, 'Conflict', 'Operation cannot be fulfilled on configmaps "cfg": the object has been modified; please apply your changes to the latest version and try again');
    const upstream = upstreamOf([ok(stored('7')), merged('7'), stale, ok(stored('9')), merged('9'), ok(stored('10'))]);
    let vets = 0;
    const answer = await applyByDryRun({ upstream, ...setup(), vet: async () => { vets++; } });
    assert.equal(answer.status, 200);
    assert.equal(vets, 2);
    assert.equal((upstream.sent[5]!.body as KubeObject).metadata.resourceVersion, '9');
  });

  it('an SSA field conflict and a refused dry run go to the caller as they are', async () => {
    const fieldConflict = status(409, 'Conflict', 'Apply failed with 1 conflict: conflict with "alice": .data.owned');
    const a = upstreamOf([ok(stored('7')), merged('7'), fieldConflict]);
    assert.equal((await applyByDryRun({ upstream: a, ...setup(), vet: async () => undefined })).status, 409);
    assert.equal(a.sent.length, 3);
    const b = upstreamOf([ok(stored('7')), status(422, 'Invalid', 'bad')]);
    let vetted = false;
    assert.equal((await applyByDryRun({ upstream: b, ...setup(), vet: async () => { vetted = true; } })).status, 422);
    assert.equal(vetted, false);
  });

  it('an apply that creates its object is pinned to "absent" (resourceVersion 1, which kube ignores on an absent object)', async () => {
    const upstream = upstreamOf([status(404, 'NotFound', 'not found'), merged('1'), ok(stored('1'), 201)]);
    const vetted: FinalObject[] = [];
    assert.equal((await applyByDryRun({ upstream, ...setup(), vet: async (f) => { vetted.push(f); } })).status, 201);
    assert.equal((upstream.sent[1]!.body as KubeObject).metadata.resourceVersion, '1');
    assert.equal((upstream.sent[2]!.body as KubeObject).metadata.resourceVersion, '1');
    assert.equal(vetted[0]!.stored, undefined);
  });

  it('an object created between the dry run and a creating apply is not merged unjudged: the pinned apply is stale, and the merge over it is judged', async () => {
    // What kube-apiserver 1.20 answers (test/contract/server-side-apply.test.ts): resourceVersion "1" on an existing object is 409.
    const stale = status(409, 'Conflict', 'Operation cannot be fulfilled on configmaps "cfg": the object has been modified; please apply your changes to the latest version and try again');
    const upstream = upstreamOf([status(404, 'NotFound', 'not found'), merged('1'), stale, ok(stored('5')), merged('5'), ok(stored('6'))]);
    const vetted: FinalObject[] = [];
    const answer = await applyByDryRun({ upstream, ...setup(), vet: async (f) => { vetted.push(f); } });
    assert.equal(answer.status, 200);
    assert.equal(vetted.length, 2);
    assert.equal(vetted[1]!.stored?.metadata.resourceVersion, '5', 'the intruder\'s object is what the second merge is judged over');
    assert.deepEqual(vetted[1]!.tenant.data, { owned: 'by-alice' });
    assert.equal((upstream.sent[5]!.body as KubeObject).metadata.resourceVersion, '5');
  });
});
