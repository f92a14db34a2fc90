// Bodies captured from kubectl 1.33 `kubectl create ...` (typed clients send protobuf),
// with the JSON that the same kubectl prints for `--dry-run=client -o json`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decodeKubeProtobuf, encodeKubeProtobuf } from '../../../../src/core/protobuf/index.ts';

const dir = new URL('../../../fixtures/protobuf/', import.meta.url);
const fixtures = ['namespace', 'configmap', 'secret', 'deployment'];

describe('kubectl 1.33 protobuf bodies', () => {
  for (const name of fixtures) {
    const bytes = readFileSync(new URL(`${name}-kubectl-1.33.pb`, dir));
    const json = JSON.parse(readFileSync(new URL(`${name}-kubectl-1.33.json`, dir), 'utf8'));
    it(`${name}: decodes to the JSON kubectl itself prints`, () => assert.deepEqual(decodeKubeProtobuf(bytes), json));
    it(`${name}: encoding that JSON gives kubectl's bytes back exactly`, () => assert.deepEqual(Buffer.from(encodeKubeProtobuf(json)), bytes));
  }
});
