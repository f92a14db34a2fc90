// Property (session 14, f1): Events about cluster-scoped objects on a real host. kube 1.20 takes an Event whose
// reference has no namespace only in "default" (or "kube-system" with eventTime), else the reference must name
// the Event's own namespace; a tenant's "default" is `<id>-default` upstream. Whatever a tenant (or the engine,
// writing upstream) puts in an Event, the upstream Event passes kube's rule exactly when the tenant's Event
// would pass it on a cluster of its own, and the tenant reads back what it wrote. Both event APIs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { toTenantObject, toUpstreamObject } from '../../../../src/core/tenancy/object-translation.ts';
import { validateEvent } from '../../../../src/apiserver/validation/lease-event.ts';
import { prefixOwner } from '../../../../src/core/tenancy/tenant-id.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import { dnsLabelArb, tenantIdArb } from './name-arbitraries.ts';

const labelArb = dnsLabelArb.filter((l) => prefixOwner(l) === undefined);
const CLUSTER_SCOPED = [
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' }, { apiVersion: 'work.karmada.io/v1alpha2', kind: 'ClusterResourceBinding' },
  { apiVersion: 'v1', kind: 'Namespace' }, { apiVersion: 'v1', kind: 'Node' },
];
const NAMESPACED = [{ apiVersion: 'v1', kind: 'Pod' }, { apiVersion: 'apps/v1', kind: 'Deployment' }];

const caseArb = fc.record({
  id: tenantIdArb,
  api: fc.constantFrom('core' as const, 'events' as const),
  namespace: fc.oneof(fc.constantFrom('default', 'kube-system'), labelArb),
  timed: fc.boolean(),
  ref: fc.oneof(
    fc.record({ type: fc.constantFrom(...CLUSTER_SCOPED), name: labelArb, namespace: fc.constant(undefined) }),
    fc.record({ type: fc.constantFrom(...NAMESPACED), name: labelArb, namespace: fc.oneof(fc.constantFrom('default', 'kube-system'), labelArb) }),
  ),
});
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

function tenantEvent(c: Case): KubeObject {
  const ref = { ...c.ref.type, name: c.ref.name, ...(c.ref.namespace ? { namespace: c.ref.namespace } : {}) };
  const time = c.timed ? { eventTime: '2026-11-27T12:00:00.000000Z', reportingComponent: 'my-controller', reportingInstance: 'my-controller-0', action: 'Sync' } : {};
  const base = { metadata: { name: 'e.1', namespace: c.namespace }, reason: 'Synced', type: 'Normal', ...time };
  return c.api === 'core'
    ? { apiVersion: 'v1', kind: 'Event', ...base, involvedObject: ref, message: 'm' } as KubeObject
    : { apiVersion: 'events.k8s.io/v1', kind: 'Event', ...base, regarding: ref, note: 'm' } as KubeObject;
}

/** kube's rule reads the reference as core's involvedObject, whichever API wrote it. */
const kubeRule = (e: KubeObject): string[] => {
  const obj = e as KubeObject & { regarding?: unknown; involvedObject?: unknown };
  return validateEvent({ ...obj, involvedObject: obj.involvedObject ?? obj.regarding } as Record<string, unknown>)
    .filter((cause) => cause.field === 'involvedObject.namespace').map((cause) => cause.message ?? '');
};

describe('events about cluster-scoped objects, upstream (property)', () => {
  it('the host refuses exactly what kube would refuse in tenant terms, and the tenant reads back what it wrote', () => {
    fc.assert(fc.property(caseArb, (c) => {
      const ctx = { id: c.id, isTenantId: (id: string) => id === c.id };
      const written = tenantEvent(c);
      const upstream = toUpstreamObject(ctx, structuredClone(written));
      const tenantOk = kubeRule(written).length === 0;
      assert.equal(kubeRule(upstream).length === 0, tenantOk, JSON.stringify(upstream));
      if (!tenantOk) return;
      assert.deepEqual(toTenantObject(ctx, structuredClone(upstream)), written);
    }), { numRuns: 500 });
  });

  it('an Event the engine writes about a ClusterResourceBinding in <id>-default reads as kube shows one: in default, no namespace', () => {
    const upstream = {
      apiVersion: 'v1', kind: 'Event', metadata: { name: 'abcdef-r.1', namespace: 'abcdef-default' }, reason: 'ScheduleBindingSucceed', type: 'Normal', message: 'm',
      involvedObject: { apiVersion: 'work.karmada.io/v1alpha2', kind: 'ClusterResourceBinding', name: 'abcdef-r', namespace: 'abcdef-default' },
    } as KubeObject;
    assert.deepEqual(validateEvent(upstream as unknown as Record<string, unknown>), []);
    const seen = toTenantObject({ id: 'abcdef', isTenantId: (id) => id === 'abcdef' }, upstream) as KubeObject & { involvedObject: unknown };
    assert.equal(seen.metadata.namespace, 'default');
    assert.deepEqual(seen.involvedObject, { apiVersion: 'work.karmada.io/v1alpha2', kind: 'ClusterResourceBinding', name: 'r' });
  });
});
