// One line per record, in the write-ahead log and in snapshots:
//
//   <crc32 as 8 hex digits> TAB <header JSON> TAB <object JSON> LF
//
// header = [revision, type, resource, namespace, name], type one of
// A(dded), M(odified), D(eleted), S(napshot object) or R (snapshot revision,
// the first line of a snapshot). The CRC covers everything between the first
// TAB and the LF. JSON.stringify never emits a raw TAB or LF, so both are safe
// separators, and the object JSON is stored as is: replay never parses objects.
import { crc32 } from './crc32.ts';

export type RecordType = 'A' | 'M' | 'D' | 'S' | 'R';

export interface LogRecord {
  revision: number;
  type: RecordType;
  resource: string;
  namespace: string;
  name: string;
  /** '' for D and R. */
  json: string;
}

const TAB = 0x09;
const LF = 0x0a;

export function encodeRecord(r: LogRecord): Buffer {
  // Encoded straight into the line buffer (no joined string, no second copy): this runs on every write.
  const header = JSON.stringify([r.revision, r.type, r.resource, r.namespace, r.name]);
  const headerBytes = Buffer.byteLength(header);
  const payloadBytes = headerBytes + 1 + Buffer.byteLength(r.json);
  const line = Buffer.allocUnsafe(payloadBytes + 10);
  line.write(header, 9, 'utf8');
  line[9 + headerBytes] = TAB;
  line.write(r.json, 10 + headerBytes, 'utf8');
  line.write(crc32(line.subarray(9, 9 + payloadBytes)).toString(16).padStart(8, '0'), 0, 'latin1');
  line[8] = TAB;
  line[line.length - 1] = LF;
  return line;
}

/** Decodes one line (without its LF); undefined when the checksum or the shape is wrong. */
export function decodeRecord(buf: Buffer, start: number, end: number): LogRecord | undefined {
  if (end - start < 10 || buf[start + 8] !== TAB) return undefined;
  const expected = Number.parseInt(buf.toString('latin1', start, start + 8), 16);
  const payload = buf.subarray(start + 9, end);
  if (!Number.isFinite(expected) || crc32(payload) !== expected) return undefined;
  const tab = payload.indexOf(TAB);
  if (tab < 0) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(payload.toString('utf8', 0, tab));
  } catch {
    return undefined;
  }
  if (!Array.isArray(header) || header.length !== 5) return undefined;
  const [revision, type, resource, namespace, name] = header as unknown[];
  if (typeof revision !== 'number' || typeof type !== 'string' || !'AMDSR'.includes(type) || type.length !== 1) return undefined;
  if (typeof resource !== 'string' || typeof namespace !== 'string' || typeof name !== 'string') return undefined;
  return { revision, type: type as RecordType, resource, namespace, name, json: payload.toString('utf8', tab + 1) };
}

export interface ReadResult {
  /** Byte length of the valid prefix: everything after it is a torn or corrupt tail. */
  validLength: number;
  /** Why the tail was cut, when it was. */
  tail?: 'torn' | 'corrupt';
}

/**
 * Reads records from a file's bytes, in chunks so that a log larger than V8's maximum string length
 * still replays. A final line without LF (a write cut short) or failing its checksum ends the read.
 * A bad line followed by good ones is not a torn write but damage: `onCorruptMiddle` decides.
 */
export function readRecords(
  readChunk: (position: number, into: Buffer) => number,
  onRecord: (record: LogRecord) => void,
  onCorruptMiddle: (offset: number) => void,
): ReadResult {
  let chunk = Buffer.alloc(16 * 1024 * 1024);
  let filled = 0; // bytes of `chunk` in use
  let fileOffset = 0; // file offset of chunk[0]
  let eof = false;
  let badAt: number | undefined;
  while (true) {
    if (!eof && filled < chunk.length) {
      const n = readChunk(fileOffset + filled, chunk.subarray(filled));
      if (n === 0) eof = true;
      filled += n;
    }
    let lineStart = 0;
    while (true) {
      const lf = chunk.indexOf(LF, lineStart);
      if (lf < 0 || lf >= filled) break;
      const record = decodeRecord(chunk, lineStart, lf);
      if (!record) {
        if (badAt === undefined) badAt = fileOffset + lineStart;
      } else {
        if (badAt !== undefined) onCorruptMiddle(badAt);
        onRecord(record);
      }
      lineStart = lf + 1;
    }
    // Keep the unfinished line at the front of the buffer, growing it if one line fills it all.
    const rest = filled - lineStart;
    if (eof) {
      const validLength = badAt ?? fileOffset + lineStart;
      if (badAt !== undefined) return { validLength, tail: 'corrupt' };
      return rest > 0 ? { validLength, tail: 'torn' } : { validLength };
    }
    if (lineStart === 0 && filled === chunk.length) {
      const bigger = Buffer.alloc(chunk.length * 2);
      chunk.copy(bigger, 0, 0, filled);
      chunk = bigger;
    } else {
      chunk.copy(chunk, 0, lineStart, filled);
      fileOffset += lineStart;
      filled = rest;
    }
  }
}
