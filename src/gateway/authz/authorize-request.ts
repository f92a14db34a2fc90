// Authorization of a gateway request against the tenant's own RBAC, in tenant
// terms. The refusal is kube's 403, naming the user and resource as the tenant knows them.
import type { RequestInfo } from '../../core/request-info.ts';
import { authorize, forbiddenError, type AuthorizationAttributes, type PolicyIndex } from '../../core/rbac/index.ts';
import type { Identity } from '../identity.ts';

export function attributesOf(identity: Identity, info: RequestInfo): AuthorizationAttributes {
  return {
    user: { name: identity.user, groups: identity.groups },
    verb: info.isResourceRequest ? info.verb : nonResourceVerb(info.verb),
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    apiGroup: info.apiGroup,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
    namespace: info.namespace,
  };
}

/** Non-resource requests are authorized with the lower-cased HTTP method as verb, as in kube. */
function nonResourceVerb(method: string): string {
  return method === 'head' ? 'get' : method;
}

export function authorizeRequest(policy: PolicyIndex, identity: Identity, info: RequestInfo): void {
  const attrs = attributesOf(identity, info);
  const decision = authorize(attrs, policy);
  if (!decision.allowed) throw forbiddenError(attrs, decision.reason);
}
