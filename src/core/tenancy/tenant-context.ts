// What the translator needs to know about the tenant a request is for. Plain
// data and pure callbacks: the gateway fills it from its caches.
import { isCustomGroup } from './resource-classes.ts';

export interface TenantContext {
  id: string;
  /** The tenant user, for 403 messages in kube's words ("User "x" cannot ..."). */
  user?: string;
  /**
   * Is this group (tenant spelling) one of the tenant's CRD groups? Defaults to
   * isCustomGroup: any group not built in (it is prefixed with the tenant's id either way).
   */
  isTenantCrdGroup?: (group: string) => boolean;
  /**
   * Scope of a kind in one of the tenant's CRD groups (tenant spelling), from its
   * CRD; needed only for references (ownerReferences) to custom kinds.
   */
  customKindNamespaced?: (group: string, kind: string) => boolean | undefined;
  /**
   * Is this id a tenant's? Lets upstream text be scrubbed of other tenants' names
   * (status-translation.ts); without it only the caller's own prefix is recognised.
   */
  isTenantId?: (id: string) => boolean;
}

export function isTenantCrdGroupOf(ctx: TenantContext, group: string): boolean {
  return (ctx.isTenantCrdGroup ?? isCustomGroup)(group);
}
