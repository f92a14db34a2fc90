import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/core/api-error.ts';
import { decodeKubeProtobuf, isKubeProtobuf } from '../../../../src/core/protobuf/index.ts';
import { entry, envelope, int, msg, raw, str } from './wire-bytes.ts';

// ObjectMeta fields as Go clients write them: every non-pointer field, zero or not.
const meta = (name: string, ...extra: number[][]) => msg(1, str(1, name), str(2, ''), str(3, ''), int(7, 0), msg(8), ...extra);

const cases: { name: string; bytes: Uint8Array; want: Record<string, unknown> }[] = [
  {
    name: 'Namespace: empty strings and zero ints dropped, zero Time is null, structs kept',
    bytes: envelope('v1', 'Namespace', meta('demo'), msg(2), msg(3, str(1, ''))),
    want: { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'demo', creationTimestamp: null }, spec: {}, status: {} },
  },
  {
    name: 'ConfigMap: string map, labels, immutable pointer false kept',
    bytes: envelope('v1', 'ConfigMap', meta('cm', entry(11, 'app', str(2, 'web'))), entry(2, 'b', str(2, '2')), entry(2, 'a', str(2, '')), int(4, 0)),
    want: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cm', creationTimestamp: null, labels: { app: 'web' } }, immutable: false, data: { b: '2', a: '' } },
  },
  {
    name: 'Secret: bytes values become base64',
    bytes: envelope('v1', 'Secret', meta('s'), entry(2, 'pw', raw(2, new TextEncoder().encode('hunter2'))), str(3, 'Opaque')),
    want: { kind: 'Secret', apiVersion: 'v1', metadata: { name: 's', creationTimestamp: null }, data: { pw: 'aHVudGVyMg==' }, type: 'Opaque' },
  },
  {
    name: 'metav1.Time is RFC 3339 at second precision (nanos dropped as Go does)',
    bytes: envelope('v1', 'Namespace', msg(1, str(1, 'n'), msg(8, int(1, 1704164645), int(2, 999_000_000)))),
    want: { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'n', creationTimestamp: '2024-01-02T03:04:05Z' }, spec: {}, status: {} },
  },
  {
    name: 'DeleteOptions: pointers keep zero values, repeated dryRun',
    bytes: envelope('v1', 'DeleteOptions', int(1, 0), int(3, 0), str(4, 'Foreground'), str(5, 'All')),
    want: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, orphanDependents: false, propagationPolicy: 'Foreground', dryRun: ['All'] },
  },
  {
    name: 'DeleteOptions with meta.k8s.io/v1 and preconditions',
    bytes: envelope('meta.k8s.io/v1', 'DeleteOptions', msg(2, str(1, 'uid-1')), str(4, 'Background')),
    want: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', preconditions: { uid: 'uid-1' }, propagationPolicy: 'Background' },
  },
  {
    name: 'negative int64 (ten-byte varint) stays negative',
    bytes: envelope('v1', 'DeleteOptions', int(1, -1)),
    want: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: -1 },
  },
];

const deployment = envelope('apps/v1', 'Deployment',
  meta('web'),
  msg(2,
    int(1, 0), // replicas: a pointer, so 0 survives
    msg(2, entry(1, 'app', str(2, 'web'))),
    msg(3, msg(1, msg(8), entry(11, 'app', str(2, 'web'))), msg(2,
      msg(2, str(1, 'nginx'), str(2, 'nginx:1.27'), msg(6, int(3, 80), str(4, 'TCP')),
        msg(8, entry(1, 'cpu', msg(2, str(1, '100m'))), entry(2, 'memory', msg(2, str(1, '64Mi'))))))),
    msg(4, str(1, 'RollingUpdate'), msg(2, msg(1, int(1, 0), int(2, 25), str(3, '')), msg(2, int(1, 1), int(2, 0), str(3, '25%')))),
    int(5, 0), int(7, 0)),
  msg(3));

describe('decodeKubeProtobuf', () => {
  for (const c of cases) it(c.name, () => assert.deepEqual(decodeKubeProtobuf(c.bytes), c.want));

  it('Deployment: nested template, int32 pointer replicas 0, IntOrString int and string, Quantity', () => {
    const got = decodeKubeProtobuf(deployment) as any;
    assert.equal(got.spec.replicas, 0);
    assert.deepEqual(got.spec.selector, { matchLabels: { app: 'web' } });
    assert.deepEqual(got.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 25, maxSurge: '25%' } });
    assert.deepEqual(got.spec.template.spec.containers, [{
      name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80, protocol: 'TCP' }],
      resources: { limits: { cpu: '100m' }, requests: { memory: '64Mi' } },
    }]);
    assert.equal('minReadySeconds' in got.spec, false, 'omitempty int32 zero is dropped');
    assert.equal('paused' in got.spec, false, 'omitempty bool false is dropped');
    assert.deepEqual(got.status, {});
  });

  it('takes kind and apiVersion from the defaults when typeMeta is empty', () => {
    const bytes = Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...msg(1), ...msg(2, str(4, 'Orphan'))]);
    assert.deepEqual(decodeKubeProtobuf(bytes, { apiVersion: 'v1', kind: 'DeleteOptions' }), { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' });
  });
});

describe('decodeKubeProtobuf rejects malformed input with a 400', () => {
  const good = envelope('v1', 'Namespace', meta('x'));
  const bad: { name: string; bytes: Uint8Array; message: RegExp }[] = [
    { name: 'empty', bytes: new Uint8Array(0), message: /empty data/ },
    { name: 'wrong magic', bytes: Uint8Array.from([0x7b, 0x7d, 0, 0, 1]), message: /expected prefix \[107 56 115 0\]/ },
    { name: 'magic only', bytes: Uint8Array.from([0x6b, 0x38, 0x73, 0x00]), message: /empty body/ },
    { name: 'truncated varint', bytes: envelope('v1', 'DeleteOptions', [0x08, 0xff]), message: /end of data in varint/ },
    { name: 'truncated message', bytes: good.subarray(0, good.length - 3), message: /unexpected end of data|length exceeds/ },
    { name: 'unknown kind', bytes: envelope('v1', 'Gadget'), message: /no kind "Gadget" is registered for version "v1"/ },
    { name: 'unknown group', bytes: envelope('example.com/v1', 'Namespace'), message: /no kind "Namespace" is registered for version "example.com\/v1"/ },
    { name: 'nested type is not a kind', bytes: envelope('v1', 'PodSpec'), message: /no kind "PodSpec"/ },
    { name: 'wrong wire type', bytes: envelope('v1', 'Namespace', int(1, 5)), message: /wire type/ },
    { name: 'illegal wire type', bytes: envelope('v1', 'Namespace', [0x0f]), message: /illegal wire type/ },
    { name: 'gzip content encoding', bytes: Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...msg(1, str(1, 'v1'), str(2, 'Namespace')), ...str(3, 'gzip')]), message: /content encoding "gzip"/ },
  ];
  for (const c of bad) {
    it(c.name, () => assert.throws(() => decodeKubeProtobuf(c.bytes), (err: unknown) => {
      assert.ok(err instanceof ApiError);
      assert.equal(err.code, 400);
      assert.equal(err.reason, 'BadRequest');
      assert.match(err.message, c.message);
      return true;
    }));
  }
});

describe('isKubeProtobuf', () => {
  const table: [string | undefined, boolean][] = [
    ['application/vnd.kubernetes.protobuf', true],
    ['application/vnd.kubernetes.protobuf; charset=utf-8', true],
    ['Application/VND.Kubernetes.Protobuf', true],
    ['application/json', false],
    ['application/vnd.kubernetes.protobuf+json', false],
    [undefined, false],
    ['', false],
  ];
  for (const [ct, want] of table) it(`${ct} → ${want}`, () => assert.equal(isKubeProtobuf(ct), want));
});
