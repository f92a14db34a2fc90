// Property (session 13, v1): the gateway's reserved-references admitter, on the
// host side, over every pod-holding kind and a Service, every write verb (POST,
// PUT with the stored object read upstream, PATCH with it given), random values
// written at the kind's own places and at other kinds' places. Oracle, read by
// kube's schema (a table written apart from the code under test): the write is
// refused (403, the field named, no tenant prefix) exactly when some field the
// host's components follow (a `system-*` priority class or a nodeName in the pod
// spec, a StatefulSet claim template's volumeName, a Service external IP) holds
// a value the stored object does not hold at the same place.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import fc from 'fast-check';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';
import { translateRequest, type ForwardedRequest } from '../../../../src/core/tenancy/request-translation.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import { reservedReferencesAdmitter } from '../../../../src/gateway/admission/reserved-references-admitter.ts';
import type { Upstream } from '../../../../src/kube/upstream.ts';

const ctx = { id: 'aaaaaa', user: 'eve' };

/** kind → [apiVersion, collection path, where kube reads its pod spec]. */
const KINDS: Record<string, [string, string, string[] | undefined]> = {
  Pod: ['v1', '/api/v1/namespaces/web/pods', ['spec']],
  PodTemplate: ['v1', '/api/v1/namespaces/web/podtemplates', ['template', 'spec']],
  ReplicationController: ['v1', '/api/v1/namespaces/web/replicationcontrollers', ['spec', 'template', 'spec']],
  Deployment: ['apps/v1', '/apis/apps/v1/namespaces/web/deployments', ['spec', 'template', 'spec']],
  ReplicaSet: ['apps/v1', '/apis/apps/v1/namespaces/web/replicasets', ['spec', 'template', 'spec']],
  StatefulSet: ['apps/v1', '/apis/apps/v1/namespaces/web/statefulsets', ['spec', 'template', 'spec']],
  DaemonSet: ['apps/v1', '/apis/apps/v1/namespaces/web/daemonsets', ['spec', 'template', 'spec']],
  Job: ['batch/v1', '/apis/batch/v1/namespaces/web/jobs', ['spec', 'template', 'spec']],
  CronJob: ['batch/v1beta1', '/apis/batch/v1beta1/namespaces/web/cronjobs', ['spec', 'jobTemplate', 'spec', 'template', 'spec']],
  Service: ['v1', '/api/v1/namespaces/web/services', undefined],
};
const POD_PLACES = [...new Set(Object.values(KINDS).map(([, , p]) => p).filter((p): p is string[] => p !== undefined).map((p) => p.join('.')))];
const FIELDS = ['priorityClassName', 'nodeName'];
const CLAIM_VOLUME = 'spec.volumeClaimTemplates.0.spec.volumeName';
const EXTERNAL_IP = 'spec.externalIPs.0';
const VALUES = ['system-node-critical', 'system-x', 'tenant-high', 'node-1', 'node-2', '', '10.96.0.10'];

type Write = { place: string; value: string };

function set(obj: Record<string, unknown>, path: string, value: string): void {
  const keys = path.split('.');
  let at: Record<string, unknown> | unknown[] = obj;
  keys.forEach((key, i) => {
    const last = i === keys.length - 1;
    const next = keys[i + 1];
    const slot = Array.isArray(at) ? Number(key) : key;
    const holder = at as Record<string | number, unknown>;
    if (last) { holder[slot] = value; return; }
    if (holder[slot] === null || typeof holder[slot] !== 'object') holder[slot] = /^\d+$/.test(next ?? '') ? [] : {};
    at = holder[slot] as Record<string, unknown>;
  });
}
const get = (obj: unknown, path: string): unknown => path.split('.').reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), obj);

function build(kind: string, writes: Write[]): KubeObject {
  const [apiVersion] = KINDS[kind]!;
  const obj: Record<string, unknown> = { apiVersion, kind, metadata: { name: 'x', namespace: 'web' } };
  for (const w of writes) set(obj, w.place, w.value);
  return obj as KubeObject;
}

/** The places the host's components follow for this kind, and whether a value there is one they act on. */
function followed(kind: string): Array<[string, (v: unknown) => boolean]> {
  const pod = KINDS[kind]![2];
  const named = (v: unknown): boolean => typeof v === 'string' && v !== '';
  return [
    ...(pod ? [[`${pod.join('.')}.priorityClassName`, (v: unknown) => typeof v === 'string' && v.startsWith('system-')] as [string, (v: unknown) => boolean], [`${pod.join('.')}.nodeName`, named] as [string, (v: unknown) => boolean]] : []),
    ...(kind === 'StatefulSet' ? [[CLAIM_VOLUME, named] as [string, (v: unknown) => boolean]] : []),
    ...(kind === 'Service' ? [[EXTERNAL_IP, named] as [string, (v: unknown) => boolean]] : []),
  ];
}
const newlyNamed = (kind: string, body: KubeObject, stored: KubeObject | undefined): boolean =>
  followed(kind).some(([place, acts]) => acts(get(body, place)) && get(body, place) !== get(stored, place));

const arbWrites = (kind: string) => {
  const own = followed(kind).map(([p]) => p);
  const places = [...own, ...POD_PLACES.flatMap((p) => FIELDS.map((f) => `${p}.${f}`)), 'spec.nodeName', 'metadata.labels.nodeName'];
  return fc.array(fc.record({ place: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...own.length ? own : places) }, { weight: 1, arbitrary: fc.constantFrom(...places) }), value: fc.constantFrom(...VALUES) }), { maxLength: 3 });
};
const arbCase = fc.constantFrom(...Object.keys(KINDS)).chain((kind) => fc.record({
  kind: fc.constant(kind),
  verb: fc.constantFrom('POST', 'PUT', 'PATCH'),
  body: arbWrites(kind),
  // Stored: nothing, or the body's own writes (kept), or other writes.
  stored: fc.oneof(fc.constant('none' as const), fc.constant('same' as const), arbWrites(kind)),
}));

async function admit(verb: string, kind: string, body: KubeObject, stored: KubeObject | undefined): Promise<void> {
  const base = KINDS[kind]![1];
  const path = verb === 'POST' ? base : `${base}/x`;
  const info = parseRequestInfo(verb, path, new URLSearchParams());
  const fwd = translateRequest(ctx, info, new URLSearchParams()) as ForwardedRequest;
  const upstream = { request: <T>(method: string, at: string) => Promise.resolve(method === 'GET' && at === fwd.path && stored ? { status: 200, body: stored as T } : { status: 404, body: {} as T }) } as unknown as Pick<Upstream, 'request'>;
  const run = await reservedReferencesAdmitter(upstream).start({ req: {} as IncomingMessage, res: {} as ServerResponse, ctx, info, fwd });
  // A patch hands the stored object over; a PUT makes the admitter read it.
  await run?.admit?.({ tenant: body, upstream: body, apply: false, ...(verb === 'PATCH' && stored ? { stored } : {}) });
}

describe('property: the host refuses exactly the reserved references a write adds', () => {
  it('refused (403, in tenant terms) iff a followed field names something the stored object does not', async () => {
    const seen = { refused: 0, admitted: 0 };
    await fc.assert(fc.asyncProperty(arbCase, async (c) => {
      const body = build(c.kind, c.body);
      const stored = c.verb === 'POST' || c.stored === 'none' ? undefined : build(c.kind, c.stored === 'same' ? c.body : c.stored);
      const want = newlyNamed(c.kind, body, stored);
      let err: { code?: number; message?: string } | undefined;
      try { await admit(c.verb, c.kind, body, stored); } catch (e) { err = e as { code?: number; message?: string }; }
      assert.equal(err !== undefined, want, `${c.verb} ${c.kind} ${JSON.stringify(body)} stored ${JSON.stringify(stored)}: ${err?.message ?? 'admitted'}`);
      if (!err) { seen.admitted++; return; }
      seen.refused++;
      assert.equal(err.code, 403, err.message);
      assert.match(err.message ?? '', /(priorityClassName|nodeName|volumeName|externalIPs): "/, err.message);
      assert.ok(!(err.message ?? '').includes('aaaaaa-'), err.message);
    }), { numRuns: 600 });
    assert.ok(seen.refused > 50 && seen.admitted > 50, JSON.stringify(seen));
    console.log(`reserved-references (host): ${JSON.stringify(seen)}`);
  });
});
