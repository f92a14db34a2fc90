// Metrics and audit for every gateway request, taken when its response is over
// ('close': a proxied answer is still streaming when the handler returns).
// The request URI is captured on arrival, before the proxy rewrites req.url
// to the upstream path, and with the tenant base path (/tenants/<id>) removed:
// the audit log shows what the tenant would see against a cluster of its own.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestInfo } from '../../core/request-info.ts';
import { maybeTenantOf } from '../identity.ts';
import { splitTenantPath } from '../../tenants/tenant-url.ts';
import { isLongRunning } from '../fairness/long-running.ts';
import { buildAuditEvent } from './audit-event.ts';
import type { AuditLog } from './audit-log.ts';
import type { GatewayMetrics } from './gateway-metrics.ts';
import { metricVerbOf } from './metric-verb.ts';
import { requestInfoOf, translationErrorOf } from './request-record.ts';

export interface RequestObserver {
  /** At arrival, before anything else runs. */
  begin(req: IncomingMessage, res: ServerResponse): void;
  /** Once the request is admitted (authenticated, authorized, given a seat). */
  admitted(res: ServerResponse, tenantId: string, info: RequestInfo): void;
}

// Probes are neither traffic nor actions worth auditing (kube's default policies leave them out too).
const PROBES = /^\/(healthz|livez|readyz)(\/[a-z-]+)?\/?$/;
const PROBE_WORD = /healthz|livez|readyz/;

export function tenantViewUri(rawUrl: string): string {
  const url = new URL(rawUrl, 'https://gateway.invalid');
  const scoped = splitTenantPath(url.pathname);
  return `${scoped ? scoped.rest : url.pathname}${url.search}`;
}

export function createRequestObserver(deps: { metrics?: GatewayMetrics | undefined; audit?: AuditLog | undefined }): RequestObserver {
  const { metrics, audit } = deps;
  return {
    begin(req, res) {
      if (!metrics && !audit) return;
      const rawUrl = req.url ?? '/';
      // Parsed only when something reads it: a probe's name must be in the raw text (URL parsing
      // decodes no letters), and only the audit event carries the URI.
      if (PROBE_WORD.test(rawUrl) && PROBES.test(tenantViewUri(rawUrl).split('?')[0] ?? '')) return;
      const requestURI = audit ? tenantViewUri(rawUrl) : '';
      const received = new Date();
      const started = process.hrtime.bigint();
      const auditID = randomUUID();
      // kube answers every audited request with its Audit-ID, so a client can quote it.
      res.setHeader('Audit-ID', auditID);
      const method = req.method ?? 'GET';
      res.once('close', () => {
        const identity = maybeTenantOf(req);
        const info = requestInfoOf(req);
        // A response that never got its head (client gone, connection cut) sent no code: recorded as 0.
        const code = res.headersSent ? res.statusCode : 0;
        const failed = translationErrorOf(req);
        if (failed && identity) metrics?.translationError(identity.tenantId, failed);
        metrics?.request({
          tenant: identity?.tenantId,
          verb: metricVerbOf(method, info),
          resource: info?.isResourceRequest ? info.resource : '',
          code,
          seconds: Number(process.hrtime.bigint() - started) / 1e9,
          longRunning: info !== undefined && isLongRunning(info),
        });
        audit?.write(buildAuditEvent({
          auditID, requestURI, method, info, code, received, completed: new Date(),
          user: identity ? { tenantId: identity.tenantId, name: identity.user, groups: identity.groups, ...(identity.impersonatedBy ? { impersonatedBy: identity.impersonatedBy } : {}) } : undefined,
          sourceIP: req.socket.remoteAddress, userAgent: req.headers['user-agent'],
        }), identity?.tenantId);
      });
    },
    admitted(res, tenantId, info) {
      if (!metrics || info.verb !== 'watch') return;
      res.once('close', metrics.watchOpened(tenantId));
    },
  };
}
