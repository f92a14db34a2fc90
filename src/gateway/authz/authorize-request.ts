// Authorization of a gateway request against the tenant's own RBAC, in tenant
// terms. The refusal is kube's 403, naming the user and resource as the tenant knows them.
import type { RequestInfo } from '../../core/request-info.ts';
import { authorize, forbiddenError, requestAttributes, type AuthorizationAttributes, type PolicyIndex } from '../../core/rbac/index.ts';
import type { Identity } from '../identity.ts';

export function attributesOf(identity: Identity, info: RequestInfo): AuthorizationAttributes {
  return requestAttributes({ name: identity.user, groups: identity.groups }, info);
}

export function authorizeRequest(policy: PolicyIndex, identity: Identity, info: RequestInfo): void {
  const attrs = attributesOf(identity, info);
  const decision = authorize(attrs, policy);
  if (!decision.allowed) throw forbiddenError(attrs, decision.reason);
}
