// Messages whose JSON form is not "an object of their fields": Go gives these types
// their own MarshalJSON, so the wire message and the JSON value differ in shape.
import { badRequest } from '../api-error.ts';
import { formatGoDuration, parseGoDuration } from './go-duration.ts';
import { formatMicroTime, formatTime, parseRfc3339, type Timestamp } from './rfc3339.ts';
import { WIRE, WireReader } from './wire-reader.ts';
import type { WireWriter } from './wire-writer.ts';

export interface SpecialType {
  decode(payload: Uint8Array, nested: (raw: Uint8Array) => unknown): unknown;
  /** Writes the message body for a JSON value (never null or undefined). */
  encode(value: unknown, w: WireWriter): void;
  /** JSON of the Go zero value, for a non-pointer field the wire left out. */
  zero: unknown;
  /** The Go type is a slice (named []string): nil is null, and omitempty drops it. */
  slice?: boolean;
}

const utf8 = new TextDecoder();
const utf8Out = new TextEncoder();
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
export const MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

function stringsOf(payload: Uint8Array, number: number): string[] {
  return WireReader.fields(payload).filter((f) => f.number === number && f.bytes).map((f) => utf8.decode(f.bytes));
}

function varintOf(payload: Uint8Array, number: number): bigint {
  let v = 0n;
  for (const f of WireReader.fields(payload)) if (f.number === number && f.varint !== undefined) v = f.varint;
  return v;
}

function expect<T>(ok: boolean, value: unknown, what: string): T {
  if (!ok) throw badRequest(`protobuf: cannot encode ${JSON.stringify(value)} as ${what}`);
  return value as T;
}

function timestampOf(payload: Uint8Array): Timestamp | undefined {
  if (payload.length === 0) return undefined;
  return { seconds: BigInt.asIntN(64, varintOf(payload, 1)), nanos: Number(BigInt.asIntN(32, varintOf(payload, 2))) };
}

function encodeTimestamp(value: unknown, w: WireWriter, micro: boolean): void {
  const ts = parseRfc3339(expect<string>(typeof value === 'string', value, 'a time'));
  // Time keeps whole seconds (Go drops nanos when reading); MicroTime keeps microseconds.
  const nanos = micro ? ts.nanos - (ts.nanos % 1000) : 0;
  w.key(1, WIRE.varint).varint(ts.seconds).key(2, WIRE.varint).varint(BigInt(nanos));
}

/** Raw JSON bytes (RawExtension, FieldsV1), or a nested k8s protobuf object. */
function rawJson(payload: Uint8Array, nested: (raw: Uint8Array) => unknown): unknown {
  const raw = WireReader.fields(payload).filter((f) => f.number === 1 && f.bytes).at(-1)?.bytes;
  if (!raw) return null;
  if (raw.length >= 4 && MAGIC.every((b, i) => raw[i] === b)) return nested(raw);
  try {
    return JSON.parse(utf8.decode(raw));
  } catch {
    throw badRequest('protobuf: embedded raw object is not valid JSON');
  }
}

const stringList: SpecialType = {
  decode: (payload) => stringsOf(payload, 1),
  encode(value, w) {
    for (const s of expect<unknown[]>(Array.isArray(value), value, 'a list of strings')) {
      w.bytesField(1, utf8Out.encode(expect<string>(typeof s === 'string', s, 'a string')));
    }
  },
  zero: null,
  slice: true,
};

const rawExtension: SpecialType = {
  decode: rawJson,
  encode: (value, w) => void w.bytesField(1, utf8Out.encode(JSON.stringify(value))),
  zero: null,
};

export const SPECIAL_TYPES: ReadonlyMap<string, SpecialType> = new Map<string, SpecialType>([
  ['k8s.io.apimachinery.pkg.api.resource.Quantity', {
    decode: (payload) => stringsOf(payload, 1).at(-1) || '0',
    encode: (value, w) => void w.bytesField(1, utf8Out.encode(expect<string>(typeof value === 'string' || typeof value === 'number', value, 'a quantity').toString())),
    zero: '0',
  }],
  ['k8s.io.apimachinery.pkg.util.intstr.IntOrString', {
    decode(payload) {
      if (varintOf(payload, 1) === 1n) return stringsOf(payload, 3).at(-1) ?? '';
      return Number(BigInt.asIntN(32, varintOf(payload, 2)));
    },
    encode(value, w) {
      // Go writes all three fields whatever the type.
      const isString = typeof value === 'string';
      expect(isString || Number.isInteger(value), value, 'an int or string');
      w.key(1, WIRE.varint).varint(isString ? 1n : 0n);
      w.key(2, WIRE.varint).varint(isString ? 0n : BigInt(value as number));
      w.bytesField(3, utf8Out.encode(isString ? value : ''));
    },
    zero: 0,
  }],
  [`${META}.Time`, {
    decode: (payload) => { const ts = timestampOf(payload); return ts ? formatTime(ts) : null; },
    encode: (value, w) => encodeTimestamp(value, w, false),
    zero: null,
  }],
  [`${META}.MicroTime`, {
    decode: (payload) => { const ts = timestampOf(payload); return ts ? formatMicroTime(ts) : null; },
    encode: (value, w) => encodeTimestamp(value, w, true),
    zero: null,
  }],
  [`${META}.Duration`, {
    decode: (payload) => formatGoDuration(BigInt.asIntN(64, varintOf(payload, 1))),
    encode: (value, w) => void w.key(1, WIRE.varint).varint(parseGoDuration(expect<string>(typeof value === 'string', value, 'a duration'))),
    zero: '0s',
  }],
  [`${META}.FieldsV1`, rawExtension],
  ['k8s.io.apimachinery.pkg.runtime.RawExtension', rawExtension],
  // Named []string types become one-field wrapper messages on the wire.
  [`${META}.Verbs`, stringList],
  ['k8s.io.api.authentication.v1.ExtraValue', stringList],
  ['k8s.io.api.authorization.v1.ExtraValue', stringList],
  ['k8s.io.api.certificates.v1.ExtraValue', stringList],
]);
