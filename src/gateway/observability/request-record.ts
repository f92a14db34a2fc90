// What the chain learned about a request that observers need once it is over:
// its parsed info (tenant terms) and whether translation refused it. Kept
// behind typed accessors, like identity.ts, instead of loose keys on req.
import type { IncomingMessage } from 'node:http';
import type { RequestInfo } from '../../core/request-info.ts';

interface Record {
  info?: RequestInfo;
  translationError?: string;
}

const records = new WeakMap<IncomingMessage, Record>();

function recordOf(req: IncomingMessage): Record {
  let record = records.get(req);
  if (!record) {
    record = {};
    records.set(req, record);
  }
  return record;
}

export function noteRequestInfo(req: IncomingMessage, info: RequestInfo): void {
  recordOf(req).info = info;
}

export function requestInfoOf(req: IncomingMessage): RequestInfo | undefined {
  return records.get(req)?.info;
}

export function noteTranslationError(req: IncomingMessage, reason: string): void {
  recordOf(req).translationError = reason;
}

export function translationErrorOf(req: IncomingMessage): string | undefined {
  return records.get(req)?.translationError;
}
