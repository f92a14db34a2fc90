// Decodes one proto message into the JSON that kube-apiserver's Go types would
// marshal to. The trap: Go clients write every non-pointer field, so the wire
// carries "" and 0 for unset strings and ints; Go's JSON then drops them again
// when the field is omitempty and not a pointer. Pointers keep their zero
// (replicas: 0 must stay 0, not fall back to the default of 1).
import { setOwn } from '../patch/json-value.ts';
import { badRequest } from '../api-error.ts';
import { messageFields, type FieldInfo, type ValueType } from './message-schema.ts';
import { WIRE, WireReader, type WireField } from './wire-reader.ts';

const utf8 = new TextDecoder();
const MAX_DEPTH = 64;

export type NestedDecoder = (raw: Uint8Array) => unknown;

interface Ctx {
  nested: NestedDecoder;
  depth: number;
}

const OMIT = Symbol('omit');

function wrongType(f: FieldInfo, w: WireField): never {
  throw badRequest(`protobuf: field ${f.json || f.number} has wire type ${w.wireType}, which does not fit its type`);
}

function scalarOf(scalar: string, w: WireField, f: FieldInfo): unknown {
  if (scalar === 'string' || scalar === 'bytes') {
    if (!w.bytes || w.wireType !== WIRE.bytes) return wrongType(f, w);
    return scalar === 'string' ? utf8.decode(w.bytes) : Buffer.from(w.bytes).toString('base64');
  }
  if (scalar === 'double' || scalar === 'float') {
    if (!w.bytes || w.wireType === WIRE.bytes) return wrongType(f, w);
    const view = new DataView(w.bytes.buffer, w.bytes.byteOffset, w.bytes.byteLength);
    return scalar === 'double' ? view.getFloat64(0, true) : view.getFloat32(0, true);
  }
  if (w.varint === undefined) return wrongType(f, w);
  switch (scalar) {
    case 'bool': return w.varint !== 0n;
    case 'int32': return Number(BigInt.asIntN(32, w.varint));
    case 'uint32': return Number(BigInt.asUintN(32, w.varint));
    case 'uint64': return Number(w.varint);
    default: return Number(BigInt.asIntN(64, w.varint));
  }
}

/** Packed repeated numbers arrive as one length-delimited run; split it back into fields. */
function unpack(f: FieldInfo, w: WireField): WireField[] {
  if (f.type.kind !== 'scalar' || w.wireType !== WIRE.bytes || ['string', 'bytes'].includes(f.type.scalar)) return [w];
  const r = new WireReader(w.bytes as Uint8Array);
  const width = f.type.scalar === 'double' ? 8 : f.type.scalar === 'float' ? 4 : 0;
  const out: WireField[] = [];
  while (!r.done) out.push(width ? { number: w.number, wireType: width === 8 ? WIRE.fixed64 : WIRE.fixed32, bytes: r.take(width) } : { number: w.number, wireType: WIRE.varint, varint: r.varint() });
  return out;
}

function valueOf(type: ValueType, w: WireField, f: FieldInfo, ctx: Ctx): unknown {
  if (type.kind === 'scalar') return scalarOf(type.scalar, w, f);
  if (!w.bytes || w.wireType !== WIRE.bytes) return wrongType(f, w);
  if (type.kind === 'special') return type.special.decode(w.bytes, ctx.nested);
  return decodeFields(type.name, w.bytes, { ...ctx, depth: ctx.depth + 1 });
}

function isZero(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

function mapOf(f: FieldInfo, entries: WireField[], ctx: Ctx): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const e of entries) {
    if (!e.bytes || e.wireType !== WIRE.bytes) wrongType(f, e);
    let key: unknown = '';
    let value: unknown;
    for (const part of WireReader.fields(e.bytes as Uint8Array)) {
      if (part.number === 1) key = scalarOf(f.mapKey as string, part, f);
      else if (part.number === 2) value = valueOf(f.type, part, f, ctx);
    }
    // A missing value is the Go zero value of the map's value type.
    if (value === undefined) value = f.type.kind === 'scalar' ? (f.type.scalar === 'string' || f.type.scalar === 'bytes' ? '' : 0) : f.type.kind === 'special' ? f.type.special.zero : {};
    // Map keys come from the wire: define them as own properties, so "__proto__" is just a key.
    setOwn(out, String(key), value);
  }
  return out;
}

/** JSON of a field the wire left out: what Go's encoder prints for the zero value. */
function absent(f: FieldInfo, ctx: Ctx): unknown {
  if (f.noGo) return OMIT;
  const sliceLike = f.pointer || f.repeated || f.mapKey !== undefined || (f.type.kind === 'scalar' && f.type.scalar === 'bytes') || (f.type.kind === 'special' && f.type.special.slice);
  if (sliceLike) return f.omitempty ? OMIT : null;
  if (f.type.kind === 'scalar') return f.omitempty ? OMIT : f.type.scalar === 'string' ? '' : f.type.scalar === 'bool' ? false : 0;
  // Go's omitempty never drops a struct.
  if (f.type.kind === 'special') return f.type.special.zero;
  return decodeFields(f.type.name, new Uint8Array(0), { ...ctx, depth: ctx.depth + 1 });
}

export function decodeFields(fullName: string, bytes: Uint8Array, ctx: Ctx): Record<string, unknown> {
  if (ctx.depth > MAX_DEPTH) throw badRequest('protobuf: message nesting too deep');
  const fields = messageFields(fullName);
  if (!fields) throw badRequest(`protobuf: no schema for message ${fullName}`);
  const byNumber = new Map<number, WireField[]>();
  for (const w of WireReader.fields(bytes)) {
    const list = byNumber.get(w.number);
    if (list) list.push(w);
    else byNumber.set(w.number, [w]);
  }
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const wire = byNumber.get(f.number);
    if (f.inline) {
      Object.assign(out, decodeFields((f.type as { name: string }).name, wire?.at(-1)?.bytes ?? new Uint8Array(0), { ...ctx, depth: ctx.depth + 1 }));
      continue;
    }
    let value: unknown;
    if (!wire) value = absent(f, ctx);
    else if (f.mapKey !== undefined) value = mapOf(f, wire, ctx);
    else if (f.repeated) value = wire.flatMap((w) => unpack(f, w)).map((w) => valueOf(f.type, w, f, ctx));
    else {
      // Last one wins for a repeated singular field, as in proto.
      value = valueOf(f.type, wire.at(-1) as WireField, f, ctx);
      if (f.type.kind === 'scalar' && isZero(value) && f.omitempty && !f.pointer) value = OMIT;
      if (f.type.kind === 'special' && f.type.special.slice && (value as unknown[]).length === 0 && f.omitempty) value = OMIT;
    }
    if (value !== OMIT) out[f.json] = value;
  }
  return out;
}

export function decodeMessage(fullName: string, bytes: Uint8Array, nested: NestedDecoder): Record<string, unknown> {
  return decodeFields(fullName, bytes, { nested, depth: 0 });
}
