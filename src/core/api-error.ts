// The one error type of the API. Every failure a client sees is a Kubernetes
// Status built here, with the reason deciding the HTTP code, as in
// k8s.io/apimachinery/pkg/api/errors.
import type { Status, StatusCause, StatusDetails } from './types.ts';

export const REASON_CODES = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  NotAcceptable: 406,
  AlreadyExists: 409,
  Conflict: 409,
  Gone: 410,
  Expired: 410,
  RequestEntityTooLarge: 413,
  UnsupportedMediaType: 415,
  Invalid: 422,
  TooManyRequests: 429,
  InternalError: 500,
  ServiceUnavailable: 503,
  Timeout: 504,
} as const;

export type StatusReason = keyof typeof REASON_CODES;

/** Identifies the object a failure is about, in the client's own terms. */
export interface Subject {
  group?: string;
  /** Plural resource name (as kube-apiserver puts in details.kind for most errors). */
  resource: string;
  name?: string;
}

export class ApiError extends Error {
  readonly reason: StatusReason;
  readonly code: number;
  readonly details: StatusDetails | undefined;

  constructor(reason: StatusReason, message: string, details?: StatusDetails, code?: number) {
    super(message);
    this.name = 'ApiError';
    this.reason = reason;
    this.code = code ?? REASON_CODES[reason];
    this.details = details;
  }

  toStatus(): Status {
    const status: Status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    if (this.details && Object.keys(this.details).length > 0) {
      const details: StatusDetails = { ...this.details };
      // In code a cause's kind is `type` (Go's field name); on the wire it is "reason" (its JSON tag).
      if (details.causes) details.causes = details.causes.map(toWireCause);
      status.details = details;
    }
    return status;
  }
}

function toWireCause(cause: StatusCause): StatusCause {
  if (cause.type === undefined) return cause;
  const { type, ...rest } = cause;
  return { reason: type, ...rest };
}

/** "deployments.apps" or "pods": how kube-apiserver names a resource in messages. */
export function qualifiedResource(subject: Pick<Subject, 'group' | 'resource'>): string {
  return subject.group ? `${subject.resource}.${subject.group}` : subject.resource;
}

function detailsOf(subject: Subject): StatusDetails {
  const details: StatusDetails = {};
  if (subject.name !== undefined) details.name = subject.name;
  if (subject.group) details.group = subject.group;
  details.kind = subject.resource;
  return details;
}

export function notFound(subject: Subject): ApiError {
  return new ApiError('NotFound', `${qualifiedResource(subject)} "${subject.name ?? ''}" not found`, detailsOf(subject));
}

export function alreadyExists(subject: Subject): ApiError {
  return new ApiError('AlreadyExists', `${qualifiedResource(subject)} "${subject.name ?? ''}" already exists`, detailsOf(subject));
}

export function conflict(subject: Subject, why: string): ApiError {
  return new ApiError('Conflict', `Operation cannot be fulfilled on ${qualifiedResource(subject)} "${subject.name ?? ''}": ${why}`, detailsOf(subject));
}

/**
 * 422 with field causes; `kind` is the object's Kind, as kube-apiserver reports it.
 * Message as errors.NewInvalid: `Deployment.apps "x" is invalid: [a: m1, b: m2]`,
 * with repeated "field: message" lines dropped (the aggregate dedupes them), no
 * brackets when one distinct line remains, and no colon part without causes.
 */
export function invalid(target: { group?: string; kind: string; name?: string }, causes: StatusCause[]): ApiError {
  const lines = [...new Set(causes.map((c) => (c.field ? `${c.field}: ${c.message ?? ''}` : c.message ?? '')))];
  const what = target.group ? `${target.kind}.${target.group}` : target.kind;
  const head = `${what} "${target.name ?? ''}" is invalid`;
  const message = lines.length === 0 ? head : lines.length === 1 ? `${head}: ${lines[0]}` : `${head}: [${lines.join(', ')}]`;
  const details: StatusDetails = { kind: target.kind, causes };
  if (target.name !== undefined) details.name = target.name;
  if (target.group) details.group = target.group;
  return new ApiError('Invalid', message, details);
}

export function badRequest(message: string, causes?: StatusCause[]): ApiError {
  return new ApiError('BadRequest', message, causes ? { causes } : undefined);
}

/**
 * As responsewriters.Forbidden: the message names "resource/subresource" (kube's
 * combined resource) while details.kind and the leading qualified resource do not.
 */
export function forbidden(subject: Subject & { user?: string; verb: string; namespace?: string; subresource?: string }, why: string): ApiError {
  const who = subject.user ? `User "${subject.user}" cannot` : 'cannot';
  const scope = subject.namespace ? ` in the namespace "${subject.namespace}"` : ' at the cluster scope';
  const named = subject.name !== undefined ? ` "${subject.name}"` : '';
  const resource = subject.subresource ? `${subject.resource}/${subject.subresource}` : subject.resource;
  const message = `${qualifiedResource(subject)}${named} is forbidden: ${who} ${subject.verb} resource "${resource}" in API group "${subject.group ?? ''}"${scope}${why ? `: ${why}` : ''}`;
  return new ApiError('Forbidden', message, detailsOf(subject));
}

/** A denied non-resource request (`/metrics`, `/logs`): kube has no resource to name, so the message starts "forbidden:". */
export function forbiddenPath(request: { user: string; verb: string; path: string }, why: string): ApiError {
  return new ApiError('Forbidden', `forbidden: User "${request.user}" cannot ${request.verb} path "${request.path}"${why ? `: ${why}` : ''}`);
}

export function methodNotAllowed(message = 'the server does not allow this method on the requested resource'): ApiError {
  return new ApiError('MethodNotAllowed', message);
}

export function expired(message: string): ApiError {
  return new ApiError('Expired', message);
}

export function internalError(message: string): ApiError {
  return new ApiError('InternalError', `Internal error occurred: ${message}`);
}

/**
 * kube's answer to a failure it did not foresee (NewGenericServerResponse for a 500):
 * a fixed sentence, naming only the request's id so an operator can find the logged
 * cause. The cause itself (a message with a file path, a host address, another
 * tenant's name) never reaches the client.
 */
export function unexpectedError(requestId?: string): ApiError {
  const said = requestId ? `request ${requestId}` : 'unknown';
  return new ApiError('InternalError', `an error on the server ("${said}") has prevented the request from succeeding`, {
    causes: [{ type: 'UnexpectedServerResponse', message: said }],
  });
}

/**
 * Anything thrown that is not an ApiError becomes kube's generic 500: its message is
 * for the log (with `requestId`), never for the client.
 */
export function toApiError(err: unknown, requestId?: string): ApiError {
  if (err instanceof ApiError) return err;
  return unexpectedError(requestId);
}
