import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BUILTIN_RESOURCES } from '../../../../src/core/resources/builtin-resources.ts';
import type { ResourceDef } from '../../../../src/core/resources/resource-def.ts';
import type { KubeObject, StatusCause } from '../../../../src/core/types.ts';
import { validateCreate, validateUpdate } from '../../../../src/apiserver/validation/validate.ts';
import { applyDefaults } from '../../../../src/apiserver/validation/defaults.ts';
import { validateObjectName } from '../../../../src/apiserver/validation/object-name.ts';

function def(resource: string, group = ''): ResourceDef {
  const d = BUILTIN_RESOURCES.find((r) => r.resource === resource && r.group === group);
  assert.ok(d, `${resource}.${group}`);
  return d;
}

const SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

const web = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  selector: { matchLabels: { app: 'web' } },
  template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  ...extra,
});

interface Case {
  name: string;
  def: ResourceDef;
  obj: Record<string, unknown>;
  ns?: string;
  /** "field: message" of every cause, in order. */
  want: string[];
}

const cases: Case[] = [
  { name: 'valid pod', def: def('pods'), obj: { spec: { containers: [{ name: 'c', image: 'nginx' }] } }, want: [] },
  {
    name: 'pod name not a subdomain', def: def('pods'), obj: { metadata: { name: 'Foo_Bar' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    want: [`metadata.name: Invalid value: "Foo_Bar": ${SUBDOMAIN_MSG}`],
  },
  { name: 'pod without containers', def: def('pods'), obj: { spec: {} }, want: ['spec.containers: Required value'] },
  {
    name: 'pod container without image, duplicate names', def: def('pods'),
    obj: { spec: { containers: [{ name: 'a', image: 'x' }, { name: 'a' }] } },
    want: ['spec.containers[1].name: Duplicate value: "a"', 'spec.containers[1].image: Required value'],
  },
  {
    name: 'pod bad restartPolicy and port', def: def('pods'),
    obj: { spec: { restartPolicy: 'Sometimes', containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 70000 }] }] } },
    want: [
      'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    ],
  },
  {
    name: 'missing name', def: def('configmaps'), obj: { metadata: { name: '' } },
    want: ['metadata.name: Required value: name or generateName is required'],
  },
  {
    name: 'generateName with trailing dash is fine', def: def('configmaps'), obj: { metadata: { name: 'x', generateName: 'cm-' } }, want: [],
  },
  {
    name: 'namespace name is a DNS label', def: def('namespaces'), obj: { metadata: { name: 'a.b' } },
    want: [`metadata.name: Invalid value: "a.b": ${LABEL_MSG}`],
  },
  {
    name: 'service name is a DNS-1035 label', def: def('services'), obj: { metadata: { name: '1abc' }, spec: { ports: [{ port: 80 }] } },
    want: ["metadata.name: Invalid value: \"1abc\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"],
  },
  {
    name: 'role names are path segments', def: def('roles', 'rbac.authorization.k8s.io'), obj: { metadata: { name: 'a/b' }, rules: [] },
    want: ["metadata.name: Invalid value: \"a/b\": may not contain '/'"],
  },
  {
    name: 'bad label key and value', def: def('configmaps'), obj: { metadata: { name: 'x', labels: { 'a b': 'ok', k: '-bad' } } },
    want: [
      "metadata.labels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      "metadata.labels: Invalid value: \"-bad\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
  },
  {
    name: 'annotations over 256 KiB', def: def('configmaps'), obj: { metadata: { name: 'x', annotations: { a: 'x'.repeat(256 * 1024) } } },
    want: ['metadata.annotations: Too long: must have at most 262144 bytes'],
  },
  {
    name: 'unqualified finalizer on a built-in', def: def('configmaps'), obj: { metadata: { name: 'x', finalizers: ['mine'] } },
    want: ['metadata.finalizers: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified'],
  },
  {
    name: 'deployment without selector', def: def('deployments', 'apps'), obj: { spec: web({ selector: undefined }) },
    want: ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'],
  },
  {
    name: 'deployment selector mismatch', def: def('deployments', 'apps'), obj: { spec: web({ selector: { matchLabels: { app: 'db' } } }) },
    want: ['spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'],
  },
  {
    name: 'deployment empty selector', def: def('deployments', 'apps'), obj: { spec: web({ selector: {} }) },
    want: ['spec.selector: Invalid value: {}: empty selector is invalid for deployment'],
  },
  { name: 'valid deployment', def: def('deployments', 'apps'), obj: { spec: web() }, want: [] },
  {
    name: 'deployment template image missing', def: def('deployments', 'apps'),
    obj: { spec: web({ template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c' }] } } }) },
    want: ['spec.template.spec.containers[0].image: Required value'],
  },
  {
    name: 'job with default restartPolicy', def: def('jobs', 'batch'), obj: { spec: { template: { spec: { containers: [{ name: 'c', image: 'x' }] } } } },
    want: ['spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"'],
  },
  {
    name: 'cronjob without schedule', def: def('cronjobs', 'batch'),
    obj: { spec: { jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } } } } },
    want: ['spec.schedule: Required value'],
  },
  {
    name: 'cronjob bad schedule', def: def('cronjobs', 'batch'),
    obj: { spec: { schedule: '* * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } } } } },
    want: ['spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]'],
  },
  {
    name: 'cronjob name over 52', def: def('cronjobs', 'batch'),
    obj: { metadata: { name: 'a'.repeat(53) }, spec: { schedule: '@hourly', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } } } } },
    want: [`metadata.name: Invalid value: "${'a'.repeat(53)}": must be no more than 52 characters`],
  },
  { name: 'service without ports', def: def('services'), obj: { spec: {} }, want: ['spec.ports: Required value'] },
  {
    name: 'service bad type and port', def: def('services'), obj: { spec: { type: 'Magic', ports: [{ port: 0 }] } },
    want: [
      'spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      // targetPort defaults to port, so kube reports it too.
      'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
    ],
  },
  {
    name: 'service two unnamed ports', def: def('services'), obj: { spec: { ports: [{ port: 80 }, { port: 81 }] } },
    want: ['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value'],
  },
  {
    name: 'configmap bad key', def: def('configmaps'), obj: { data: { 'a b': '1' } },
    want: ["data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"],
  },
  {
    name: 'tls secret without keys', def: def('secrets'), obj: { type: 'kubernetes.io/tls', data: {} },
    want: ['data[tls.crt]: Required value', 'data[tls.key]: Required value'],
  },
  {
    name: 'role rule without verbs', def: def('roles', 'rbac.authorization.k8s.io'), obj: { rules: [{ apiGroups: [''], resources: ['pods'] }] },
    want: ['rules[0].verbs: Required value: verbs must contain at least one value'],
  },
  {
    name: 'clusterrolebinding to a Role', def: def('clusterrolebindings', 'rbac.authorization.k8s.io'),
    obj: { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'x' }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }] },
    want: ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"', 'subjects[0].namespace: Required value'],
  },
  { name: 'rolebinding without roleRef name', def: def('rolebindings', 'rbac.authorization.k8s.io'), obj: { roleRef: { kind: 'Role' } }, want: ['roleRef.name: Required value'] },
  {
    name: 'pvc without access modes and storage', def: def('persistentvolumeclaims'), obj: { spec: {} },
    want: ['spec.accessModes: Required value: at least 1 access mode is required', 'spec.resources[storage]: Required value'],
  },
  {
    name: 'hpa without target and max', def: def('horizontalpodautoscalers', 'autoscaling'), obj: { spec: {} },
    want: ['spec.scaleTargetRef.kind: Required value', 'spec.scaleTargetRef.name: Required value', 'spec.maxReplicas: Invalid value: 0: must be greater than 0',
      'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`'],
  },
  { name: 'storageclass without provisioner', def: def('storageclasses', 'storage.k8s.io'), obj: {}, want: ['provisioner: Required value'] },
  {
    name: 'priorityclass too high', def: def('priorityclasses', 'scheduling.k8s.io'), obj: { value: 2000000000 },
    want: ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000'],
  },
  {
    name: 'ingress path without pathType', def: def('ingresses', 'networking.k8s.io'),
    obj: { spec: { rules: [{ http: { paths: [{ path: '/', backend: { service: { name: 's', port: { number: 80 } } } }] } }] } },
    want: ['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified'],
  },
  {
    name: 'pdb with both bounds', def: def('poddisruptionbudgets', 'policy'), obj: { spec: { minAvailable: 1, maxUnavailable: 1 } },
    want: ['spec: Invalid value: {"minAvailable":1,"maxUnavailable":1}: minAvailable and maxUnavailable cannot be both set'],
  },
  {
    name: 'event about another namespace', def: def('events'), obj: { involvedObject: { kind: 'Pod', name: 'p', namespace: 'other' } },
    want: ['involvedObject.namespace: Invalid value: "other": does not match event.namespace'],
  },
  {
    // kube 1.20's legacyValidateEvent: about a cluster-scoped object, only in "default" (or naming its own namespace).
    name: 'event about a cluster-scoped object outside default', def: def('events'), ns: 'abcdef-default',
    obj: { involvedObject: { kind: 'ClusterRole', name: 'r' } },
    want: ['involvedObject.namespace: Invalid value: "": does not match event.namespace'],
  },
  { name: 'event about a cluster-scoped object in default', def: def('events'), obj: { involvedObject: { kind: 'ClusterRole', name: 'r' } }, want: [] },
  {
    name: 'event about a cluster-scoped object naming its own namespace', def: def('events'), ns: 'abcdef-default',
    obj: { involvedObject: { kind: 'ClusterRole', name: 'r', namespace: 'abcdef-default' } }, want: [],
  },
  { name: 'lease zero duration', def: def('leases', 'coordination.k8s.io'), obj: { spec: { leaseDurationSeconds: 0 } }, want: ['spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0'] },
];

function build(c: Case): KubeObject {
  const meta = { name: 'x', ...((c.obj.metadata ?? {}) as object) } as KubeObject['metadata'];
  if (c.def.namespaced) meta.namespace = c.ns ?? 'default';
  const obj = { ...structuredClone(c.obj), metadata: meta } as KubeObject;
  return applyDefaults(c.def, obj);
}

const show = (causes: StatusCause[]): string[] => causes.map((c) => `${c.field}: ${c.message}`);

describe('validateCreate', () => {
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(show(validateCreate(c.def, build(c))), c.want));
  }
  it('uses kube cause types', () => {
    const causes = validateCreate(def('pods'), build({ name: '', def: def('pods'), obj: { spec: {} }, want: [] }));
    assert.deepEqual(causes, [{ type: 'FieldValueRequired', field: 'spec.containers', message: 'Required value' }]);
  });
  it('CRD names must be <plural>.<group> (validateObjectName; validateCreate leaves it to validate-crd)', () => {
    const crd = def('customresourcedefinitions', 'apiextensions.k8s.io');
    const obj: KubeObject = { metadata: { name: 'foo.a.com' }, spec: { group: 'a.com', names: { plural: 'foos' } } };
    assert.deepEqual(show(validateObjectName(crd, 'foo.a.com', obj)), ['metadata.name: Invalid value: "foo.a.com": must be spec.names.plural+"."+spec.group']);
    assert.deepEqual(validateObjectName(crd, 'foos.a.com', obj), []);
    assert.deepEqual(validateCreate(crd, obj), []);
  });
});

describe('validateUpdate', () => {
  const deploy = def('deployments', 'apps');
  const old = build({ name: '', def: deploy, obj: { spec: web() }, want: [] });
  it('apps/v1 selector is immutable', () => {
    const next = structuredClone(old);
    (next.spec as any).selector = { matchLabels: { app: 'web', tier: 'x' } };
    (next.spec as any).template.metadata.labels.tier = 'x';
    assert.deepEqual(show(validateUpdate(deploy, next, old)), ['spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"x"}}: field is immutable']);
  });
  it('roleRef cannot change', () => {
    const rb = def('rolebindings', 'rbac.authorization.k8s.io');
    const before = build({ name: '', def: rb, obj: { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'a' } }, want: [] });
    const after = structuredClone(before);
    (after.roleRef as any).name = 'b';
    assert.deepEqual(show(validateUpdate(rb, after, before)), ['roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"Role","Name":"b"}: cannot change roleRef']);
  });
  it('name is immutable and a valid update passes', () => {
    const next = structuredClone(old);
    assert.deepEqual(validateUpdate(deploy, next, old), []);
    next.metadata.name = 'y';
    assert.deepEqual(show(validateUpdate(deploy, next, old)), ['metadata.name: Invalid value: "y": field is immutable']);
  });
  it('no new finalizers while deleting', () => {
    const cm = def('configmaps');
    const before: KubeObject = { metadata: { name: 'x', namespace: 'd', deletionTimestamp: '2024-01-01T00:00:00Z' } };
    const after: KubeObject = { metadata: { ...before.metadata, finalizers: ['a.io/b'] } };
    assert.deepEqual(show(validateUpdate(cm, after, before)), ['metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a.io/b"}']);
  });
});
