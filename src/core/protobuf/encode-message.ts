// Encodes kube JSON into one proto message the way Go's generated marshallers do:
// fields in number order, map keys sorted, and every non-pointer field written even
// when unset (as its zero value), so our bytes match what kube itself would send.
import { badRequest } from '../api-error.ts';
import { messageFields, type FieldInfo, type ValueType } from './message-schema.ts';
import { WIRE } from './wire-reader.ts';
import { WireWriter } from './wire-writer.ts';

const utf8 = new TextEncoder();

function bad(f: FieldInfo, value: unknown): never {
  throw badRequest(`protobuf: cannot encode ${JSON.stringify(value)} into field ${f.json || f.number}`);
}

function writeScalar(w: WireWriter, number: number, scalar: string, value: unknown, f: FieldInfo): void {
  switch (scalar) {
    case 'string':
      if (typeof value !== 'string') bad(f, value);
      w.bytesField(number, utf8.encode(value));
      return;
    case 'bytes':
      if (typeof value !== 'string') bad(f, value);
      w.bytesField(number, Buffer.from(value, 'base64'));
      return;
    case 'bool':
      if (typeof value !== 'boolean') bad(f, value);
      w.key(number, WIRE.varint).varint(value ? 1n : 0n);
      return;
    case 'double':
    case 'float': {
      if (typeof value !== 'number') bad(f, value);
      const bytes = new Uint8Array(scalar === 'double' ? 8 : 4);
      const view = new DataView(bytes.buffer);
      if (scalar === 'double') view.setFloat64(0, value, true);
      else view.setFloat32(0, value, true);
      w.key(number, scalar === 'double' ? WIRE.fixed64 : WIRE.fixed32).raw(bytes);
      return;
    }
    default:
      if (typeof value !== 'number' || !Number.isInteger(value)) bad(f, value);
      w.key(number, WIRE.varint).varint(BigInt(value));
  }
}

function writeValue(w: WireWriter, number: number, type: ValueType, value: unknown, f: FieldInfo): void {
  if (type.kind === 'scalar') return writeScalar(w, number, type.scalar, value, f);
  const sub = new WireWriter();
  if (type.kind === 'special') type.special.encode(value, sub);
  else {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) bad(f, value);
    encodeFields(type.name, value as Record<string, unknown>, sub);
  }
  w.bytesField(number, sub.finish());
}

function zeroOf(type: ValueType): unknown {
  if (type.kind === 'scalar') return type.scalar === 'string' || type.scalar === 'bytes' ? '' : type.scalar === 'bool' ? false : 0;
  return type.kind === 'special' ? undefined : {};
}

export function encodeFields(fullName: string, obj: Record<string, unknown>, w: WireWriter): void {
  const fields = messageFields(fullName);
  if (!fields) throw badRequest(`protobuf: no schema for message ${fullName}`);
  for (const f of fields) {
    if (f.inline) {
      writeValue(w, f.number, f.type, obj, f);
      continue;
    }
    const value = obj[f.json];
    if (value === undefined || value === null) {
      const skip = f.noGo || f.pointer || f.repeated || f.mapKey !== undefined || (f.type.kind === 'scalar' && f.type.scalar === 'bytes') || (f.type.kind === 'special' && f.type.special.slice);
      if (skip) continue;
      // Zero special values (null Time, "0" Quantity) still go out as an empty message.
      if (f.type.kind === 'special') w.bytesField(f.number, new Uint8Array(0));
      else writeValue(w, f.number, f.type, zeroOf(f.type), f);
      continue;
    }
    if (f.mapKey !== undefined) {
      if (typeof value !== 'object' || Array.isArray(value)) bad(f, value);
      for (const key of Object.keys(value).sort()) {
        const entry = new WireWriter();
        writeScalar(entry, 1, f.mapKey, key, f);
        writeValue(entry, 2, f.type, (value as Record<string, unknown>)[key], f);
        w.bytesField(f.number, entry.finish());
      }
    } else if (f.repeated) {
      if (!Array.isArray(value)) bad(f, value);
      for (const item of value) writeValue(w, f.number, f.type, item, f);
    } else writeValue(w, f.number, f.type, value, f);
  }
}

export function encodeMessage(fullName: string, obj: Record<string, unknown>): Uint8Array {
  const w = new WireWriter();
  encodeFields(fullName, obj, w);
  return w.finish();
}
