// Hand-built protobuf bytes for tests, written independently of the encoder under test.
export type Bytes = number[];

export function varint(v: number | bigint): Bytes {
  let x = BigInt.asUintN(64, BigInt(v));
  const out: Bytes = [];
  while (x >= 0x80n) { out.push(Number(x & 0x7fn) | 0x80); x >>= 7n; }
  out.push(Number(x));
  return out;
}

export const int = (n: number, v: number | bigint): Bytes => [...varint(n * 8), ...varint(v)];
export const msg = (n: number, ...parts: Bytes[]): Bytes => { const body = parts.flat(); return [...varint(n * 8 + 2), ...varint(body.length), ...body]; };
export const str = (n: number, s: string): Bytes => msg(n, [...new TextEncoder().encode(s)]);
export const raw = (n: number, b: Uint8Array): Bytes => msg(n, [...b]);
export const entry = (n: number, key: string, value: Bytes): Bytes => msg(n, str(1, key), value);

/** "k8s\0" + runtime.Unknown{typeMeta{apiVersion, kind}, raw}. */
export function envelope(apiVersion: string, kind: string, ...body: Bytes[]): Uint8Array {
  return Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...msg(1, str(1, apiVersion), str(2, kind)), ...msg(2, ...body)]);
}
