// The reserved-references admitter (session 13, a1): per kind, the pod spec's
// `system-*` priority class and a StatefulSet claim template's volume are
// refused with 403 in the tenant's terms; a platform-offered class passes, and
// a field the stored object already has passes (an old object can still be
// scaled, labelled or deleted).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';
import { translateRequest, type ForwardedRequest } from '../../../../src/core/tenancy/request-translation.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { FinalObject } from '../../../../src/gateway/admission/admission-chain.ts';
import { reservedReferencesAdmitter } from '../../../../src/gateway/admission/reserved-references-admitter.ts';
import type { Upstream } from '../../../../src/kube/upstream.ts';

const ctx = { id: 'aaaaaa', user: 'eve' };

/** A PUT carries no stored object: the admitter reads it upstream (`live`, 404 when absent). */
async function admit(method: string, path: string, tenant: KubeObject, stored?: KubeObject, live?: KubeObject): Promise<void> {
  const info = parseRequestInfo(method, path, new URLSearchParams());
  const fwd = translateRequest(ctx, info, new URLSearchParams()) as ForwardedRequest;
  const upstream = { request: <T>(verb: string, at: string) => Promise.resolve(verb === 'GET' && at === fwd.path && live ? { status: 200, body: live as T } : { status: 404, body: {} as T }) } as unknown as Pick<Upstream, 'request'>;
  const run = await reservedReferencesAdmitter(upstream).start({ req: {} as IncomingMessage, res: {} as ServerResponse, ctx, info, fwd });
  const final: FinalObject = { tenant, upstream: tenant, apply: false, ...(stored ? { stored } : {}) };
  await run?.admit?.(final);
}

const withPod = (apiVersion: string, kind: string, spec: Record<string, unknown>): KubeObject => {
  const pod = { containers: [{ name: 'c', image: 'nginx' }], ...spec };
  const body: Record<string, unknown> = kind === 'Pod' ? pod : kind === 'CronJob' ? { jobTemplate: { spec: { template: { spec: pod } } } } : { template: { spec: pod } };
  return { apiVersion, kind, metadata: { name: 'x', namespace: 'web' }, ...(kind === 'PodTemplate' ? { template: { spec: pod } } : { spec: body }) } as KubeObject;
};

const KINDS: Array<[string, string, string]> = [
  ['v1', 'Pod', '/api/v1/namespaces/web/pods'],
  ['v1', 'PodTemplate', '/api/v1/namespaces/web/podtemplates'],
  ['v1', 'ReplicationController', '/api/v1/namespaces/web/replicationcontrollers'],
  ['apps/v1', 'Deployment', '/apis/apps/v1/namespaces/web/deployments'],
  ['apps/v1', 'ReplicaSet', '/apis/apps/v1/namespaces/web/replicasets'],
  ['apps/v1', 'StatefulSet', '/apis/apps/v1/namespaces/web/statefulsets'],
  ['apps/v1', 'DaemonSet', '/apis/apps/v1/namespaces/web/daemonsets'],
  ['batch/v1', 'Job', '/apis/batch/v1/namespaces/web/jobs'],
  ['batch/v1', 'CronJob', '/apis/batch/v1/namespaces/web/cronjobs'],
];

const forbidden = (err: { code?: number; message?: string }): boolean => err.code === 403 && /is reserved for the cluster's own components/.test(err.message ?? '') && !/aaaaaa-/.test(err.message ?? '');

describe('reserved references admitter', () => {
  for (const [apiVersion, kind, path] of KINDS) {
    it(`${kind}: system-* refused on create, update and patch; other classes and kept values pass`, async () => {
      for (const cls of ['system-node-critical', 'system-cluster-critical', 'system-anything']) {
        await assert.rejects(admit('POST', path, withPod(apiVersion, kind, { priorityClassName: cls })), forbidden, `${kind} ${cls}`);
        await assert.rejects(admit('PATCH', `${path}/x`, withPod(apiVersion, kind, { priorityClassName: cls }), withPod(apiVersion, kind, {})), forbidden, `${kind} ${cls} patched in`);
      }
      await admit('POST', path, withPod(apiVersion, kind, { priorityClassName: 'tenant-high' }));
      await admit('POST', path, withPod(apiVersion, kind, {}));
      const old = withPod(apiVersion, kind, { priorityClassName: 'system-node-critical' });
      await admit('PATCH', `${path}/x`, old, old);
    });
  }

  for (const [apiVersion, kind, path] of KINDS) {
    it(`${kind}: spec.nodeName refused on create, PUT and patch unless stored; a PUT keeping the stored node passes`, async () => {
      const placed = withPod(apiVersion, kind, { nodeName: 'node-a' });
      const nodeRefused = (err: { code?: number; message?: string }): boolean => err.code === 403 && /nodeName: "node-b" may not be set: the scheduler places pods/.test(err.message ?? '') && !/aaaaaa-/.test(err.message ?? '');
      const b = withPod(apiVersion, kind, { nodeName: 'node-b' });
      await assert.rejects(admit('POST', path, b), nodeRefused, `${kind} create`);
      await assert.rejects(admit('PUT', `${path}/x`, b, undefined, withPod(apiVersion, kind, {})), nodeRefused, `${kind} PUT added`);
      await assert.rejects(admit('PUT', `${path}/x`, b, undefined, placed), nodeRefused, `${kind} PUT changed`);
      await assert.rejects(admit('PUT', `${path}/x`, b), nodeRefused, `${kind} PUT, nothing stored`);
      await assert.rejects(admit('PATCH', `${path}/x`, b, withPod(apiVersion, kind, {})), nodeRefused, `${kind} patched in`);
      await admit('PUT', `${path}/x`, placed, undefined, placed);
      await admit('PATCH', `${path}/x`, placed, placed);
      await admit('POST', path, withPod(apiVersion, kind, { nodeName: '' }));
    });
  }

  it('a PUT keeping what is stored upstream passes (system-* class, external IPs): objects written before the check stay updatable', async () => {
    const old = withPod('apps/v1', 'Deployment', { priorityClassName: 'system-node-critical' });
    await admit('PUT', '/apis/apps/v1/namespaces/web/deployments/x', old, undefined, old);
    await assert.rejects(admit('PUT', '/apis/apps/v1/namespaces/web/deployments/x', old, undefined, withPod('apps/v1', 'Deployment', {})), forbidden);
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'web' }, spec: { externalIPs: ['1.2.3.4'] } } as KubeObject;
    await admit('PUT', '/api/v1/namespaces/web/services/s', svc, undefined, svc);
  });

  it('a StatefulSet claim template may not name a volume; a PVC is the pvc-volume admitter\'s', async () => {
    const sts = (volumeName?: string): KubeObject => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', namespace: 'web' },
      spec: { template: { spec: { containers: [] } }, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: volumeName ? { volumeName } : {} }] } } as KubeObject);
    await assert.rejects(admit('POST', '/apis/apps/v1/namespaces/web/statefulsets', sts('pv-1')), (err: { code?: number; message?: string }) => err.code === 403 && /volumeClaimTemplates\[0\]\.spec\.volumeName: "pv-1"/.test(err.message ?? ''));
    await admit('POST', '/apis/apps/v1/namespaces/web/statefulsets', sts());
    await admit('POST', '/api/v1/namespaces/web/persistentvolumeclaims', { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c' }, spec: { volumeName: 'pv-1' } } as KubeObject);
  });

  it('a Service may not add external IPs; those it has stored may stay', async () => {
    const svc = (externalIPs: string[]): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'web' }, spec: { ports: [{ port: 80 }], externalIPs } } as KubeObject);
    const refused = (err: { code?: number; message?: string }): boolean => err.code === 403 && /spec\.externalIPs: "10\.96\.0\.10" is not allowed/.test(err.message ?? '');
    await assert.rejects(admit('POST', '/api/v1/namespaces/web/services', svc(['10.96.0.10'])), refused);
    await assert.rejects(admit('PATCH', '/api/v1/namespaces/web/services/s', svc(['1.2.3.4', '10.96.0.10']), svc(['1.2.3.4'])), refused);
    await admit('PATCH', '/api/v1/namespaces/web/services/s', svc(['1.2.3.4']), svc(['10.96.0.10', '1.2.3.4']));
    await admit('POST', '/api/v1/namespaces/web/services', svc([]));
  });

  it('subresources are not judged (a scale body holds no pod spec)', async () => {
    await admit('PUT', '/apis/apps/v1/namespaces/web/deployments/x/scale', withPod('apps/v1', 'Deployment', { priorityClassName: 'system-node-critical' }));
  });
});

describe('reserved references admitter: the placement contract (ADR 0043)', () => {
  const contract = { nodeSelector: { pool: 'acme' }, tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'acme', effect: 'NoSchedule' }] };
  async function admitUnder(method: string, path: string, tenant: KubeObject, stored?: KubeObject, live?: KubeObject): Promise<void> {
    const info = parseRequestInfo(method, path, new URLSearchParams());
    const fwd = translateRequest(ctx, info, new URLSearchParams()) as ForwardedRequest;
    const upstream = { request: <T>(verb: string, at: string) => Promise.resolve(verb === 'GET' && at === fwd.path && live ? { status: 200, body: live as T } : { status: 404, body: {} as T }) } as unknown as Pick<Upstream, 'request'>;
    const run = await reservedReferencesAdmitter(upstream, (id) => (id === ctx.id ? contract : { nodeSelector: {}, tolerations: [] })).start({ req: {} as IncomingMessage, res: {} as ServerResponse, ctx, info, fwd });
    await run?.admit?.({ tenant, upstream: tenant, apply: false, ...(stored ? { stored } : {}) });
  }
  const refusedFor = (what: RegExp) => (err: { code?: number; message?: string }): boolean => err.code === 403 && what.test(err.message ?? '') && !/aaaaaa-/.test(err.message ?? '');
  const selected = { nodeSelector: { pool: 'acme' } };
  const MASTER = { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' };
  for (const [apiVersion, kind, path] of KINDS) {
    it(`${kind}: a toleration outside the contract, or a missing or changed selector, is refused; kept values pass`, async () => {
      await admitUnder('POST', path, withPod(apiVersion, kind, { ...selected, tolerations: [contract.tolerations[0]] }));
      await admitUnder('POST', path, withPod(apiVersion, kind, { ...selected, tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }] }));
      for (const t of [{ operator: 'Exists' }, MASTER, { key: 'dedicated', operator: 'Exists' }]) {
        await assert.rejects(admitUnder('POST', path, withPod(apiVersion, kind, { ...selected, tolerations: [t] })), refusedFor(/tolerations: .* is not allowed/), `${kind} ${JSON.stringify(t)}`);
      }
      await assert.rejects(admitUnder('POST', path, withPod(apiVersion, kind, {})), refusedFor(/nodeSelector: "pool=acme" must be in the node selector/), `${kind} without the selector`);
      await assert.rejects(admitUnder('POST', path, withPod(apiVersion, kind, { nodeSelector: { pool: 'globex' } })), refusedFor(/conflicts with the node selector/), `${kind} another pool`);
      // Written before the contract: a PUT (stored read upstream) or a patch keeping what is stored passes; a new toleration does not.
      const old = withPod(apiVersion, kind, { tolerations: [MASTER] });
      await admitUnder('PUT', `${path}/x`, old, undefined, old);
      await admitUnder('PATCH', `${path}/x`, old, old);
      await assert.rejects(admitUnder('PATCH', `${path}/x`, withPod(apiVersion, kind, { tolerations: [MASTER, { operator: 'Exists' }] }), old), refusedFor(/is not allowed/), `${kind} adding to a kept one`);
    });
  }
  it('kinds without a pod spec, and subresources, are not judged', async () => {
    await admitUnder('POST', '/api/v1/namespaces/web/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'web' }, data: { tolerations: '[{"operator":"Exists"}]' } } as KubeObject);
    await admitUnder('PUT', '/api/v1/namespaces/web/pods/x/status', withPod('v1', 'Pod', { tolerations: [MASTER] }));
  });
});
