// SelfSubjectAccessReview and SelfSubjectRulesReview, answered from the tenant's
// RBAC so `kubectl auth can-i` (and `--list`) tell the truth about the gateway.
import type { IncomingMessage } from 'node:http';
import { badRequest, methodNotAllowed } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import { selfSubjectAccessReview, selfSubjectRulesReview, type PolicyIndex, type SelfSubjectAccessReviewSpec } from '../../core/rbac/index.ts';
import type { Identity } from '../identity.ts';
import { readRequestObject } from '../forward/request-body.ts';

export async function answerAccessReview(req: IncomingMessage, identity: Identity, policy: PolicyIndex, resource: string): Promise<KubeObject> {
  if ((req.method ?? 'GET').toUpperCase() !== 'POST') throw methodNotAllowed();
  const body = await readRequestObject(req, { group: 'authorization.k8s.io', version: 'v1', kind: resource === 'selfsubjectrulesreviews' ? 'SelfSubjectRulesReview' : 'SelfSubjectAccessReview' });
  const user = { name: identity.user, groups: identity.groups };
  const spec = (body.spec ?? {}) as Record<string, unknown>;
  const meta = { creationTimestamp: null } as unknown as KubeObject['metadata'];
  if (resource === 'selfsubjectaccessreviews') {
    const status = selfSubjectAccessReview(spec as unknown as SelfSubjectAccessReviewSpec, user, policy);
    return { kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: meta, spec, status };
  }
  if (resource === 'selfsubjectrulesreviews') {
    const status = selfSubjectRulesReview(String(spec.namespace ?? ''), user, policy);
    return { kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', metadata: meta, spec, status };
  }
  throw badRequest(`${resource} is not answered by the gateway`);
}
