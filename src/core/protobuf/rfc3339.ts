// metav1.Time and metav1.MicroTime: {seconds, nanos} on the wire; RFC 3339 in UTC in
// JSON, at second precision for Time and microsecond precision for MicroTime.
import { badRequest } from '../api-error.ts';

export interface Timestamp {
  seconds: bigint;
  nanos: number;
}

function base(seconds: bigint): string {
  const ms = Number(seconds) * 1000;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) throw badRequest(`protobuf: timestamp ${seconds}s out of range`);
  return new Date(ms).toISOString().slice(0, 19);
}

/** Go's Time.Unmarshal drops the nanoseconds, so Time JSON is second-precision. */
export function formatTime(ts: Timestamp): string {
  return `${base(ts.seconds)}Z`;
}

export function formatMicroTime(ts: Timestamp): string {
  const micros = Math.floor(ts.nanos / 1000).toString().padStart(6, '0');
  return `${base(ts.seconds)}.${micros}Z`;
}

const RFC3339 = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/i;

export function parseRfc3339(text: string): Timestamp {
  const m = RFC3339.exec(text);
  const ms = m ? Date.parse(`${m[1]}${(m[3] as string).toUpperCase()}`) : NaN;
  if (!m || Number.isNaN(ms)) throw badRequest(`parsing time "${text}" as RFC 3339 failed`);
  const nanos = m[2] ? Number(m[2].padEnd(9, '0')) : 0;
  return { seconds: BigInt(Math.floor(ms / 1000)), nanos };
}
