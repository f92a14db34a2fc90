// The admitters that read the upstream to prove a reference is the tenant's
// (issue 13): owner references by uid, a PVC's volumeName by the volume's
// claimRef. The upstream is a map of paths: each case states exactly what the
// host holds.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';
import { translateRequest, type ForwardedRequest } from '../../../../src/core/tenancy/request-translation.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { Upstream, UpstreamResponse } from '../../../../src/kube/upstream.ts';
import type { Admitter, FinalObject, WriteScope } from '../../../../src/gateway/admission/admission-chain.ts';
import { ownerReferencesAdmitter } from '../../../../src/gateway/admission/owner-references-admitter.ts';
import { pvcVolumeAdmitter } from '../../../../src/gateway/admission/pvc-volume-admitter.ts';

const A = 'aaaaaa';
const LABELS = { 'tenancy.warren.dev/tenant': A };
const ctx = { id: A, user: 'eve' };

function hostOf(objects: Record<string, unknown>): Upstream & { gets: string[] } {
  const gets: string[] = [];
  return {
    server: 'https://host.invalid',
    gets,
    requestOptions: () => ({}),
    async request<T>(method: string, path: string): Promise<UpstreamResponse<T>> {
      assert.equal(method, 'GET', 'admitters only read');
      gets.push(path);
      const body = objects[path];
      return body === undefined ? { status: 404, headers: {}, body: { kind: 'Status', code: 404 } as T } : { status: 200, headers: {}, body: body as T };
    },
    stream: () => Promise.reject(new Error('no streams')),
    close: () => undefined,
  };
}

function scopeOf(method: string, path: string): WriteScope {
  const info = parseRequestInfo(method, path, new URLSearchParams());
  const fwd = translateRequest(ctx, info, new URLSearchParams()) as ForwardedRequest;
  return { req: {} as IncomingMessage, res: {} as ServerResponse, ctx, info, fwd };
}

async function admit(admitter: Admitter, method: string, path: string, upstream: KubeObject, stored?: KubeObject): Promise<void> {
  const run = await admitter.start(scopeOf(method, path));
  const final: FinalObject = { tenant: upstream, upstream, apply: false, ...(stored ? { stored } : {}) };
  await run?.admit?.(final);
}

const DISCOVERY_V1 = { resources: [{ name: 'configmaps', kind: 'ConfigMap', namespaced: true }, { name: 'nodes', kind: 'Node', namespaced: false }, { name: 'namespaces', kind: 'Namespace', namespaced: false }] };
const cm = (name: string, ownerReferences: unknown[]): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: `${A}-web`, labels: LABELS, ownerReferences } } as KubeObject);
const ref = (kind: string, name: string, uid: string) => ({ apiVersion: 'v1', kind, name, uid });

describe('owner references name the tenant\'s own objects', () => {
  const host = () => hostOf({
    '/api/v1': DISCOVERY_V1,
    [`/api/v1/namespaces/${A}-web/configmaps/owner`]: { metadata: { name: 'owner', uid: 'u-own', labels: LABELS } },
    [`/api/v1/namespaces/${A}-web/configmaps/platform`]: { metadata: { name: 'platform', uid: 'u-platform' } },
    '/api/v1/nodes/node-1': { metadata: { name: 'node-1', uid: 'u-node' } },
    [`/api/v1/namespaces/${A}-web`]: { metadata: { name: `${A}-web`, uid: 'u-ns', labels: LABELS } },
  });
  const POST = '/api/v1/namespaces/web/configmaps';
  it('admits an owner of the tenant with its uid', async () => {
    await admit(ownerReferencesAdmitter(host()), 'POST', POST, cm('x', [ref('ConfigMap', 'owner', 'u-own')]));
  });
  const refused: Array<[string, unknown]> = [
    ['another tenant\'s uid under the tenant\'s own name', ref('ConfigMap', 'owner', 'u-of-bbbbbb')],
    ['a cluster-scoped object that does not exist', ref('Namespace', 'ghost', 'u-ghost')],
    ['an object without the tenant label', ref('ConfigMap', 'platform', 'u-platform')],
    ['a Node', ref('Node', 'node-1', 'u-node')],
    ['a kind the upstream does not serve', ref('Gadget', 'g', 'u-g')],
  ];
  for (const [what, r] of refused) {
    it(`refuses ${what} with a 422 in tenant terms`, async () => {
      await assert.rejects(admit(ownerReferencesAdmitter(host()), 'POST', POST, cm('x', [r])), (err: { code?: number; message?: string }) => {
        assert.equal(err.code, 422);
        assert.ok(!String(err.message).includes(`${A}-`), err.message);
        return true;
      });
    });
  }
  it('admits a namespaced owner that does not exist (yet), looked up in the tenant\'s own namespace, as kube does (its collector deletes the dependent)', async () => {
    const upstream = host();
    await admit(ownerReferencesAdmitter(upstream), 'POST', POST, cm('x', [ref('ConfigMap', 'ghost', 'u-of-bbbbbb')]));
    assert.ok(upstream.gets.includes(`/api/v1/namespaces/${A}-web/configmaps/ghost`), upstream.gets.join(' '));
  });
  it('a reference the stored object already had is not read again', async () => {
    const upstream = host();
    const old = cm('x', [ref('ConfigMap', 'gone', 'u-gone')]);
    await admit(ownerReferencesAdmitter(upstream), 'PATCH', `${POST}/x`, cm('x', [ref('ConfigMap', 'gone', 'u-gone')]), old);
    assert.deepEqual(upstream.gets, []);
  });
  it('a cluster-scoped object cannot be owned by a namespaced kind', async () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${A}-x`, labels: LABELS, ownerReferences: [ref('ConfigMap', 'owner', 'u-own')] } } as KubeObject;
    await assert.rejects(admit(ownerReferencesAdmitter(host()), 'POST', '/api/v1/namespaces', ns), /cluster-scoped object cannot be owned/);
  });
});

describe('a PVC binds only to a volume offered to it', () => {
  const PATH = '/api/v1/namespaces/web/persistentvolumeclaims/data';
  const pvc = (volumeName?: string, uid?: string): KubeObject => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: `${A}-web`, labels: LABELS, ...(uid ? { uid } : {}) }, spec: volumeName ? { volumeName } : {} } as KubeObject);
  const host = (stored?: KubeObject) => hostOf({
    '/api/v1/persistentvolumes/released': { metadata: { name: 'released' }, spec: { claimRef: { namespace: 'bbbbbb-web', name: 'data', uid: 'u-b' } } },
    '/api/v1/persistentvolumes/free': { metadata: { name: 'free' }, spec: {} },
    '/api/v1/persistentvolumes/reserved': { metadata: { name: 'reserved' }, spec: { claimRef: { namespace: `${A}-web`, name: 'data' } } },
    '/api/v1/persistentvolumes/pvc-u-a': { metadata: { name: 'pvc-u-a' }, spec: { claimRef: { namespace: `${A}-web`, name: 'data', uid: 'u-a' } } },
    ...(stored ? { [`/api/v1/namespaces/${A}-web/persistentvolumeclaims/data`]: stored } : {}),
  });
  for (const [verb, method] of [['update', 'PUT'], ['patch', 'PATCH']] as const) {
    it(`${verb}: refuses another claim's volume and a free one; admits one reserved for this claim`, async () => {
      for (const name of ['released', 'free', 'missing']) {
        await assert.rejects(admit(pvcVolumeAdmitter(host(pvc())), method, PATH, pvc(name, 'u-a'), method === 'PATCH' ? pvc() : undefined), (err: { code?: number }) => err.code === 403, name);
      }
      await admit(pvcVolumeAdmitter(host(pvc())), method, PATH, pvc('reserved', 'u-a'), method === 'PATCH' ? pvc() : undefined);
    });
  }
  it('a volumeName the claim already had (the binder set it) passes without reading the volume', async () => {
    const upstream = host(pvc('pvc-u-a', 'u-a'));
    await admit(pvcVolumeAdmitter(upstream), 'PUT', PATH, pvc('pvc-u-a', 'u-a'));
    assert.deepEqual(upstream.gets, [`/api/v1/namespaces/${A}-web/persistentvolumeclaims/data`]);
  });
  it('a volume reserved for the same name but another uid is refused', async () => {
    await assert.rejects(admit(pvcVolumeAdmitter(host(pvc())), 'PUT', PATH, pvc('pvc-u-a', 'u-other')), (err: { code?: number }) => err.code === 403);
  });
});
