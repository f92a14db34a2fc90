// The incremental console state (src/console/view/console-model.ts): folding
// watch events one by one gives what rebuilding from the final stores gives
// (buildConsoleState), whatever the order, the id collisions, the bindings of
// unknown tenants or duplicated targets; and each flush's delta, applied to the
// state before it, gives the state after it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Tenant } from '../../../src/tenants/tenant-crd.ts';
import type { Cluster, ResourceBinding } from '../../../src/core/propagation/karmada-types.ts';
import { createConsoleModel, type ConsoleEvent } from '../../../src/console/view/console-model.ts';
import { buildConsoleState } from '../../../src/console/view/console-state.ts';
import { applyDelta } from '../../../src/console/view/state-delta.ts';
import type { ConsoleState } from '../../../src/console/view/console-types.ts';

const TENANTS = ['acme', 'globex', 'initech'];
// Two tenants may claim one id (then neither owns its bindings); zzz999 is nobody's.
const IDS = ['abc123', 'def456', 'ghi789'];
const MEMBERS = ['member1', 'member2', 'member3'];
const SCOPES = ['abc123-default', 'def456-web', 'ghi789-x', 'zzz999-default', 'kube-system', 'abc123'];

const tenantArb = (name: string): fc.Arbitrary<Tenant> => fc.record({
  id: fc.option(fc.constantFrom(...IDS), { nil: undefined }),
  phase: fc.constantFrom('Ready', 'Pending'),
  clusters: fc.array(fc.constantFrom(...MEMBERS), { maxLength: 4 }),
  cpu: fc.constantFrom('1', '2', '500m'),
}).map((r) => ({
  apiVersion: 'tenancy.warren.dev/v1alpha1', kind: 'Tenant',
  metadata: { name, creationTimestamp: '2026-11-26T10:00:00Z' },
  spec: { users: [{ name: 'alice', admin: true }], quota: { cpu: '2' } },
  status: { ...(r.id ? { id: r.id } : {}), phase: r.phase, clusters: r.clusters, usage: { cpu: r.cpu } },
}) as Tenant);

const clusterArb = (name: string): fc.Arbitrary<Cluster> => fc.constantFrom('True', 'False', undefined).map((ready) => ({
  metadata: { name },
  spec: {},
  status: { kubernetesVersion: 'v1.33.0', ...(ready ? { conditions: [{ type: 'Ready', status: ready }] } : {}) },
}) as Cluster);

const bindingArb = (scope: string, clusterScoped: boolean, name: string): fc.Arbitrary<ResourceBinding> => fc.array(
  fc.record({ name: fc.constantFrom(...MEMBERS), replicas: fc.nat(5), ready: fc.nat(5), applied: fc.boolean() }), { maxLength: 4 },
).map((targets) => ({
  metadata: clusterScoped ? { name: `${scope}-${name}` } : { namespace: scope, name: `${name}-deployment` },
  spec: {
    resource: clusterScoped ? { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: `${scope}-${name}` } : { apiVersion: 'apps/v1', kind: 'Deployment', namespace: scope, name },
    clusters: targets.map((t) => ({ name: t.name, replicas: t.replicas })),
  },
  status: { aggregatedStatus: targets.map((t) => ({ clusterName: t.name, applied: t.applied, health: 'Healthy', status: { readyReplicas: t.ready } })) },
}) as ResourceBinding);

/** An event and whether to flush after it. */
const eventArb: fc.Arbitrary<{ event: ConsoleEvent; flush: boolean }> = fc.record({
  flush: fc.boolean(),
  event: fc.oneof(
    fc.constantFrom(...TENANTS).chain((key) => fc.option(tenantArb(key), { nil: undefined, freq: 4 }).map((object): ConsoleEvent => ({ kind: 'tenant', key, object }))),
    fc.constantFrom(...MEMBERS).chain((key) => fc.option(clusterArb(key), { nil: undefined, freq: 4 }).map((object): ConsoleEvent => ({ kind: 'cluster', key, object }))),
    fc.tuple(fc.constantFrom(...SCOPES), fc.boolean(), fc.constantFrom('web', 'api')).chain(([scope, clusterScoped, name]) => {
      const key = clusterScoped ? `crb/${scope}-${name}` : `rb/${scope}/${name}`;
      return fc.option(bindingArb(scope, clusterScoped, name), { nil: undefined, freq: 4 }).map((object): ConsoleEvent => ({ kind: 'binding', key, object }));
    }),
  ),
});

const withoutRevision = (s: ConsoleState): Omit<ConsoleState, 'revision'> => ({ tenants: s.tenants, members: s.members, placement: s.placement });

describe('incremental console state', () => {
  it('folding events equals rebuilding from the final stores, and every delta applies exactly (property)', () => {
    fc.assert(fc.property(fc.array(eventArb, { maxLength: 60 }), (steps) => {
      const model = createConsoleModel();
      const stores = { tenant: new Map<string, Tenant>(), cluster: new Map<string, Cluster>(), binding: new Map<string, ResourceBinding>() };
      let shown = model.state();
      const check = (): void => {
        const delta = model.flush();
        const now = model.state();
        assert.deepEqual(withoutRevision(delta ? applyDelta(shown, delta) : shown), withoutRevision(now));
        assert.deepEqual(withoutRevision(now), withoutRevision(buildConsoleState({
          tenants: [...stores.tenant.values()], clusters: [...stores.cluster.values()], bindings: [...stores.binding.values()], revision: '',
        })));
        shown = now;
      };
      for (const { event, flush } of steps) {
        const store = stores[event.kind] as Map<string, unknown>;
        if (event.object) store.set(event.key, event.object);
        else store.delete(event.key);
        model.apply(event);
        if (flush) check();
      }
      check();
    }), { numRuns: 400 });
  });

  it('a binding event touches only its own cells: the delta carries them and its tenant row, nothing else', () => {
    const model = createConsoleModel();
    const tenant = (name: string, id: string): Tenant => ({ metadata: { name }, status: { id, clusters: ['member1'] } } as Tenant);
    model.apply({ kind: 'tenant', key: 'acme', object: tenant('acme', 'abc123') });
    model.apply({ kind: 'tenant', key: 'globex', object: tenant('globex', 'def456') });
    model.apply({ kind: 'cluster', key: 'member1', object: { metadata: { name: 'member1' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } } as Cluster });
    model.flush();
    model.apply({
      kind: 'binding', key: 'rb/abc123-default/web',
      object: { metadata: { namespace: 'abc123-default', name: 'web-deployment' }, spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'abc123-default', name: 'web' }, clusters: [{ name: 'member1', replicas: 3 }] } } as ResourceBinding,
    });
    const delta = model.flush();
    assert.deepEqual(delta?.cells?.set.map((c) => [c.tenant, c.member, c.replicas, c.workloads.map((w) => `${w.namespace}/${w.name}`)]), [['acme', 'member1', 3, ['default/web']]]);
    assert.deepEqual(delta?.tenants?.set.map((t) => [t.name, t.replicas]), [['acme', 3]]);
    assert.equal(delta?.members, undefined);
    assert.equal(delta?.placementTenants, undefined);
    assert.equal(delta?.health, undefined);
    assert.equal(model.flush(), undefined, 'nothing more to send');
  });
});
