import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { alignedLines } from '../../../src/cli/object-printer.ts';
import { buildStatusReport, formatStatusText } from '../../../src/cli/status-report.ts';
import type { Tenant } from '../../../src/tenants/tenant-crd.ts';
import type { Cluster, ResourceBinding } from '../../../src/core/propagation/karmada-types.ts';

const acme: Tenant = {
  metadata: { name: 'acme', generation: 1 },
  spec: { quota: { namespaces: 20, cpu: '16', objectsPerResource: 1000 } },
  status: { id: 'abcdef', phase: 'Ready', usage: { namespaces: 6, objects: { pods: 3, configmaps: 12 } }, clusters: ['member1', 'member2'], conditions: [{ type: 'Ready', status: 'True', reason: 'Ready' }] },
};
const globex: Tenant = {
  metadata: { name: 'globex' },
  spec: {},
  status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False', reason: 'IdConflict', message: 'id is held by tenant acme' }] },
};
const member = (name: string, ready: 'True' | 'False', taints: Cluster['spec']['taints'] = []): Cluster => ({
  metadata: { name },
  spec: { taints },
  status: { kubernetesVersion: 'v1.33.0', conditions: [{ type: 'Ready', status: ready }], nodeSummary: { totalNum: 3, readyNum: ready === 'True' ? 3 : 0 } },
});
const binding = (id: string | undefined, namespace: string, name: string, clusters: ResourceBinding['spec']['clusters'], replicas?: number): ResourceBinding => ({
  metadata: { name, namespace, ...(id ? { labels: { 'tenancy.warren.dev/tenant': id } } : {}) },
  spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', name: name.replace(/-deployment$/, ''), namespace }, ...(replicas !== undefined ? { replicas } : {}), ...(clusters ? { clusters } : {}) },
  status: { conditions: [{ type: 'Scheduled', status: 'True' }, { type: 'FullyApplied', status: 'False' }] },
});

test('buildStatusReport: tenants with usage against quota, clusters, and why a tenant is not Ready', () => {
  const report = buildStatusReport({ tenants: [globex, acme], clusters: [], bindings: [] });
  assert.deepEqual(report.tenants.map((t) => t.name), ['acme', 'globex'], 'sorted by name');
  assert.deepEqual(report.tenants[0], {
    name: 'acme', id: 'abcdef', phase: 'Ready', clusters: ['member1', 'member2'], message: '',
    usage: { namespaces: { used: 6, limit: 20 }, cpu: { used: null, limit: '16' }, objects: { used: 12, limit: 1000 } },
  });
  assert.equal(report.tenants[1]?.message, 'IdConflict: id is held by tenant acme');
  assert.equal(report.tenants[1]?.id, null);
  assert.deepEqual(report.tenants[1]?.usage, {}, 'no quota and no usage: nothing to show');
});

test('buildStatusReport: members with health and taints', () => {
  const report = buildStatusReport({ tenants: [], clusters: [member('member2', 'False', [{ key: 'cluster.karmada.io/not-ready', effect: 'NoExecute' }, { key: 'gpu', value: 'true', effect: 'NoSchedule' }]), member('member1', 'True')], bindings: [] });
  assert.deepEqual(report.members, [
    { name: 'member1', version: 'v1.33.0', ready: 'True', nodes: '3/3', taints: [] },
    { name: 'member2', version: 'v1.33.0', ready: 'False', nodes: '0/3', taints: ['cluster.karmada.io/not-ready:NoExecute', 'gpu=true:NoSchedule'] },
  ]);
  assert.equal(buildStatusReport({ tenants: [], clusters: [{ metadata: { name: 'new' }, spec: {} }], bindings: [] }).members[0]?.ready, 'Unknown');
});

test('buildStatusReport: bindings in tenant terms, by tenant name; foreign bindings left out', () => {
  const report = buildStatusReport({
    tenants: [acme],
    clusters: [],
    bindings: [
      binding('abcdef', 'abcdef-web', 'nginx-deployment', [{ name: 'member1', replicas: 1 }, { name: 'member2', replicas: 1 }], 2),
      binding('abcdef', 'abcdef-default', 'cfg-configmap', [{ name: 'member1' }]),
      binding('zzzzzz', 'zzzzzz-default', 'orphan-deployment', []),
      binding(undefined, 'karmada-system', 'platform-deployment', [{ name: 'member1' }]),
    ],
  });
  assert.deepEqual(report.bindings.map((b) => [b.tenant, b.namespace, b.name]), [
    ['(id zzzzzz)', 'default', 'orphan-deployment'],
    ['acme', 'default', 'cfg-configmap'],
    ['acme', 'web', 'nginx-deployment'],
  ]);
  const nginx = report.bindings[2];
  assert.deepEqual(nginx?.clusters, [{ name: 'member1', replicas: 1 }, { name: 'member2', replicas: 1 }]);
  assert.equal(nginx?.replicas, 2);
  assert.equal(nginx?.resource, 'Deployment/nginx');
  assert.equal(nginx?.scheduled, 'True');
  assert.equal(nginx?.fullyApplied, 'False');
});

test('formatStatusText: the three sections, aligned, with replicas per cluster', () => {
  const text = formatStatusText(buildStatusReport({
    tenants: [acme, globex],
    clusters: [member('member1', 'True')],
    bindings: [binding('abcdef', 'abcdef-web', 'nginx-deployment', [{ name: 'member1', replicas: 1 }, { name: 'member2', replicas: 1 }], 2), binding('abcdef', 'abcdef-web', 'cfg-deployment', [])],
  }));
  assert.equal(text, [
    'TENANTS',
    'NAME     ID       PHASE     NAMESPACES   CPU    OBJECTS   CLUSTERS          MESSAGE',
    'acme     abcdef   Ready     6/20         -/16   12/1000   member1,member2',
    'globex   -        Pending   -            -      -         <none>            IdConflict: id is held by tenant acme',
    '',
    'MEMBERS',
    'NAME      VERSION   READY   NODES   TAINTS',
    'member1   v1.33.0   True    3/3     <none>',
    '',
    "BINDINGS (where each tenant's replicas run)",
    'TENANT   NAMESPACE   NAME               RESOURCE           REPLICAS   CLUSTERS              SCHEDULED   FULLYAPPLIED',
    'acme     web         cfg-deployment     Deployment/cfg     -          <none>                True        False',
    'acme     web         nginx-deployment   Deployment/nginx   2          member1:1,member2:1   True        False',
    '',
  ].join('\n'));
});

test('formatStatusText: empty sections say what to do next', () => {
  const text = formatStatusText({ tenants: [], members: [], bindings: [] });
  assert.match(text, /No tenants: apply one with `warren apply -f tenants\/`/);
  assert.match(text, /No member clusters: register one with `warren member add`/);
  assert.match(text, /No ResourceBindings/);
  assert.doesNotMatch(formatStatusText(buildStatusReport({ tenants: [acme], clusters: [], bindings: [] })), /MESSAGE/, 'no MESSAGE column when every tenant is Ready');
});

test('alignedLines: every column starts at the same offset on every row (property)', () => {
  const word = fc.stringMatching(/^[a-z0-9:/,-]{1,12}$/);
  fc.assert(fc.property(fc.integer({ min: 2, max: 6 }).chain((n) => fc.array(fc.array(word, { minLength: n, maxLength: n }), { minLength: 1, maxLength: 6 })), (rows) => {
    const lines = alignedLines(rows);
    for (let col = 1; col < rows[0]!.length; col++) {
      const offsets = rows.map((r, i) => {
        let at = 0;
        for (let c = 0; c < col; c++) at = lines[i]!.indexOf(r[c + 1]!, at + r[c]!.length);
        return at;
      });
      assert.equal(new Set(offsets).size, 1, JSON.stringify({ rows, lines }));
    }
    rows.forEach((r, i) => assert.deepEqual(lines[i]!.split(/\s{3,}/), r));
  }));
});

test('buildStatusReport and formatStatusText: a ClusterResourceBinding shows in tenant terms, with no namespace', () => {
  const crb: ResourceBinding = {
    metadata: { name: 'abcdef-reader-clusterrole', labels: { 'tenancy.warren.dev/tenant': 'abcdef' } },
    spec: { resource: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'abcdef-reader' }, clusters: [{ name: 'member2' }] },
    status: { conditions: [{ type: 'Scheduled', status: 'True' }, { type: 'FullyApplied', status: 'True' }] },
  };
  const report = buildStatusReport({ tenants: [acme], clusters: [], bindings: [crb] });
  assert.deepEqual(report.bindings.map((b) => [b.tenant, b.namespace, b.name]), [['acme', '', 'reader-clusterrole']]);
  assert.equal(report.bindings[0]?.resource, 'ClusterRole/reader');
  assert.match(formatStatusText(report), /\nacme +- +reader-clusterrole +ClusterRole\/reader +- +member2 +True +True\n/);
});
