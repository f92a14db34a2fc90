// Writing responses: JSON bodies, Status errors, and content negotiation.
import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { ApiError, toApiError } from '../../core/api-error.ts';

import { sendJson } from '../../http/json-response.ts';
import { levelled } from '../../observability/log-line.ts';

export { sendJson };

export function sendError(res: ServerResponse, err: unknown): void {
  const apiError = err instanceof ApiError ? err : logUnexpected(err);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const headers: Record<string, string> = {};
  if (apiError.details?.retryAfterSeconds) headers['Retry-After'] = String(apiError.details.retryAfterSeconds);
  sendJson(res, apiError.code, apiError.toStatus(), headers);
}

/** An unforeseen failure: the cause goes to stderr under a fresh id, the client gets kube's generic 500 with that id. */
function logUnexpected(err: unknown): ApiError {
  const requestId = randomUUID();
  console.error(levelled('error', 'a request failed unexpectedly', { event: 'request-failed', requestId, error: err instanceof Error ? err.stack ?? err.message : String(err) }));
  return toApiError(err, requestId);
}

export interface AcceptedType {
  type: string;
  params: Record<string, string>;
}

export function parseAccept(header: string | undefined): AcceptedType[] {
  if (!header) return [{ type: '*/*', params: {} }];
  return header.split(',').map((part) => {
    const [type = '', ...rest] = part.trim().split(';');
    const params: Record<string, string> = {};
    for (const p of rest) {
      const [k, v] = p.split('=');
      if (k && v !== undefined) params[k.trim()] = v.trim();
    }
    return { type: type.trim().toLowerCase(), params };
  });
}

/** What representation the client asked for on a resource request. */
export type ResourceFormat = 'json' | 'table' | 'partial-metadata';

export function negotiateResourceFormat(accept: string | undefined): ResourceFormat {
  for (const entry of parseAccept(accept)) {
    const jsonish = entry.type === 'application/json' || entry.type === '*/*' || entry.type === 'application/*' || entry.type === 'application/yaml';
    if (!jsonish) continue;
    if (entry.params.as === 'Table') {
      if (entry.params.g === 'meta.k8s.io' && (entry.params.v === 'v1' || entry.params.v === 'v1beta1')) return 'table';
      continue;
    }
    if (entry.params.as === 'PartialObjectMetadata' || entry.params.as === 'PartialObjectMetadataList') {
      if (entry.params.g === 'meta.k8s.io') return 'partial-metadata';
      continue;
    }
    if (entry.params.as) continue;
    return 'json';
  }
  throw new ApiError('NotAcceptable', 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
}
