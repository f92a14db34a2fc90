// Can a response that has no Table or metadata form (an access review, a
// SelfSubjectReview: objects answered, never stored) be sent to this client?
// kube-apiserver negotiates with `as=` transforms disallowed for such
// endpoints: an Accept that only asks for a Table or PartialObjectMetadata
// gets 406, one that also takes the plain object gets it.
import { ApiError } from './api-error.ts';

const JSONISH = new Set(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', '*/*', 'application/*']);

export function requirePlainObjectAccepted(accept: string | undefined): void {
  if (!accept) return;
  const plain = accept.split(',').some((part) => {
    const [type = '', ...params] = part.trim().split(';');
    return JSONISH.has(type.trim().toLowerCase()) && !params.some((p) => p.trim().startsWith('as='));
  });
  if (!plain) throw new ApiError('NotAcceptable', 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
}
