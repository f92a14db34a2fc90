// Writes protobuf wire format, appending into a growable buffer.
import { WIRE } from './wire-reader.ts';

export class WireWriter {
  private buf = new Uint8Array(256);
  private len = 0;

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  raw(bytes: Uint8Array): this {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
    return this;
  }

  /** Negative values are written as their 64-bit two's complement, as Go does for int32 and int64. */
  varint(value: bigint): this {
    let v = BigInt.asUintN(64, value);
    this.ensure(10);
    while (v >= 0x80n) {
      this.buf[this.len++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.len++] = Number(v);
    return this;
  }

  key(number: number, wireType: number): this {
    return this.varint((BigInt(number) << 3n) | BigInt(wireType));
  }

  bytesField(number: number, bytes: Uint8Array): this {
    return this.key(number, WIRE.bytes).varint(BigInt(bytes.length)).raw(bytes);
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}
