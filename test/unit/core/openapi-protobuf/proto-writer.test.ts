import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ProtoWriter } from '../../../../src/core/openapi-protobuf/proto-writer.ts';
import { decodeMessage, MESSAGES } from './openapi-v2-decoder.ts';

/** Lone surrogates have no UTF-8 form; encodeURIComponent throws on them. */
const wellFormed = (s: string): boolean => {
  try {
    encodeURIComponent(s);
    return true;
  } catch {
    return false;
  }
};
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const written = (f: (w: ProtoWriter) => void): string => {
  const w = new ProtoWriter();
  f(w);
  const bytes = w.finish();
  assert.equal(bytes.length, w.length, 'length bookkeeping matches the bytes');
  return hex(bytes);
};

describe('ProtoWriter scalars (bytes computed by hand from the protobuf encoding spec)', () => {
  const cases: { name: string; write: (w: ProtoWriter) => void; want: string }[] = [
    { name: 'int64 1 at field 1', write: (w) => w.int64(1, 1), want: '0801' },
    { name: 'int64 127 (one byte)', write: (w) => w.int64(1, 127), want: '087f' },
    { name: 'int64 128 (two bytes)', write: (w) => w.int64(1, 128), want: '088001' },
    { name: 'int64 300', write: (w) => w.int64(1, 300), want: '08ac02' },
    { name: 'int64 2^32 (beyond 32-bit arithmetic)', write: (w) => w.int64(2, 2 ** 32), want: '108080808010' },
    { name: 'int64 2^53-1', write: (w) => w.int64(1, Number.MAX_SAFE_INTEGER), want: '08ffffffffffffff0f' },
    { name: 'int64 -1 takes ten bytes', write: (w) => w.int64(1, -1), want: '08ffffffffffffffffff01' },
    { name: 'double 1.5, little-endian fixed64', write: (w) => w.double(9, 1.5), want: '49000000000000f83f' },
    { name: 'double -0 is not the default and is written', write: (w) => w.double(1, -0), want: '090000000000000080' },
    { name: 'bool true', write: (w) => w.bool(4, true), want: '2001' },
    { name: 'string, ASCII', write: (w) => w.string(2, 'v1'), want: '12027631' },
    { name: 'string, UTF-8 length in bytes', write: (w) => w.string(1, 'é'), want: '0a02c3a9' },
    { name: 'field 16 needs a two-byte tag', write: (w) => w.string(16, 'a'), want: '820101' + '61' },
    { name: 'field 31 (Schema.vendor_extension) tag', write: (w) => w.string(31, 'a'), want: 'fa010161' },
    { name: 'oneof bool false is written', write: (w) => w.oneofBool(2, false), want: '1000' },
    { name: 'repeated string keeps empty elements', write: (w) => w.repeatedString(1, ['a', '', 'b']), want: '0a01610a000a0162' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(written(c.write), c.want));

  it('proto3 defaults are not written: "", 0, +0.0, false, undefined', () => {
    assert.equal(
      written((w) => {
        w.string(1, '');
        w.string(1, undefined);
        w.int64(2, 0);
        w.double(3, 0);
        w.bool(4, false);
        w.bool(4, undefined);
      }),
      '',
    );
  });

  it('a present sub-message is written even when empty; nesting carries lengths', () => {
    const inner = new ProtoWriter();
    assert.equal(written((w) => w.message(8, inner)), '4200');
    const leaf = new ProtoWriter();
    leaf.string(1, 'K');
    const mid = new ProtoWriter();
    mid.message(2, leaf);
    assert.equal(written((w) => w.message(2, mid)), '1205' + '1203' + '0a014b');
  });

  it('long strings (over the chunk threshold) and many nested chunks join correctly', () => {
    const long = 'x'.repeat(300) + 'é'.repeat(100);
    const w = new ProtoWriter();
    for (let i = 0; i < 50; i++) {
      const c = new ProtoWriter();
      c.string(1, long);
      w.message(1, c);
    }
    const out = w.finish();
    const decoded = decodeMessage(out, 'Definitions');
    assert.equal(decoded.additional_properties.length, 50);
    assert.equal(decoded.additional_properties[49].name, long);
  });

  it('property: int64 / double / string round-trip through the test decoder', () => {
    assert.ok(MESSAGES.Schema);
    fc.assert(
      fc.property(
        fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }).filter((n) => n !== 0),
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, 0)),
        fc.string({ unit: 'binary', minLength: 1 }).filter(wellFormed),
        (n, d, s) => {
          const w = new ProtoWriter();
          w.string(4, s); // Schema.description
          w.double(7, d); // Schema.maximum
          w.int64(11, n); // Schema.max_length
          const back = decodeMessage(w.finish(), 'Schema');
          assert.equal(back.description, s);
          assert.ok(Object.is(back.maximum, d));
          assert.equal(back.max_length, n);
        },
      ),
      { numRuns: 300 },
    );
  });
});
