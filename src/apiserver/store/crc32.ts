// CRC-32 (IEEE) over bytes. Node's zlib.crc32 is native but arrived in 20.15;
// package.json allows 20.6, so older runtimes fall back to a table in JS.
import * as zlib from 'node:zlib';

let table: Uint32Array | undefined;

function crc32Js(data: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = (table[(crc ^ (data[i] ?? 0)) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const native = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

export const crc32: (data: Uint8Array) => number = native ? (data) => native(data) : crc32Js;

/** Exposed for the test that pins the fallback to the native result. */
export const crc32Fallback = crc32Js;
