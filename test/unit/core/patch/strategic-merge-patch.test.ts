import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../../../src/core/api-error.ts';
import { applyStrategicMergePatch, supportsStrategicMerge } from '../../../../src/core/patch/strategic-merge-patch.ts';
import { applyMergePatch } from '../../../../src/core/patch/merge-patch.ts';
import { definitionNameFor } from '../../../../src/core/patch/type-resolver.ts';

const DEPLOYMENT = 'io.k8s.api.apps.v1.Deployment';
const POD = 'io.k8s.api.core.v1.Pod';
const SERVICE = 'io.k8s.api.core.v1.Service';

const deployment = () => ({
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'patch-demo', finalizers: ['a.io/x'] },
  spec: {
    replicas: 2,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    template: {
      metadata: { labels: { app: 'nginx' } },
      spec: {
        containers: [{ name: 'patch-demo-ctr', image: 'nginx', env: [{ name: 'A', value: '1' }], ports: [{ containerPort: 80 }] }],
        tolerations: [{ effect: 'NoSchedule', key: 'dedicated', value: 'test-team' }],
      },
    },
  },
});

const cases: Array<{ name: string; doc?: any; type?: string; patch: any; want: (d: any) => unknown; expected: unknown }> = [
  {
    // kubernetes.io "Update API Objects in Place Using kubectl patch": containers merge by name.
    name: 'containers merge by name: a new container is appended',
    patch: { spec: { template: { spec: { containers: [{ name: 'patch-demo-ctr-2', image: 'redis' }] } } } },
    want: (d) => d.spec.template.spec.containers.map((c: any) => c.name), expected: ['patch-demo-ctr', 'patch-demo-ctr-2'],
  },
  {
    name: 'tolerations have no strategy: the list is replaced',
    patch: { spec: { template: { spec: { tolerations: [{ effect: 'NoSchedule', key: 'disktype', value: 'ssd' }] } } } },
    want: (d) => d.spec.template.spec.tolerations, expected: [{ effect: 'NoSchedule', key: 'disktype', value: 'ssd' }],
  },
  {
    name: 'matching container merges in place; env merges by name',
    patch: { spec: { template: { spec: { containers: [{ name: 'patch-demo-ctr', image: 'nginx:2', env: [{ name: 'B', value: '2' }, { name: 'A', value: '9' }] }] } } } },
    want: (d) => d.spec.template.spec.containers, expected: [{ name: 'patch-demo-ctr', image: 'nginx:2', env: [{ name: 'A', value: '9' }, { name: 'B', value: '2' }], ports: [{ containerPort: 80 }] }],
  },
  {
    name: 'container ports merge by containerPort',
    patch: { spec: { template: { spec: { containers: [{ name: 'patch-demo-ctr', ports: [{ containerPort: 443 }] }] } } } },
    want: (d) => d.spec.template.spec.containers[0].ports, expected: [{ containerPort: 80 }, { containerPort: 443 }],
  },
  {
    name: '$patch: delete removes a list item by merge key',
    patch: { spec: { template: { spec: { containers: [{ name: 'patch-demo-ctr', $patch: 'delete' }] } } } },
    want: (d) => d.spec.template.spec.containers, expected: [],
  },
  {
    name: '$patch: replace in a list replaces the whole list',
    patch: { spec: { template: { spec: { containers: [{ name: 'only', image: 'busybox' }, { $patch: 'replace' }] } } } },
    want: (d) => d.spec.template.spec.containers, expected: [{ name: 'only', image: 'busybox' }],
  },
  {
    name: '$patch: replace in a map replaces the map',
    patch: { spec: { template: { metadata: { labels: { $patch: 'replace', tier: 'web' } } } } },
    want: (d) => d.spec.template.metadata.labels, expected: { tier: 'web' },
  },
  {
    // kube docs: "Notes on the strategic merge patch using retainKeys strategy".
    name: '$retainKeys on deployment strategy drops rollingUpdate',
    patch: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
    want: (d) => d.spec.strategy, expected: { type: 'Recreate' },
  },
  {
    name: 'finalizers are a merge list of primitives: union, no duplicates',
    patch: { metadata: { finalizers: ['b.io/y', 'a.io/x'] } },
    want: (d) => d.metadata.finalizers, expected: ['a.io/x', 'b.io/y'],
  },
  {
    name: 'an empty list on a merge list changes nothing (null clears it)',
    patch: { metadata: { finalizers: [] } },
    want: (d) => d.metadata.finalizers, expected: ['a.io/x'],
  },
  {
    name: '$deleteFromPrimitiveList/finalizers',
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['a.io/x'] } },
    want: (d) => d.metadata.finalizers, expected: [],
  },
  {
    name: '$setElementOrder/containers reorders the merged list',
    patch: { spec: { template: { spec: {
      '$setElementOrder/containers': [{ name: 'b' }, { name: 'patch-demo-ctr' }],
      containers: [{ name: 'b', image: 'b' }],
    } } } },
    want: (d) => d.spec.template.spec.containers.map((c: any) => c.name), expected: ['b', 'patch-demo-ctr'],
  },
  {
    name: 'null deletes a field',
    patch: { spec: { replicas: null, template: { metadata: { labels: { app: null } } } } },
    want: (d) => [d.spec.replicas, d.spec.template.metadata.labels], expected: [undefined, {}],
  },
  {
    name: 'service ports merge by port',
    type: SERVICE,
    doc: { metadata: { name: 's' }, spec: { ports: [{ port: 80, name: 'http' }] } },
    patch: { spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443, name: 'https' }] } },
    want: (d) => d.spec.ports, expected: [{ port: 80, name: 'http', targetPort: 8080 }, { port: 443, name: 'https' }],
  },
  {
    name: 'pod status conditions merge by type',
    type: POD,
    doc: { metadata: { name: 'p' }, status: { conditions: [{ type: 'Ready', status: 'False' }, { type: 'Initialized', status: 'True' }] } },
    patch: { status: { conditions: [{ type: 'Ready', status: 'True' }] } },
    want: (d) => d.status.conditions, expected: [{ type: 'Ready', status: 'True' }, { type: 'Initialized', status: 'True' }],
  },
  {
    name: 'ownerReferences merge by uid',
    type: POD,
    doc: { metadata: { name: 'p', ownerReferences: [{ uid: '1', name: 'a', kind: 'ReplicaSet', apiVersion: 'apps/v1' }] } },
    patch: { metadata: { ownerReferences: [{ uid: '2', name: 'b', kind: 'ReplicaSet', apiVersion: 'apps/v1' }] } },
    want: (d) => d.metadata.ownerReferences.map((o: any) => o.uid), expected: ['1', '2'],
  },
  {
    name: 'volumes merge,retainKeys: changing the volume source drops the old one',
    type: POD,
    doc: { metadata: { name: 'p' }, spec: { volumes: [{ name: 'v', emptyDir: {} }] } },
    patch: { spec: { volumes: [{ name: 'v', $retainKeys: ['name', 'configMap'], configMap: { name: 'cm' } }] } },
    want: (d) => d.spec.volumes, expected: [{ name: 'v', configMap: { name: 'cm' } }],
  },
];

describe('applyStrategicMergePatch', () => {
  for (const c of cases) {
    it(c.name, () => {
      const doc = c.doc ?? deployment();
      const before = structuredClone(doc);
      const out = applyStrategicMergePatch(doc, c.patch, c.type ?? DEPLOYMENT);
      assert.deepEqual(c.want(out), c.expected);
      assert.deepEqual(doc, before, 'input not mutated');
      assert.ok(!JSON.stringify(out).includes('$'), 'no directive left in the result');
    });
  }

  it('a list item without its merge key is a 400', () => {
    const patch = { spec: { template: { spec: { containers: [{ image: 'x' }] } } } };
    assert.throws(() => applyStrategicMergePatch(deployment(), patch, DEPLOYMENT),
      (e: unknown) => e instanceof ApiError && e.code === 400 && e.message === 'map: map[image:x] does not contain declared merge key: name');
  });

  it('custom resources are refused with kube\'s 415', () => {
    assert.equal(definitionNameFor('stable.example.com/v1', 'CronTab'), undefined);
    assert.equal(supportsStrategicMerge(undefined), false);
    assert.throws(() => applyStrategicMergePatch({ spec: {} }, { spec: { a: 1 } }, undefined),
      (e: unknown) => e instanceof ApiError && e.code === 415 && e.reason === 'UnsupportedMediaType'
        && e.message === 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml');
  });

  it('definitionNameFor maps built-in kinds', () => {
    assert.equal(definitionNameFor('apps/v1', 'Deployment'), DEPLOYMENT);
    assert.equal(definitionNameFor('v1', 'Pod'), POD);
    assert.equal(definitionNameFor('rbac.authorization.k8s.io/v1', 'ClusterRole'), 'io.k8s.api.rbac.v1.ClusterRole');
  });

  // Objects without lists or directives: strategic merge must agree with RFC 7386.
  const key = fc.string({ maxLength: 4 }).filter((k) => !k.startsWith('$'));
  const leaf = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
  const tree = fc.letrec((tie) => ({ node: fc.dictionary(key, fc.oneof({ depthSize: 'small' }, leaf, tie('node'))) })).node
    .map((d) => JSON.parse(JSON.stringify(d)) as Record<string, unknown>);
  it('property: without lists, strategic merge equals merge patch', () => {
    fc.assert(fc.property(tree, tree, (doc, patch) => {
      assert.deepEqual(applyStrategicMergePatch(doc, patch, DEPLOYMENT), applyMergePatch(doc, patch));
    }));
  });
  it('property: an empty patch is the identity', () => {
    fc.assert(fc.property(tree, (doc) => { assert.deepEqual(applyStrategicMergePatch(doc, {}, POD), doc); }));
  });
});
