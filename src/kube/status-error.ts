// A non-2xx answer from the upstream, as the ApiError it carries. The message
// is the upstream's own: callers that show it to a tenant translate it first
// (core/tenancy/status-translation.ts).
import { ApiError, REASON_CODES, type StatusReason } from '../core/api-error.ts';
import { isObject } from '../core/types.ts';
import type { StatusDetails } from '../core/types.ts';

export function statusError(status: number, body: unknown): ApiError {
  const s = isObject(body) && body.kind === 'Status' ? body : undefined;
  const reason = typeof s?.reason === 'string' && s.reason in REASON_CODES ? (s.reason as StatusReason) : reasonForCode(status);
  const message = typeof s?.message === 'string' ? s.message : `the upstream apiserver answered ${status}`;
  return new ApiError(reason, message, isObject(s?.details) ? (s.details as StatusDetails) : undefined, status);
}

function reasonForCode(code: number): StatusReason {
  const match = Object.entries(REASON_CODES).find(([, c]) => c === code);
  return match ? (match[0] as StatusReason) : 'InternalError';
}
