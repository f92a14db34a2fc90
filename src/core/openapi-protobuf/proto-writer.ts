// A minimal protobuf wire-format writer (proto3 rules) for hand-written
// encoders. A message is built as a list of byte chunks so that nesting a
// child costs no copy: the child's chunks move into the parent, and the bytes
// are joined once, at the top.
//
// proto3 semantics, as Go's proto.Marshal applies them: scalar fields holding
// their zero value ("", 0, false) are not written; a present sub-message is
// written even when empty; fields go out in the order the encoder writes them
// (our encoders write in field-number order, as generated Go code does).

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LEN = 2;

const utf8 = new TextEncoder();
// Strings that are plain ASCII (almost all of a swagger document) skip the
// TextEncoder and go byte by byte into the pending buffer.
const ASCII = /^[^\u0080-\uffff]*$/;

export class ProtoWriter {
  private chunks: Uint8Array[] = [];
  private pending: number[] = [];
  /** Total encoded length so far, in bytes. */
  length = 0;

  private byte(b: number): void {
    this.pending.push(b);
    this.length++;
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.chunks.push(Uint8Array.from(this.pending));
    this.pending = [];
  }

  private raw(bytes: Uint8Array): void {
    if (bytes.length < 64) {
      for (const b of bytes) this.pending.push(b);
    } else {
      this.flush();
      this.chunks.push(bytes);
    }
    this.length += bytes.length;
  }

  /** Unsigned varint; n must be a non-negative safe integer. */
  private varint(n: number): void {
    while (n > 0x7f) {
      this.byte((n % 0x80) | 0x80);
      n = Math.floor(n / 0x80);
    }
    this.byte(n);
  }

  private tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  string(field: number, value: string | undefined): void {
    if (!value) return;
    this.tag(field, WIRE_LEN);
    if (ASCII.test(value)) {
      this.varint(value.length);
      for (let i = 0; i < value.length; i++) this.pending.push(value.charCodeAt(i));
      this.length += value.length;
      return;
    }
    const bytes = utf8.encode(value);
    this.varint(bytes.length);
    this.raw(bytes);
  }

  /** Every element is written, empty strings included (repeated fields keep them). */
  repeatedString(field: number, values: readonly string[] | undefined): void {
    for (const v of values ?? []) {
      if (v === '') {
        this.tag(field, WIRE_LEN);
        this.byte(0);
      } else {
        this.string(field, v);
      }
    }
  }

  bool(field: number, value: boolean | undefined): void {
    if (!value) return;
    this.tag(field, WIRE_VARINT);
    this.byte(1);
  }

  /** A bool member of a oneof: it has presence, so false is written too. */
  oneofBool(field: number, value: boolean): void {
    this.tag(field, WIRE_VARINT);
    this.byte(value ? 1 : 0);
  }

  /** int64 as a varint; negative values take ten bytes (two's complement), as in Go. */
  int64(field: number, value: number | undefined): void {
    if (!value) return;
    this.tag(field, WIRE_VARINT);
    if (value > 0) {
      this.varint(value);
      return;
    }
    let big = BigInt.asUintN(64, BigInt(value));
    while (big > 0x7fn) {
      this.byte(Number(big & 0x7fn) | 0x80);
      big >>= 7n;
    }
    this.byte(Number(big));
  }

  /** double as fixed64, little-endian IEEE 754. */
  double(field: number, value: number | undefined): void {
    // +0 is proto3's default and is not written; -0 has other bits, so Go writes it.
    if (value === undefined || Object.is(value, 0)) return;
    this.tag(field, WIRE_FIXED64);
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setFloat64(0, value, true);
    for (const b of bytes) this.byte(b);
  }

  /** A present sub-message: written even when it has no fields. */
  message(field: number, child: ProtoWriter): void {
    this.tag(field, WIRE_LEN);
    this.varint(child.length);
    child.flush();
    this.flush();
    for (const c of child.chunks) this.chunks.push(c);
    this.length += child.length;
  }

  finish(): Uint8Array {
    this.flush();
    if (this.chunks.length === 1 && this.chunks[0]) return this.chunks[0];
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}
