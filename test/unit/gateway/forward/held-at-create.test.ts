// Hold at create time (ADR 0023, held-at-create.ts): the gateway predicts the
// engine's claim from the policies stored upstream and creates a claimed
// workload held. Unit tests over a fake upstream: which policies count (the
// tenant's own, by the engine's rule), and that nothing but a create of a held
// kind is touched.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { RequestInfo } from '../../../../src/core/request-info.ts';
import type { Upstream, UpstreamResponse } from '../../../../src/kube/upstream.ts';
import { TENANT_LABEL } from '../../../../src/core/tenancy/tenant-id.ts';
import { fullyHeld } from '../../../../src/core/propagation/host-hold.ts';
import { applyCreateHold, createClaimLookup, holdCreateIfClaimed } from '../../../../src/gateway/forward/held-at-create.ts';
import type { PreparedRequest } from '../../../../src/gateway/forward/prepared-request.ts';
import type { TenantInfo } from '../../../../src/tenants/tenant-directory.ts';

const ID = 'abcdef';
const OTHER = 'zyxwvu';
const ctx = { id: ID, user: 'alice' };

/** An upstream that answers LISTs by path (query ignored: a hostile store may return anything). */
function fakeUpstream(lists: Record<string, KubeObject[]>): Upstream & { calls: string[] } {
  const calls: string[] = [];
  return {
    server: 'https://fake', calls, requestOptions: () => ({}),
    async request<T>(_method: string, path: string): Promise<UpstreamResponse<T>> {
      calls.push(path);
      const items = lists[path.split('?')[0]!];
      return items ? { status: 200, headers: {}, body: { items } as T } : { status: 404, headers: {}, body: { kind: 'Status' } as T };
    },
    stream: () => Promise.reject(new Error('no streams')),
    close: () => undefined,
  };
}

const NS_POLICIES = `/apis/policy.karmada.io/v1alpha1/namespaces/${ID}-default/propagationpolicies`;
const CLUSTER_POLICIES = '/apis/policy.karmada.io/v1alpha1/clusterpropagationpolicies';
const policy = (tenant: string, name: string, selector: Record<string, unknown>, namespace?: string): KubeObject => ({
  metadata: { name: namespace ? name : `${tenant}-${name}`, ...(namespace ? { namespace } : {}), labels: { [TENANT_LABEL]: tenant } },
  spec: { resourceSelectors: [selector], placement: { clusterAffinity: { clusterNames: ['member1'] } } },
});
const web: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } }, spec: { replicas: 3 } };
const directory = (info: Partial<TenantInfo> = {}) => ({ byId: (id: string): TenantInfo | undefined => (id === ID ? { id, name: 'acme', phase: 'Ready', suspended: false, ...info } : undefined) });

describe('createClaimLookup: the engine\'s claim, predicted at create time', () => {
  it('a PropagationPolicy of the namespace that selects the object (by name, labels or kind) claims it; one that selects something else does not', async () => {
    const cases: Array<[Record<string, unknown>, boolean]> = [
      [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, true],
      [{ apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { app: 'web' } } }, true],
      [{ apiVersion: 'apps/v1', kind: 'Deployment' }, true],
      [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'other' }, false],
      [{ apiVersion: 'apps/v1', kind: 'StatefulSet' }, false],
      [{ apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { app: 'db' } } }, false],
    ];
    for (const [selector, claimed] of cases) {
      const lookup = createClaimLookup(fakeUpstream({ [NS_POLICIES]: [policy(ID, 'p', selector, `${ID}-default`)], [CLUSTER_POLICIES]: [] }), directory());
      assert.equal(await lookup(ctx, web, `${ID}-default`), claimed, JSON.stringify(selector));
    }
  });

  it('a ClusterPropagationPolicy of the tenant claims it; the tenant\'s default placement claims every workload', async () => {
    const cluster = createClaimLookup(fakeUpstream({ [NS_POLICIES]: [], [CLUSTER_POLICIES]: [policy(ID, 'all', { apiVersion: 'apps/v1', kind: 'Deployment' })] }), directory());
    assert.equal(await cluster(ctx, web, `${ID}-default`), true);
    const byDefault = createClaimLookup(fakeUpstream({ [NS_POLICIES]: [], [CLUSTER_POLICIES]: [] }), directory({ defaultPlacement: { clusterAffinity: { clusterNames: ['member1'] } } }));
    assert.equal(await byDefault(ctx, web, `${ID}-default`), true);
    const none = createClaimLookup(fakeUpstream({ [NS_POLICIES]: [], [CLUSTER_POLICIES]: [] }), directory());
    assert.equal(await none(ctx, web, `${ID}-default`), false);
  });

  it('adversarial: another tenant\'s policies never claim this tenant\'s object, even when the upstream hands them over', async () => {
    const hostile = fakeUpstream({
      [NS_POLICIES]: [policy(OTHER, 'p', { apiVersion: 'apps/v1', kind: 'Deployment' }, `${OTHER}-default`)],
      [CLUSTER_POLICIES]: [policy(OTHER, 'all', { apiVersion: 'apps/v1', kind: 'Deployment' })],
    });
    assert.equal(await createClaimLookup(hostile, directory())(ctx, web, `${ID}-default`), false);
    // And the lookup asks only for this tenant's policies.
    assert.ok(hostile.calls.every((p) => p.includes(encodeURIComponent(`${TENANT_LABEL}=${ID}`))), hostile.calls.join('\n'));
    assert.ok(hostile.calls.filter((p) => p.includes('/namespaces/')).every((p) => p.includes(`/namespaces/${ID}-default/`)));
  });

  it('an upstream that cannot list policies (no Karmada CRDs, an error) claims nothing: the engine holds later, as before', async () => {
    assert.equal(await createClaimLookup(fakeUpstream({}), directory())(ctx, web, `${ID}-default`), false);
  });
});

describe('holdCreateIfClaimed: only a create of a held kind is held', () => {
  const info = (over: Partial<RequestInfo>): RequestInfo => ({ verb: 'create', apiGroup: 'apps', apiVersion: 'v1', resource: 'deployments', subresource: '', namespace: 'default', name: '', isResourceRequest: true, path: '', ...over } as RequestInfo);
  const upstreamWeb: KubeObject = { ...web, metadata: { ...web.metadata, namespace: `${ID}-default`, labels: { app: 'web', [TENANT_LABEL]: ID } } };
  const prepared = (): PreparedRequest => ({ method: 'POST', path: `/apis/apps/v1/namespaces/${ID}-default/deployments`, query: new URLSearchParams(), mode: 'json', body: upstreamWeb, guardBody: upstreamWeb, final: { tenant: web, upstream: upstreamWeb, apply: false } });
  const yes = async (): Promise<boolean> => true;

  it('a claimed create is sent held (body, guard body and final object alike), the tenant terms untouched', async () => {
    const out = await holdCreateIfClaimed(yes, ctx, info({}), prepared());
    assert.ok(fullyHeld(out.body as KubeObject));
    assert.equal(out.guardBody, out.body);
    assert.equal(out.final?.upstream, out.body);
    assert.equal((out.body as KubeObject).metadata.annotations?.['propagation.warren.dev/replicas'], '3');
    assert.deepEqual(out.final?.tenant, web);
  });

  it('not claimed, not a create, not a held kind, or a subresource: sent as prepared, and the lookup is not asked', async () => {
    let asked = 0;
    const counting = async (): Promise<boolean> => { asked++; return true; };
    const p = prepared();
    assert.equal(await holdCreateIfClaimed(async () => false, ctx, info({}), p), p);
    for (const over of [{ verb: 'update', name: 'web' }, { resource: 'configmaps', apiGroup: '' }, { subresource: 'status' }]) {
      assert.equal(await holdCreateIfClaimed(counting, ctx, info(over), p), p, JSON.stringify(over));
    }
    assert.equal(await holdCreateIfClaimed(undefined, ctx, info({}), p), p);
    assert.equal(asked, 0);
  });

  it('a server-side apply that creates a claimed workload is held too, only with the fields it names (no defaults)', async () => {
    const applied: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: `${ID}-default` }, spec: { template: {} } };
    const held = await applyCreateHold(yes, ctx, web)!(applied);
    assert.ok(fullyHeld(held));
    assert.equal(held.metadata.annotations?.['propagation.warren.dev/replicas'], undefined, 'no replicas named, none recorded');
    assert.equal(await applyCreateHold(async () => false, ctx, web)!(applied), applied);
    assert.equal(applyCreateHold(undefined, ctx, web), undefined);
  });
});
