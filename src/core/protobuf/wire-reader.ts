// Reads protobuf wire format. Every malformed input becomes a 400, never a crash,
// since request bodies come straight from clients.
import { badRequest } from '../api-error.ts';

export const WIRE = { varint: 0, fixed64: 1, bytes: 2, fixed32: 5 } as const;

export interface WireField {
  number: number;
  wireType: number;
  /** varint value (as unsigned 64-bit), or undefined for other wire types. */
  varint?: bigint;
  /** payload for length-delimited and fixed-width fields. */
  bytes?: Uint8Array;
}

export class WireReader {
  private pos = 0;
  constructor(private readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  varint(): bigint {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.pos >= this.buf.length) throw badRequest('protobuf: unexpected end of data in varint');
      const b = this.buf[this.pos++] as number;
      result |= BigInt(b & 0x7f) << shift;
      // More than 10 bytes cannot be a 64-bit varint.
      if ((b & 0x80) === 0) return BigInt.asUintN(64, result);
    }
    throw badRequest('protobuf: integer overflow in varint');
  }

  take(n: number): Uint8Array {
    if (n < 0 || this.pos + n > this.buf.length) throw badRequest('protobuf: unexpected end of data');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  field(): WireField {
    const key = this.varint();
    const number = Number(key >> 3n);
    const wireType = Number(key & 7n);
    if (number < 1 || number > 0x1fffffff) throw badRequest(`protobuf: illegal field number ${number}`);
    switch (wireType) {
      case WIRE.varint: return { number, wireType, varint: this.varint() };
      case WIRE.fixed64: return { number, wireType, bytes: this.take(8) };
      case WIRE.fixed32: return { number, wireType, bytes: this.take(4) };
      case WIRE.bytes: {
        const len = this.varint();
        if (len > BigInt(this.buf.length)) throw badRequest('protobuf: length exceeds data');
        return { number, wireType, bytes: this.take(Number(len)) };
      }
      default: throw badRequest(`protobuf: illegal wire type ${wireType} for field ${number}`);
    }
  }

  /** All fields of one message, in wire order. */
  static fields(buf: Uint8Array): WireField[] {
    const r = new WireReader(buf);
    const out: WireField[] = [];
    while (!r.done) out.push(r.field());
    return out;
  }
}
