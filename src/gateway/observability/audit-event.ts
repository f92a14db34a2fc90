// One audit.k8s.io/v1 Event at level Metadata, stage ResponseComplete, built
// from what the tenant sent and saw: the request URI and objectRef are the
// tenant's view (never the upstream's prefixed names), the user is the tenant
// user with the tenant id in extra["warren.dev/tenant"].
import type { RequestInfo } from '../../core/request-info.ts';

export const TENANT_EXTRA = 'warren.dev/tenant';

export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: 'Metadata';
  auditID: string;
  stage: 'ResponseComplete';
  requestURI: string;
  verb: string;
  user: { username: string; groups: string[]; extra?: Record<string, string[]> };
  /** Present when the request ran as an impersonated identity; `user` is then who asked for it, as in kube. */
  impersonatedUser?: { username: string; groups: string[]; extra?: Record<string, string[]> };
  sourceIPs: string[];
  userAgent?: string;
  objectRef?: { resource?: string; namespace?: string; name?: string; apiGroup?: string; apiVersion?: string; subresource?: string };
  responseStatus: { metadata: Record<string, never>; code: number; status?: 'Failure' };
  requestReceivedTimestamp: string;
  stageTimestamp: string;
}

export interface AuditFacts {
  auditID: string;
  /** Path and query as the tenant would write them against its own cluster. */
  requestURI: string;
  method: string;
  info: RequestInfo | undefined;
  user: { tenantId: string; name: string; groups: string[]; impersonatedBy?: { user: string; groups: string[] } } | undefined;
  sourceIP: string | undefined;
  userAgent: string | undefined;
  code: number;
  received: Date;
  completed: Date;
}

/** kube's audit verb: the RBAC verb for resource requests, the lower-cased HTTP method otherwise. */
function auditVerb(method: string, info: RequestInfo | undefined): string {
  return info?.isResourceRequest ? info.verb : method.toLowerCase();
}

function objectRefOf(info: RequestInfo): AuditEvent['objectRef'] {
  const ref: NonNullable<AuditEvent['objectRef']> = { resource: info.resource };
  if (info.namespace) ref.namespace = info.namespace;
  if (info.name) ref.name = info.name;
  if (info.apiGroup) ref.apiGroup = info.apiGroup;
  if (info.apiVersion) ref.apiVersion = info.apiVersion;
  if (info.subresource) ref.subresource = info.subresource;
  return ref;
}

// kube writes timestamps with microseconds.
const micro = (at: Date): string => at.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

export function buildAuditEvent(facts: AuditFacts): AuditEvent {
  const by = facts.user?.impersonatedBy;
  const acting = facts.user ? { username: facts.user.name, groups: [...facts.user.groups], extra: { [TENANT_EXTRA]: [facts.user.tenantId] } } : undefined;
  const user = by && facts.user
    ? { username: by.user, groups: [...by.groups], extra: { [TENANT_EXTRA]: [facts.user.tenantId] } }
    : acting ?? { username: 'system:anonymous', groups: ['system:unauthenticated'] };
  const event: AuditEvent = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: facts.auditID,
    stage: 'ResponseComplete',
    requestURI: facts.requestURI,
    verb: auditVerb(facts.method, facts.info),
    user,
    sourceIPs: facts.sourceIP ? [facts.sourceIP] : [],
    responseStatus: { metadata: {}, code: facts.code },
    requestReceivedTimestamp: micro(facts.received),
    stageTimestamp: micro(facts.completed),
  };
  if (by && acting) event.impersonatedUser = acting;
  if (facts.userAgent) event.userAgent = facts.userAgent;
  if (facts.info?.isResourceRequest) event.objectRef = objectRefOf(facts.info);
  if (facts.code >= 400) event.responseStatus.status = 'Failure';
  return event;
}
