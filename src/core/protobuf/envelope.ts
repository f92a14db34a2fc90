// The k8s protobuf envelope: 4 magic bytes "k8s\0", then a runtime.Unknown
// {typeMeta=1 {apiVersion=1, kind=2}, raw=2, contentEncoding=3, contentType=4}
// whose raw holds the object's own message.
import { badRequest } from '../api-error.ts';
import { MAGIC } from './special-types.ts';
import { WireReader } from './wire-reader.ts';
import { WireWriter } from './wire-writer.ts';

export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

const utf8 = new TextDecoder();
const utf8Out = new TextEncoder();

export function openEnvelope(bytes: Uint8Array): Envelope {
  // Messages as in k8s.io/apimachinery/pkg/runtime/serializer/protobuf.
  if (bytes.length === 0) throw badRequest('empty data');
  if (bytes.length < MAGIC.length || !MAGIC.every((b, i) => bytes[i] === b)) {
    throw badRequest('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  }
  if (bytes.length === MAGIC.length) throw badRequest('empty body');
  const env: Envelope = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentEncoding: '', contentType: '' };
  for (const f of WireReader.fields(bytes.subarray(MAGIC.length))) {
    if (!f.bytes) continue;
    if (f.number === 1) {
      for (const t of WireReader.fields(f.bytes)) {
        if (t.number === 1 && t.bytes) env.apiVersion = utf8.decode(t.bytes);
        if (t.number === 2 && t.bytes) env.kind = utf8.decode(t.bytes);
      }
    } else if (f.number === 2) env.raw = f.bytes;
    else if (f.number === 3) env.contentEncoding = utf8.decode(f.bytes);
    else if (f.number === 4) env.contentType = utf8.decode(f.bytes);
  }
  return env;
}

export function sealEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  const typeMeta = new WireWriter().bytesField(1, utf8Out.encode(apiVersion)).bytesField(2, utf8Out.encode(kind)).finish();
  // Go writes contentEncoding and contentType even when empty.
  const unknown = new WireWriter().bytesField(1, typeMeta).bytesField(2, raw).bytesField(3, new Uint8Array(0)).bytesField(4, new Uint8Array(0)).finish();
  return new WireWriter().raw(MAGIC).raw(unknown).finish();
}
