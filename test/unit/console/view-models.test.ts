// The console's pure view models: tenant rows (usage bars), member rows
// (health, places, tenants), the placement map (who owns a binding, replicas
// per cell, names in tenant terms), the detail page, the form's spec, the
// table query and the event-stream framing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Tenant } from '../../../src/tenants/tenant-crd.ts';
import type { Cluster, ResourceBinding } from '../../../src/core/propagation/karmada-types.ts';
import { tenantRow, usageBar } from '../../../src/console/view/tenant-rows.ts';
import { memberRow } from '../../../src/console/view/member-rows.ts';
import { bindingTenant, placementMap } from '../../../src/console/view/placement-map.ts';
import { buildConsoleState } from '../../../src/console/view/console-state.ts';
import { tenantDetail, tenantNamespaces } from '../../../src/console/view/tenant-detail.ts';
import { specFrom } from '../../../src/console/view/tenant-spec-input.ts';
import { age, matchesFilter, queryRows, toggleSort } from '../../../src/console/view/table-query.ts';
import { formatEvent, parseEvents } from '../../../src/console/view/event-stream.ts';

const tenant = (name: string, id: string, extra: Partial<Tenant> = {}): Tenant => ({
  apiVersion: 'tenancy.warren.dev/v1alpha1', kind: 'Tenant',
  metadata: { name, creationTimestamp: '2026-11-26T10:00:00Z' },
  spec: { users: [{ name: 'alice', admin: true }, { name: 'bob' }], quota: { namespaces: 10, cpu: '4', memory: '8Gi' } },
  status: { id, phase: 'Ready', clusters: ['member2', 'member1'], usage: { namespaces: 5, cpu: '6', memory: '2Gi' } },
  ...extra,
});
const cluster = (name: string, ready: 'True' | 'False' | undefined, extra: Partial<Cluster> = {}): Cluster => ({
  metadata: { name, labels: { 'topology.kubernetes.io/zone': 'z1' } },
  spec: { region: 'eu', provider: 'embedded', taints: [{ key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule' }] },
  status: {
    kubernetesVersion: 'v1.33.0',
    ...(ready ? { conditions: [{ type: 'Ready', status: ready, reason: ready === 'True' ? 'ClusterReady' : 'ClusterNotReachable' }] } : {}),
    resourceSummary: { allocatable: { cpu: '8', memory: '16Gi' }, allocated: { cpu: '2' } },
  },
  ...extra,
});
const binding = (ns: string, name: string, clusters: { name: string; replicas?: number }[], ready: Record<string, number> = {}): ResourceBinding => ({
  metadata: { namespace: ns, name: `${name}-deployment` },
  spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: ns, name }, replicas: clusters.reduce((n, c) => n + (c.replicas ?? 0), 0), clusters },
  status: {
    conditions: [{ type: 'Scheduled', status: 'True', reason: 'Success' }, { type: 'FullyApplied', status: 'True', reason: 'FullyAppliedSuccess' }],
    aggregatedStatus: clusters.map((c) => ({ clusterName: c.name, applied: true, health: 'Healthy' as const, status: { readyReplicas: ready[c.name] ?? 0 } })),
  },
} as ResourceBinding);

describe('tenant rows', () => {
  it('shows usage against quota as bars, over-quota clamped and flagged', () => {
    const row = tenantRow(tenant('acme', 'abc123'), 3);
    assert.deepEqual(row.usage, [
      { resource: 'namespaces', used: '5', limit: '10', fraction: 0.5, over: false },
      { resource: 'cpu', used: '6', limit: '4', fraction: 1, over: true },
      { resource: 'memory', used: '2Gi', limit: '8Gi', fraction: 0.25, over: false },
    ]);
    assert.deepEqual([row.id, row.phase, row.admins, row.users, row.members, row.replicas], ['abc123', 'Ready', ['alice'], ['alice', 'bob'], ['member1', 'member2'], 3]);
  });
  it('has no bar for an unlimited resource, and treats a missing usage as 0', () => {
    assert.equal(usageBar('storage', '1Gi', undefined), undefined);
    assert.deepEqual(usageBar('cpu', undefined, '500m'), { resource: 'cpu', used: '0', limit: '500m', fraction: 0, over: false });
  });
  it('says Terminating once a deletion started, Pending before any status', () => {
    assert.equal(tenantRow(tenant('a', 'abc123', { metadata: { name: 'a', deletionTimestamp: '2026-11-26T10:00:00Z' } })).phase, 'Terminating');
    assert.equal(tenantRow({ metadata: { name: 'b' } }).phase, 'Pending');
  });
  it('never carries the kubeconfig Secret reference or credentials settings', () => {
    const t = tenant('acme', 'abc123');
    t.status!.kubeconfigSecretRef = { namespace: 'warren-system', name: 'acme-kubeconfig' };
    assert.doesNotMatch(JSON.stringify(tenantRow(t)), /kubeconfig|warren-system/);
  });
});

describe('member rows', () => {
  it('health follows the Ready condition; places from spec or topology labels; tenants that may use it', () => {
    const tenants = [tenant('acme', 'abc123'), tenant('globex', 'def456', { status: { id: 'def456', clusters: ['member2'] } })];
    const m1 = memberRow(cluster('member1', 'True'), tenants);
    assert.deepEqual([m1.health, m1.region, m1.zone, m1.provider, m1.version, m1.tenants], ['Ready', 'eu', 'z1', 'embedded', 'v1.33.0', ['acme']]);
    assert.deepEqual(m1.taints, ['cluster.karmada.io/not-ready:NoSchedule']);
    assert.deepEqual(m1.resources, [{ resource: 'cpu', allocatable: '8', allocated: '2', fraction: 0.25 }, { resource: 'memory', allocatable: '16Gi', allocated: '0', fraction: 0 }]);
    assert.equal(memberRow(cluster('member2', 'False'), tenants).health, 'NotReady');
    assert.deepEqual(memberRow(cluster('member2', 'False'), tenants).tenants, ['acme', 'globex']);
    assert.equal(memberRow(cluster('member3', undefined), tenants).health, 'Unknown');
  });
});

describe('placement map', () => {
  const tenants = [tenant('acme', 'abc123'), tenant('globex', 'def456')];
  const clusters = [cluster('member2', 'False'), cluster('member1', 'True')];
  it('sums each tenant\'s replicas per member, names in the tenant\'s terms', () => {
    const map = placementMap(tenants, clusters, [
      binding('abc123-default', 'web', [{ name: 'member1', replicas: 2 }, { name: 'member2', replicas: 2 }], { member1: 2 }),
      binding('abc123-shop', 'api', [{ name: 'member1', replicas: 3 }]),
      binding('def456-default', 'web', [{ name: 'member2', replicas: 1 }]),
    ]);
    assert.deepEqual(map.members, ['member1', 'member2']);
    assert.deepEqual(map.cells.map((c) => [c.tenant, c.member, c.replicas, c.ready]), [['acme', 'member1', 5, 2], ['acme', 'member2', 2, 0], ['globex', 'member2', 1, 0]]);
    assert.deepEqual(map.cells[0]!.workloads.map((w) => `${w.namespace}/${w.name}`), ['default/web', 'shop/api']);
    assert.deepEqual(map.health, { member1: 'Ready', member2: 'NotReady' });
  });
  it('leaves out a binding that belongs to no known tenant, whatever its name looks like', () => {
    const map = placementMap(tenants, clusters, [binding('zzz999-default', 'web', [{ name: 'member1', replicas: 2 }]), binding('kube-system', 'x', [{ name: 'member1', replicas: 1 }])]);
    assert.deepEqual(map.cells, []);
  });
  it('a binding is attributed to the tenant whose prefix it carries, and only that one (property)', () => {
    const id = fc.stringMatching(/^[a-z][a-z0-9]{5}$/);
    fc.assert(fc.property(id, id, fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?$/), (a, b, ns) => {
      const ids = new Set([a, b]);
      const owner = bindingTenant(binding(`${a}-${ns}`, 'w', []), ids);
      assert.equal(owner, a);
      assert.equal(bindingTenant(binding(`${a}-${ns}`, 'w', []), new Set([b].filter((x) => x !== a))), undefined);
    }));
  });
  it('state: replicas per tenant land on the tenant rows', () => {
    const state = buildConsoleState({ tenants, clusters, bindings: [binding('abc123-default', 'web', [{ name: 'member1', replicas: 4 }])], revision: '7' });
    assert.deepEqual(state.tenants.map((t) => [t.name, t.replicas]), [['acme', 4], ['globex', 0]]);
    assert.equal(state.revision, '7');
  });
});

describe('tenant detail', () => {
  it('namespaces in the tenant\'s terms, execution spaces and other tenants\' left out', () => {
    const ns = (name: string, labels: Record<string, string> = {}) => ({ metadata: { name, labels }, status: { phase: 'Active' } });
    assert.deepEqual(tenantNamespaces('abc123', [ns('abc123-default'), ns('abc123-karmada-es-member1', { 'propagation.warren.dev/execution-space': 'member1' }), ns('def456-default'), ns('abc123-shop')]),
      [{ name: 'default', phase: 'Active' }, { name: 'shop', phase: 'Active' }]);
  });
  it('bindings with placement and conditions; events newest first', () => {
    const d = tenantDetail({
      tenant: tenant('acme', 'abc123'), namespaces: [], replicas: 4,
      bindings: [binding('abc123-default', 'web', [{ name: 'member1', replicas: 4 }]), binding('def456-default', 'other', [{ name: 'member1', replicas: 1 }])],
      events: [
        { metadata: { name: 'e1' }, type: 'Normal', reason: 'Old', message: 'a', lastTimestamp: '2026-11-26T10:00:00Z' },
        { metadata: { name: 'e2' }, type: 'Warning', reason: 'New', message: 'b', lastTimestamp: '2026-11-26T11:00:00Z', count: 3 },
      ],
    });
    assert.deepEqual(d.bindings.map((b) => [b.kind, b.namespace, b.name, b.placement, b.scheduled, b.applied, b.health]),
      [['Deployment', 'default', 'web', [{ member: 'member1', replicas: 4 }], 'True (Success)', 'True (FullyAppliedSuccess)', 'Healthy']]);
    assert.deepEqual(d.events.map((e) => [e.reason, e.count]), [['New', 3], ['Old', 1]]);
  });
  it('events say what they are about, in the tenant\'s namespace and terms', () => {
    const d = tenantDetail({
      tenant: tenant('acme', 'abc123'), namespaces: [], replicas: 0, bindings: [],
      events: [
        { metadata: { name: 'e1' }, reason: 'Ready', message: 'onboarded', involvedObject: { kind: 'Tenant', name: 'acme' }, lastTimestamp: '2026-11-26T10:00:00Z' },
        { metadata: { name: 'e2' }, reason: 'ScalingReplicaSet', message: 'up to 4', involvedObject: { kind: 'Deployment', name: 'web', namespace: 'abc123-shop' }, lastTimestamp: '2026-11-26T11:00:00Z' },
        { metadata: { name: 'e3' }, reason: 'Odd', message: 'x', involvedObject: { kind: 'Pod', name: 'p', namespace: 'def456-shop' }, lastTimestamp: '2026-11-26T09:00:00Z' },
      ] as never,
    });
    assert.deepEqual(d.events.map((e) => [e.reason, e.object, e.namespace]),
      [['ScalingReplicaSet', 'Deployment/web', 'shop'], ['Ready', 'Tenant/acme', ''], ['Odd', 'Pod/p', '']], 'another tenant\'s namespace is never named');
  });
});

describe('the new-tenant form', () => {
  it('one admin, the ticked members, only the quotas filled in', () => {
    assert.deepEqual(specFrom({ displayName: ' Initech ', admin: 'peter', members: ['member1'], namespaces: '5', cpu: '', memory: '8Gi' }),
      { displayName: 'Initech', users: [{ name: 'peter', admin: true }], quota: { namespaces: 5, memory: '8Gi' }, clusters: { names: ['member1'] } });
    assert.deepEqual(specFrom({ displayName: '', admin: '', members: [], namespaces: '', cpu: '', memory: '' }), { users: [{ name: 'admin', admin: true }] });
  });
});

describe('table query', () => {
  const rows = [{ name: 'b', n: 10, tags: ['x'] }, { name: 'a', n: 2, tags: ['y', 'z'] }, { name: 'c', n: 2, tags: [] }];
  it('filters on every shown text, all words, case-insensitively', () => {
    assert.deepEqual(queryRows(rows, { filter: 'Z', sortBy: 'name', direction: 'ascending' }).map((r) => r.name), ['a']);
    assert.equal(matchesFilter(rows[0]!, 'b x'), true);
    assert.equal(matchesFilter(rows[0]!, 'b y'), false);
  });
  it('sorts numbers as numbers, stable on ties; a second click flips', () => {
    const q = { filter: '', sortBy: 'n' as const, direction: 'ascending' as const };
    assert.deepEqual(queryRows(rows, q).map((r) => r.name), ['a', 'c', 'b']);
    assert.deepEqual(queryRows(rows, toggleSort(q, 'n')).map((r) => r.name), ['b', 'a', 'c']);
    assert.deepEqual(toggleSort(q, 'name'), { filter: '', sortBy: 'name', direction: 'ascending' });
  });
  it('ages as kubectl prints them', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    assert.deepEqual(['2026-11-26T11:59:20Z', '2026-11-26T11:00:00Z', '2026-11-26T02:00:00Z', '2026-11-20T12:00:00Z', 'nonsense'].map((t) => age(t, now)), ['40s', '60m', '10h', '6d', '']);
  });
});

describe('event stream', () => {
  it('what the server formats, the browser parses back, however the bytes are split (property)', () => {
    fc.assert(fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 5 }), fc.nat(), (values, cut) => {
      const text = values.map((v) => formatEvent('state', v)).join(': keep-alive\n\n');
      const at = cut % (text.length + 1);
      const first = parseEvents(text.slice(0, at));
      const second = parseEvents(first.rest + text.slice(at));
      const events = [...first.events, ...second.events];
      assert.equal(second.rest, '');
      assert.deepEqual(events.map((e) => [e.event, JSON.parse(e.data)]), values.map((v) => ['state', JSON.parse(JSON.stringify(v))]));
    }));
  });
});
