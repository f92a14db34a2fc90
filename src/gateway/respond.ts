// Writing gateway responses. Errors always leave in tenant terms: anything the
// gateway builds already is; anything else is scrubbed of tenant prefixes.
import type { ServerResponse } from 'node:http';
import type { ApiError } from '../core/api-error.ts';
import { toTenantStatus } from '../core/tenancy/status-translation.ts';
import { sendJson } from '../http/json-response.ts';

export { sendJson as sendJsonBody } from '../http/json-response.ts';

/** Whose terms an error is written in: the tenant's id, and which other ids are tenants' (to hide their names). */
export interface ErrorAudience {
  id: string;
  isTenantId?: (id: string) => boolean;
}

export function sendGatewayError(res: ServerResponse, err: ApiError, audience: ErrorAudience | undefined): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const status = err.toStatus();
  const body = audience ? toTenantStatus(audience.id, status, audience.isTenantId) : status;
  const headers: Record<string, string> = {};
  if (err.details?.retryAfterSeconds) headers['Retry-After'] = String(err.details.retryAfterSeconds);
  sendJson(res, err.code, body, headers);
}
