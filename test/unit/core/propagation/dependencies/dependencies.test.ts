import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dependenciesOf } from '../../../../../src/core/propagation/dependencies/index.ts';
import type { KubeObject } from '../../../../../src/core/types.ts';

const podSpec = {
  serviceAccountName: 'runner',
  imagePullSecrets: [{ name: 'pull' }],
  initContainers: [{ name: 'i', envFrom: [{ configMapRef: { name: 'init-cm' } }] }],
  containers: [{
    name: 'c',
    envFrom: [{ secretRef: { name: 'env-secret' } }, { configMapRef: { name: 'env-cm' } }],
    env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'key-cm', key: 'a' } } }, { name: 'B', valueFrom: { secretKeyRef: { name: 'key-secret', key: 'b' } } }, { name: 'C', value: 'x' }],
  }],
  volumes: [
    { name: 'v1', configMap: { name: 'vol-cm' } },
    { name: 'v2', secret: { secretName: 'vol-secret' } },
    { name: 'v3', projected: { sources: [{ configMap: { name: 'proj-cm' } }, { secret: { name: 'proj-secret' } }, { serviceAccountToken: { path: 't' } }] } },
    { name: 'v4', persistentVolumeClaim: { claimName: 'data' } },
    { name: 'v5', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi-secret' } } },
    { name: 'v6', emptyDir: {} },
  ],
};
const want = (ns: string) => [
  ...['env-cm', 'init-cm', 'key-cm', 'proj-cm', 'vol-cm'].map((name) => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace: ns, name })),
  ...['csi-secret', 'env-secret', 'key-secret', 'proj-secret', 'pull', 'vol-secret'].map((name) => ({ apiVersion: 'v1', kind: 'Secret', namespace: ns, name })),
  { apiVersion: 'v1', kind: 'ServiceAccount', namespace: ns, name: 'runner' },
  { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: ns, name: 'data' },
];

describe('dependenciesOf', () => {
  const wrap: Array<[string, string, (spec: unknown) => unknown]> = [
    ['Deployment', 'apps/v1', (s) => ({ template: { spec: s } })],
    ['StatefulSet', 'apps/v1', (s) => ({ template: { spec: s } })],
    ['DaemonSet', 'apps/v1', (s) => ({ template: { spec: s } })],
    ['ReplicaSet', 'apps/v1', (s) => ({ template: { spec: s } })],
    ['Job', 'batch/v1', (s) => ({ template: { spec: s } })],
    ['CronJob', 'batch/v1', (s) => ({ jobTemplate: { spec: { template: { spec: s } } } })],
    ['Pod', 'v1', (s) => s],
  ];
  for (const [kind, apiVersion, f] of wrap) {
    it(kind, () => {
      const obj: KubeObject = { apiVersion, kind, metadata: { name: 'w', namespace: 'team' }, spec: f(podSpec) };
      assert.deepEqual(dependenciesOf(obj), want('team'));
    });
  }
  it('the default ServiceAccount is not a dependency', () => {
    const obj: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'n' }, spec: { serviceAccountName: 'default', containers: [] } };
    assert.deepEqual(dependenciesOf(obj), []);
  });
  it('Ingress TLS secrets', () => {
    const ing: KubeObject = { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'i', namespace: 'n' }, spec: { tls: [{ secretName: 'b' }, { secretName: 'a' }, { hosts: ['x'] }] } };
    assert.deepEqual(dependenciesOf(ing).map((d) => `${d.kind}/${d.name}`), ['Secret/a', 'Secret/b']);
  });
  it('other kinds have none', () => {
    assert.deepEqual(dependenciesOf({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'n' }, spec: {} }), []);
  });
});
