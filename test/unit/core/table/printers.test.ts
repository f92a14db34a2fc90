import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/types.ts';
import { toTable } from '../../../../src/core/table/to-table.ts';

const now = new Date('2024-01-10T00:00:00Z');
const created = '2024-01-09T21:58:00Z'; // 2h2m before now

interface Case {
  name: string;
  group: string;
  resource: string;
  obj: Record<string, unknown>;
  /** Column names with priority > 0 marked by a trailing "*". */
  columns: string[];
  cells: unknown[];
}

const meta = (extra: Record<string, unknown> = {}) => ({ name: 'x', namespace: 'd', creationTimestamp: created, ...extra });
const podTemplate = { spec: { containers: [{ name: 'a', image: 'nginx:1' }, { name: 'b', image: 'busybox' }] } };

const cases: Case[] = [
  {
    name: 'running pod', group: '', resource: 'pods',
    obj: {
      spec: { nodeName: 'n1', containers: [{ name: 'a' }, { name: 'b' }] },
      status: {
        phase: 'Running', podIPs: [{ ip: '10.0.0.5' }],
        containerStatuses: [
          { name: 'a', ready: true, restartCount: 2, state: { running: {} }, lastState: { terminated: { finishedAt: '2024-01-09T23:55:00Z' } } },
          { name: 'b', ready: false, restartCount: 0, state: { running: {} } },
        ],
      },
    },
    columns: ['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP*', 'Node*', 'Nominated Node*', 'Readiness Gates*'],
    cells: ['x', '1/2', 'Running', '2 (5m ago)', '122m', '10.0.0.5', 'n1', '<none>', '<none>'],
  },
  {
    name: 'pod waiting on image', group: '', resource: 'pods',
    obj: { spec: { containers: [{ name: 'a' }] }, status: { phase: 'Pending', containerStatuses: [{ name: 'a', state: { waiting: { reason: 'ImagePullBackOff' } } }] } },
    columns: ['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP*', 'Node*', 'Nominated Node*', 'Readiness Gates*'],
    cells: ['x', '0/1', 'ImagePullBackOff', '0', '122m', '<none>', '<none>', '<none>', '<none>'],
  },
  {
    name: 'pod in init', group: '', resource: 'pods',
    obj: { spec: { initContainers: [{ name: 'i' }], containers: [{ name: 'a' }] }, status: { phase: 'Pending', initContainerStatuses: [{ name: 'i', state: { running: {} } }] } },
    columns: ['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP*', 'Node*', 'Nominated Node*', 'Readiness Gates*'],
    cells: ['x', '0/1', 'Init:0/1', '0', '122m', '<none>', '<none>', '<none>', '<none>'],
  },
  {
    name: 'deployment', group: 'apps', resource: 'deployments',
    obj: { spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: podTemplate }, status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 } },
    columns: ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers*', 'Images*', 'Selector*'],
    cells: ['x', '2/3', 3, 2, '122m', 'a,b', 'nginx:1,busybox', 'app=web'],
  },
  {
    name: 'replicaset', group: 'apps', resource: 'replicasets',
    obj: { spec: { replicas: 2, selector: { matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'c', operator: 'In', values: ['y', 'x'] }] }, template: podTemplate }, status: { replicas: 2 } },
    columns: ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers*', 'Images*', 'Selector*'],
    cells: ['x', 2, 2, 0, '122m', 'a,b', 'nginx:1,busybox', 'a=1,b=2,c in (x,y)'],
  },
  {
    name: 'statefulset', group: 'apps', resource: 'statefulsets',
    obj: { spec: { replicas: 1, template: podTemplate }, status: { readyReplicas: 1 } },
    columns: ['Name', 'Ready', 'Age', 'Containers*', 'Images*'], cells: ['x', '1/1', '122m', 'a,b', 'nginx:1,busybox'],
  },
  {
    name: 'daemonset', group: 'apps', resource: 'daemonsets',
    obj: { spec: { selector: { matchLabels: { a: 'b' } }, template: { spec: { ...podTemplate.spec, nodeSelector: { 'kubernetes.io/os': 'linux' } } } }, status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 } },
    columns: ['Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age', 'Containers*', 'Images*', 'Selector*'],
    cells: ['x', 3, 3, 2, 3, 2, 'kubernetes.io/os=linux', '122m', 'a,b', 'nginx:1,busybox', 'a=b'],
  },
  {
    name: 'completed job', group: 'batch', resource: 'jobs',
    obj: { spec: { completions: 1, template: podTemplate }, status: { succeeded: 1, startTime: '2024-01-09T22:00:00Z', completionTime: '2024-01-09T22:00:05Z', conditions: [{ type: 'Complete', status: 'True' }] } },
    columns: ['Name', 'Status', 'Completions', 'Duration', 'Age', 'Containers*', 'Images*', 'Selector*'],
    cells: ['x', 'Complete', '1/1', '5s', '122m', 'a,b', 'nginx:1,busybox', ''],
  },
  {
    name: 'cronjob', group: 'batch', resource: 'cronjobs',
    obj: { spec: { schedule: '*/5 * * * *', suspend: false, jobTemplate: { spec: { template: podTemplate } } }, status: {} },
    columns: ['Name', 'Schedule', 'Timezone', 'Suspend', 'Active', 'Last Schedule', 'Age', 'Containers*', 'Images*', 'Selector*'],
    cells: ['x', '*/5 * * * *', '<none>', 'False', 0, '<none>', '122m', 'a,b', 'nginx:1,busybox', ''],
  },
  {
    name: 'nodeport service', group: '', resource: 'services',
    obj: { spec: { type: 'NodePort', clusterIPs: ['10.96.0.10'], ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }], selector: { app: 'web' } } },
    columns: ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector*'],
    cells: ['x', 'NodePort', '10.96.0.10', '<none>', '80:30080/TCP,53/UDP', '122m', 'app=web'],
  },
  {
    name: 'pending load balancer', group: '', resource: 'services',
    obj: { spec: { type: 'LoadBalancer', clusterIPs: ['10.96.0.11'], ports: [{ port: 443, protocol: 'TCP' }] } },
    columns: ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector*'],
    cells: ['x', 'LoadBalancer', '10.96.0.11', '<pending>', '443/TCP', '122m', '<none>'],
  },
  { name: 'namespace', group: '', resource: 'namespaces', obj: { status: { phase: 'Active' } }, columns: ['Name', 'Status', 'Age'], cells: ['x', 'Active', '122m'] },
  { name: 'configmap', group: '', resource: 'configmaps', obj: { data: { a: '1' }, binaryData: { b: 'AA==' } }, columns: ['Name', 'Data', 'Age'], cells: ['x', 2, '122m'] },
  { name: 'secret', group: '', resource: 'secrets', obj: { type: 'Opaque', data: { a: 'MQ==' } }, columns: ['Name', 'Type', 'Data', 'Age'], cells: ['x', 'Opaque', 1, '122m'] },
  { name: 'serviceaccount', group: '', resource: 'serviceaccounts', obj: {}, columns: ['Name', 'Secrets', 'Age'], cells: ['x', 0, '122m'] },
  {
    name: 'event', group: '', resource: 'events',
    obj: { type: 'Normal', reason: 'Pulled', message: 'done ', involvedObject: { kind: 'Pod', name: 'p' }, source: { component: 'kubelet', host: 'n1' }, firstTimestamp: '2024-01-09T23:50:00Z', lastTimestamp: '2024-01-09T23:59:00Z', count: 4 },
    columns: ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject*', 'Source*', 'Message', 'First Seen*', 'Count*', 'Name*'],
    cells: ['60s', 'Normal', 'Pulled', 'pod/p', '', 'kubelet, n1', 'done', '10m', 4, 'x'],
  },
  {
    name: 'endpoints over three', group: '', resource: 'endpoints',
    obj: { subsets: [{ addresses: [{ ip: '1.1.1.1' }, { ip: '1.1.1.2' }, { ip: '1.1.1.3' }, { ip: '1.1.1.4' }], ports: [{ port: 80 }] }] },
    columns: ['Name', 'Endpoints', 'Age'], cells: ['x', '1.1.1.1:80,1.1.1.2:80,1.1.1.3:80 + 1 more...', '122m'],
  },
  {
    name: 'node', group: '', resource: 'nodes',
    obj: { metadata: meta({ labels: { 'node-role.kubernetes.io/control-plane': '' } }), spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'True' }], addresses: [{ type: 'InternalIP', address: '172.18.0.2' }], nodeInfo: { kubeletVersion: 'v1.33.0', osImage: 'Debian', kernelVersion: '6.1', containerRuntimeVersion: 'containerd://1.7' } } },
    columns: ['Name', 'Status', 'Roles', 'Age', 'Version', 'Internal-IP*', 'External-IP*', 'OS-Image*', 'Kernel-Version*', 'Container-Runtime*'],
    cells: ['x', 'Ready,SchedulingDisabled', 'control-plane', '122m', 'v1.33.0', '172.18.0.2', '<none>', 'Debian', '6.1', 'containerd://1.7'],
  },
  {
    name: 'bound pvc', group: '', resource: 'persistentvolumeclaims',
    obj: { spec: { volumeName: 'pv1', storageClassName: 'standard', volumeMode: 'Filesystem' }, status: { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] } },
    columns: ['Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'VolumeAttributesClass', 'Age', 'VolumeMode*'],
    cells: ['x', 'Bound', 'pv1', '1Gi', 'RWO', 'standard', '<unset>', '122m', 'Filesystem'],
  },
  {
    name: 'pv', group: '', resource: 'persistentvolumes',
    obj: { spec: { capacity: { storage: '5Gi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', claimRef: { namespace: 'd', name: 'c' } }, status: { phase: 'Bound' } },
    columns: ['Name', 'Capacity', 'Access Modes', 'Reclaim Policy', 'Status', 'Claim', 'StorageClass', 'VolumeAttributesClass', 'Reason', 'Age', 'VolumeMode*'],
    cells: ['x', '5Gi', 'RWO,RWX', 'Retain', 'Bound', 'd/c', '', '<unset>', '', '122m', '<unset>'],
  },
  {
    name: 'ingress', group: 'networking.k8s.io', resource: 'ingresses',
    obj: { spec: { ingressClassName: 'nginx', rules: [{ host: 'a.com' }, { host: 'b.com' }], tls: [{}] }, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } },
    columns: ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age'], cells: ['x', 'nginx', 'a.com,b.com', '1.2.3.4', '80, 443', '122m'],
  },
  { name: 'networkpolicy', group: 'networking.k8s.io', resource: 'networkpolicies', obj: { spec: { podSelector: {} } }, columns: ['Name', 'Pod-Selector', 'Age'], cells: ['x', '<none>', '122m'] },
  { name: 'lease', group: 'coordination.k8s.io', resource: 'leases', obj: { spec: { holderIdentity: 'me' } }, columns: ['Name', 'Holder', 'Age'], cells: ['x', 'me', '122m'] },
  { name: 'role', group: 'rbac.authorization.k8s.io', resource: 'roles', obj: {}, columns: ['Name', 'Created At'], cells: ['x', created] },
  { name: 'clusterrole', group: 'rbac.authorization.k8s.io', resource: 'clusterroles', obj: {}, columns: ['Name', 'Created At'], cells: ['x', created] },
  {
    name: 'rolebinding', group: 'rbac.authorization.k8s.io', resource: 'rolebindings',
    obj: { roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'u' }, { kind: 'ServiceAccount', name: 's', namespace: 'd' }, { kind: 'Group', name: 'g' }] },
    columns: ['Name', 'Role', 'Age', 'Users*', 'Groups*', 'ServiceAccounts*'], cells: ['x', 'ClusterRole/view', '122m', 'u', 'g', 'd/s'],
  },
  {
    name: 'clusterrolebinding', group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings', obj: { roleRef: { kind: 'ClusterRole', name: 'admin' } },
    columns: ['Name', 'Role', 'Age', 'Users*', 'Groups*', 'ServiceAccounts*'], cells: ['x', 'ClusterRole/admin', '122m', '', '', ''],
  },
  {
    name: 'default storageclass', group: 'storage.k8s.io', resource: 'storageclasses',
    obj: { metadata: meta({ annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }), provisioner: 'rancher.io/local-path', volumeBindingMode: 'WaitForFirstConsumer' },
    columns: ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age'],
    cells: ['x (default)', 'rancher.io/local-path', 'Delete', 'WaitForFirstConsumer', false, '122m'],
  },
  {
    name: 'priorityclass', group: 'scheduling.k8s.io', resource: 'priorityclasses', obj: { value: 1000, preemptionPolicy: 'PreemptLowerPriority' },
    columns: ['Name', 'Value', 'Global-Default', 'Age', 'PreemptionPolicy'], cells: ['x', 1000, false, '122m', 'PreemptLowerPriority'],
  },
  {
    name: 'hpa', group: 'autoscaling', resource: 'horizontalpodautoscalers',
    obj: { spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }] }, status: { currentReplicas: 2 } },
    columns: ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age'], cells: ['x', 'Deployment/web', 'cpu: <unknown>/80%', '1', 5, 2, '122m'],
  },
  {
    name: 'pdb', group: 'policy', resource: 'poddisruptionbudgets', obj: { spec: { minAvailable: '50%' }, status: { disruptionsAllowed: 1 } },
    columns: ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age'], cells: ['x', '50%', 'N/A', 1, '122m'],
  },
  {
    name: 'controllerrevision', group: 'apps', resource: 'controllerrevisions',
    obj: { metadata: meta({ ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: 'u', controller: true }] }), revision: 3 },
    columns: ['Name', 'Controller', 'Revision', 'Age'], cells: ['x', 'daemonset.apps/ds', 3, '122m'],
  },
  {
    name: 'resourcequota', group: '', resource: 'resourcequotas', obj: { status: { hard: { pods: '10', 'limits.cpu': '2', 'requests.cpu': '1' }, used: { pods: '3' } } },
    columns: ['Name', 'Age', 'Request', 'Limit'], cells: ['x', '122m', 'pods: 3/10, requests.cpu: 0/1', 'limits.cpu: 0/2'],
  },
  { name: 'limitrange', group: '', resource: 'limitranges', obj: {}, columns: ['Name', 'Created At'], cells: ['x', created] },
  { name: 'CRD (default convertor)', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', obj: {}, columns: ['Name', 'Created At'], cells: ['x', created] },
];

describe('toTable columns and cells per kind', () => {
  for (const c of cases) {
    it(c.name, () => {
      const obj = { metadata: meta(), ...c.obj } as KubeObject;
      const table = toTable({ group: c.group, resource: c.resource }, [obj], { now, includeObject: 'None' });
      assert.deepEqual(table.columnDefinitions.map((d) => `${d.name}${d.priority > 0 ? '*' : ''}`), c.columns);
      assert.equal(table.columnDefinitions[c.columns.indexOf('Name') >= 0 ? c.columns.indexOf('Name') : c.columns.indexOf('Name*')]?.format, 'name');
      assert.deepEqual(table.rows[0]?.cells, c.cells);
      for (const d of table.columnDefinitions) assert.ok(d.description.length > 0, `${d.name} has a description`);
    });
  }
});

describe('toTable envelope', () => {
  const pod = { metadata: meta({ uid: 'u1' }), spec: { containers: [] }, status: { phase: 'Succeeded' } } as KubeObject;
  it('Metadata rows carry PartialObjectMetadata, listMeta passes through', () => {
    const t = toTable({ group: '', resource: 'pods' }, [pod], { now, listMeta: { resourceVersion: '42', continue: 'abc' } });
    assert.equal(t.kind, 'Table');
    assert.equal(t.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(t.metadata, { resourceVersion: '42', continue: 'abc' });
    assert.deepEqual(t.rows[0]?.object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: pod.metadata });
    assert.deepEqual(t.rows[0]?.conditions, [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
  });
  it('Object rows carry the object, None rows carry nothing', () => {
    assert.equal(toTable({ group: '', resource: 'pods' }, [pod], { now, includeObject: 'Object' }).rows[0]?.object, pod);
    assert.equal('object' in (toTable({ group: '', resource: 'pods' }, [pod], { now, includeObject: 'None' }).rows[0] ?? {}), false);
  });
  it('Object rows name their kind even when the items do not (list items and cached objects carry none; kubectl --sort-by needs it)', () => {
    const { apiVersion: _a, kind: _k, ...bare } = pod as KubeObject;
    const row = toTable({ group: 'apps', version: 'v1', kind: 'Deployment', resource: 'deployments' }, [bare as KubeObject], { now, includeObject: 'Object' }).rows[0];
    assert.deepEqual(row?.object, { ...bare, apiVersion: 'apps/v1', kind: 'Deployment' });
    const core = toTable({ group: '', version: 'v1', kind: 'Namespace', resource: 'namespaces' }, [bare as KubeObject], { now, includeObject: 'Object' }).rows[0];
    assert.equal((core?.object as KubeObject).apiVersion, 'v1');
  });
  it('custom resources use their printer columns', () => {
    const cr = { metadata: meta(), spec: { size: 2 } } as KubeObject;
    const t = toTable({ group: 'a.com', resource: 'foos', custom: true }, [cr], { now, customColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }] });
    assert.deepEqual(t.columnDefinitions.map((d) => d.name), ['Name', 'Size']);
    assert.deepEqual(t.rows[0]?.cells, ['x', 2]);
  });
  it('unknown built-ins get Name and Created At (date)', () => {
    const t = toTable({ group: 'x.io', resource: 'things' }, [{ metadata: meta() } as KubeObject], { now });
    assert.deepEqual(t.columnDefinitions.map((d) => [d.name, d.type]), [['Name', 'string'], ['Created At', 'date']]);
  });
});
