// The log line format is on disk: encodeRecord writes straight into its buffer,
// so pin it to the format's plain definition (crc TAB header TAB json LF) and to
// decodeRecord, for any text, including multi-byte and lone surrogates.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeRecord, encodeRecord, type LogRecord } from '../../../../src/apiserver/store/record-codec.ts';
import { crc32 } from '../../../../src/apiserver/store/crc32.ts';

function referenceEncode(r: LogRecord): Buffer {
  const payload = Buffer.from(`${JSON.stringify([r.revision, r.type, r.resource, r.namespace, r.name])}\t${r.json}`);
  return Buffer.concat([Buffer.from(`${crc32(payload).toString(16).padStart(8, '0')}\t`, 'latin1'), payload, Buffer.from('\n')]);
}

const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('\ud800', 'a', '\u00e9', '\t') }));
const record = fc.record({
  revision: fc.integer({ min: 0, max: 2 ** 40 }),
  type: fc.constantFrom('A', 'M', 'D', 'S', 'R') as fc.Arbitrary<LogRecord['type']>,
  resource: text, namespace: text, name: text,
  json: fc.oneof(fc.constant(''), fc.json(), fc.jsonValue().map((v) => JSON.stringify(v))),
});

describe('record codec', () => {
  it('encodes byte for byte as the format says', () => {
    fc.assert(fc.property(record, (r) => {
      assert.deepEqual(encodeRecord(r), referenceEncode(r));
    }), { numRuns: 500 });
  });
  it('decodes what it encodes', () => {
    fc.assert(fc.property(record.filter((r) => !r.json.includes('\n')), (r) => {
      const line = encodeRecord(r);
      const back = decodeRecord(line, 0, line.length - 1);
      // The header is JSON (lone surrogates escaped, so they come back); the object text is UTF-8 as is.
      assert.deepEqual(back, { ...r, json: Buffer.from(r.json).toString() });
    }), { numRuns: 500 });
  });
  it('rejects a line whose payload was altered', () => {
    const line = encodeRecord({ revision: 7, type: 'A', resource: 'configmaps', namespace: 'ns', name: 'a', json: '{"a":1}' });
    line[line.length - 3] = 0x32; // '1' -> '2'
    assert.equal(decodeRecord(line, 0, line.length - 1), undefined);
  });
});
