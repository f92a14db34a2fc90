// Fuzzing body decoding: any bytes under any content type decode or are
// refused with a Status (400/415), never a crash; JSON and YAML round-trip.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { stringify as toYaml } from 'yaml';
import { decodeBody } from '../../../src/http/request-body.ts';
import { RUNS, nastyString, refusedOnlyWithStatus } from './fuzz-helpers.ts';

const TYPES = [undefined, '', 'application/json', 'application/json; charset=utf-8', 'application/yaml', 'application/apply-patch+yaml', 'text/yaml',
  'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/json-patch+json', 'application/vnd.kubernetes.protobuf', 'application/cbor', 'text/plain', ';;;'];
const EXPECTED = [undefined, { group: '', version: 'v1', kind: 'ConfigMap' }, { group: 'apps', version: 'v1', kind: 'Deployment' }];

// Protobuf's envelope starts with these four bytes: give the decoder inputs that get past the magic.
const K8S_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
  fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.concat([K8S_MAGIC, Buffer.from(a)])),
  fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
  nastyString.map((s) => Buffer.from(s)),
  fc.constantFrom('&a [*a, *a]', 'a: &x [*x]', '--- !!binary', '{"a":', '\uFEFF{}', 'key: [unclosed', '? complex\n: key').map((s) => Buffer.from(s)),
);

describe('fuzz: request body decoding', () => {
  it('any bytes, any content type: a value or a Status', () => {
    fc.assert(fc.property(bytes, fc.constantFrom(...TYPES), fc.constantFrom(...EXPECTED), (body, type, expected) => {
      refusedOnlyWithStatus(() => decodeBody(body, type, expected));
    }), { numRuns: 3_000 });
  });

  it('round trip: a JSON object decodes to itself as JSON and as YAML', () => {
    const obj = fc.dictionary(fc.string({ minLength: 1 }), fc.jsonValue({ maxDepth: 3 }), { noNullPrototype: true });
    fc.assert(fc.property(obj, (value) => {
      const canonical: unknown = JSON.parse(JSON.stringify(value));
      assert.deepEqual(decodeBody(Buffer.from(JSON.stringify(value)), 'application/json'), canonical);
      assert.deepEqual(decodeBody(Buffer.from(toYaml(canonical)), 'application/yaml'), canonical);
    }), RUNS);
  });
});
