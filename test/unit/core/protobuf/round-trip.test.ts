import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeKubeProtobuf, encodeKubeProtobuf } from '../../../../src/core/protobuf/index.ts';

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);
const text = fc.string({ maxLength: 20 });
const nonEmpty = fc.string({ minLength: 1, maxLength: 20 });
const labels = fc.dictionary(name, text, { minKeys: 1, maxKeys: 4 });
const time = fc.integer({ min: 0, max: 4_000_000_000 }).map((s) => new Date(s * 1000).toISOString().replace('.000Z', 'Z'));

// Canonical kube JSON: what decode produces (omitempty zeros absent, structs present).
const metadata = fc.record({
  name,
  creationTimestamp: fc.option(time, { nil: null }),
  labels: fc.option(labels, { nil: undefined }),
  generation: fc.option(fc.integer({ min: 1, max: 2 ** 40 }), { nil: undefined }),
  finalizers: fc.option(fc.array(nonEmpty, { minLength: 1, maxLength: 3 }), { nil: undefined }),
}, { requiredKeys: ['name', 'creationTimestamp'] });

const configMap = fc.record({
  kind: fc.constant('ConfigMap'), apiVersion: fc.constant('v1'), metadata,
  data: fc.option(fc.dictionary(nonEmpty, text, { minKeys: 1 }), { nil: undefined }),
  binaryData: fc.option(fc.dictionary(nonEmpty, fc.uint8Array({ maxLength: 16 }).map((b) => Buffer.from(b).toString('base64')), { minKeys: 1 }), { nil: undefined }),
  immutable: fc.option(fc.boolean(), { nil: undefined }),
}, { requiredKeys: ['kind', 'apiVersion', 'metadata'] });

const intOrString = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.stringMatching(/^[0-9]{1,2}%$/));
const deployment = fc.record({
  kind: fc.constant('Deployment'), apiVersion: fc.constant('apps/v1'), metadata,
  spec: fc.record({
    replicas: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }),
    selector: fc.record({ matchLabels: labels }),
    template: fc.record({
      metadata: fc.record({ creationTimestamp: fc.constant(null), labels }),
      spec: fc.record({ containers: fc.array(fc.record({
        name, image: nonEmpty,
        resources: fc.record({ limits: fc.option(fc.dictionary(fc.constantFrom('cpu', 'memory'), fc.constantFrom('1', '100m', '64Mi'), { minKeys: 1 }), { nil: undefined }) }, { requiredKeys: [] }),
      }), { minLength: 1, maxLength: 2 }) }),
    }),
    strategy: fc.record({ type: fc.constant('RollingUpdate'), rollingUpdate: fc.record({ maxSurge: intOrString, maxUnavailable: intOrString }) }),
  }, { requiredKeys: ['selector', 'template', 'strategy'] }),
  status: fc.constant({}),
});

function dropUndefined<T>(x: T): T {
  return JSON.parse(JSON.stringify(x, (_k, v) => (v === undefined ? undefined : v)));
}

describe('protobuf round trips', () => {
  for (const [kind, arb] of [['ConfigMap', configMap], ['Deployment', deployment]] as const) {
    it(`decode(encode(x)) == x for canonical ${kind}s`, () => {
      fc.assert(fc.property(arb, (x) => {
        const obj = dropUndefined(x);
        assert.deepEqual(decodeKubeProtobuf(encodeKubeProtobuf(obj)), obj);
      }));
    });
  }

  it('encode(decode(b)) == b for bytes that came from encode (a fixpoint, whatever the input JSON)', () => {
    const loose = fc.record({ kind: fc.constant('ConfigMap'), apiVersion: fc.constant('v1'),
      metadata: fc.record({ name: text, generateName: text, generation: fc.integer({ min: 0, max: 5 }) }),
      immutable: fc.boolean(), data: fc.dictionary(text, text) });
    fc.assert(fc.property(loose, (x) => {
      const bytes = encodeKubeProtobuf(x);
      assert.deepEqual(encodeKubeProtobuf(decodeKubeProtobuf(bytes)), bytes);
    }));
  });
});
