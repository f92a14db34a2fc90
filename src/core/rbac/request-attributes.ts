// What an authorizer is asked about one request: the parsed request info and
// the user, as k8s.io/apiserver's RequestInfo → authorizer.Attributes. Shared by
// the gateway (tenant RBAC) and the embedded apiserver (its own RBAC).
import type { RequestInfo } from '../request-info.ts';
import type { AuthorizationAttributes, UserInfo } from './types.ts';

/** Non-resource requests are authorized with the lower-cased HTTP method as verb, HEAD as get. */
function nonResourceVerb(method: string): string {
  return method === 'head' ? 'get' : method;
}

export function requestAttributes(user: UserInfo, info: RequestInfo): AuthorizationAttributes {
  return {
    user,
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
