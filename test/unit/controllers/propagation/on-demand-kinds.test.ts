// Which kinds the engine watches per tenant: only what the tenant's policies
// name (cluster-scoped kinds by a ClusterPropagationPolicy only), so an idle
// tenant, or one whose policies name only namespaced built-ins, costs no informer.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createOnDemandKinds } from '../../../../src/controllers/propagation/on-demand-kinds.ts';
import type { EngineInformers } from '../../../../src/controllers/propagation/engine-informers.ts';
import type { PropagationPolicy, ResourceSelector } from '../../../../src/core/propagation/karmada-types.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import { TENANT_LABEL } from '../../../../src/core/tenancy/tenant-id.ts';

const ID = 'abc123';

function byTenant<T extends KubeObject>(objects: () => T[]) {
  return { byIndex: (_name: string, id: string) => objects().filter((o) => o.metadata.labels?.[TENANT_LABEL] === id) };
}

function world() {
  const policies: PropagationPolicy[] = [];
  const clusterPolicies: PropagationPolicy[] = [];
  const crds: KubeObject[] = [];
  const log: string[] = [];
  const informers = {
    policies: byTenant(() => policies),
    clusterPolicies: byTenant(() => clusterPolicies),
    crds: byTenant(() => crds),
    watchTemplates: (r: { group: string; resource: string }, t: string) => log.push(`watch ${t} ${r.group}/${r.resource}`),
    unwatchTemplates: (r: { group: string; resource: string }, t: string) => log.push(`unwatch ${t} ${r.group}/${r.resource}`),
    resourceById: () => undefined,
  } as unknown as EngineInformers;
  // Upstream spelling, as the gateway stores them: the tenant's CRD group and namespaces carry its prefix.
  const policy = (kind: 'PropagationPolicy' | 'ClusterPropagationPolicy', name: string, selectors: ResourceSelector[]): PropagationPolicy => ({
    apiVersion: 'policy.karmada.io/v1alpha1', kind,
    metadata: { name: kind === 'PropagationPolicy' ? name : `${ID}-${name}`, ...(kind === 'PropagationPolicy' ? { namespace: `${ID}-default` } : {}), labels: { [TENANT_LABEL]: ID } },
    spec: { resourceSelectors: selectors },
  });
  return { policies, clusterPolicies, crds, log, kinds: createOnDemandKinds(informers), policy };
}

const clusterRole: ResourceSelector = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' };

describe('on-demand kinds', () => {
  it('a tenant whose policies name only namespaced built-ins watches nothing on demand', () => {
    const w = world();
    w.policies.push(w.policy('PropagationPolicy', 'p', [{ apiVersion: 'apps/v1', kind: 'Deployment' }]));
    w.clusterPolicies.push(w.policy('ClusterPropagationPolicy', 'c', [{ apiVersion: 'v1', kind: 'ConfigMap' }]));
    w.kinds.refresh(ID);
    assert.deepEqual(w.log, []);
  });

  it('a ClusterPropagationPolicy naming ClusterRole starts that tenant\'s ClusterRole informer; a PropagationPolicy does not', () => {
    const w = world();
    w.policies.push(w.policy('PropagationPolicy', 'p', [clusterRole]));
    w.kinds.refresh(ID);
    assert.deepEqual(w.log, []);
    w.clusterPolicies.push(w.policy('ClusterPropagationPolicy', 'c', [clusterRole]));
    w.kinds.refresh(ID);
    w.kinds.refresh(ID); // idempotent
    assert.deepEqual(w.log, [`watch ${ID} rbac.authorization.k8s.io/clusterroles`]);
  });

  it('a custom kind is watched once its CRD exists, and let go when no policy names it', () => {
    const w = world();
    w.policies.push(w.policy('PropagationPolicy', 'p', [{ apiVersion: `${ID}-example.com/v1`, kind: 'Widget' }]));
    w.kinds.refresh(ID);
    assert.deepEqual(w.log, [], 'no CRD yet');
    w.crds.push({ metadata: { name: `widgets.${ID}-example.com`, labels: { [TENANT_LABEL]: ID } }, spec: { group: `${ID}-example.com`, scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true }] } });
    w.kinds.refresh(ID);
    assert.deepEqual(w.log, [`watch ${ID} ${ID}-example.com/widgets`]);
    assert.equal(w.kinds.watched(ID)[0]?.custom, true);
    w.policies.length = 0;
    w.kinds.refresh(ID);
    assert.deepEqual(w.log.slice(1), [`unwatch ${ID} ${ID}-example.com/widgets`]);
    assert.deepEqual(w.kinds.watched(ID), []);
  });

  it('another tenant\'s policies start nothing for this one', () => {
    const w = world();
    const foreign = w.policy('ClusterPropagationPolicy', 'c', [clusterRole]);
    foreign.metadata.labels = { [TENANT_LABEL]: 'xyz789' };
    w.clusterPolicies.push(foreign);
    w.kinds.refresh(ID);
    assert.deepEqual(w.log, []);
  });
});
