// SelfSubjectAccessReview and SelfSubjectRulesReview, answered from the tenant's
// RBAC so `kubectl auth can-i` (and `--list`) tell the truth about the gateway.
// The identity is the acting one: with `--as`/`--as-group` it is the impersonated
// identity (authn/impersonation.ts ran first), so the answer is about that user, as in kube.
import type { IncomingMessage } from 'node:http';
import { badRequest, methodNotAllowed } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import { selfSubjectAccessReview, selfSubjectRulesReview, type PolicyIndex, type SelfSubjectAccessReviewSpec } from '../../core/rbac/index.ts';
import type { Identity } from '../identity.ts';
import { classify, isCustomGroup } from '../../core/tenancy/resource-classes.ts';
import { readRequestObject } from '../forward/request-body.ts';
import { READ_ONLY_VIEW } from '../../core/tenancy/request-translation.ts';

const READS = new Set(['get', 'list', 'watch']);

/**
 * RBAC alone would say yes to a tenant admin for anything; the gateway refuses
 * some resources to every tenant. `kubectl auth can-i` must tell that truth too.
 */
function unavailableToTenants(spec: SelfSubjectAccessReviewSpec): string | undefined {
  const attrs = spec.resourceAttributes;
  if (!attrs) return undefined;
  const group = attrs.group ?? '';
  const resource = attrs.resource ?? '';
  if (resource === '*' || group === '*') return undefined;
  const c = classify(group, resource, isCustomGroup(group));
  if (c.class === 'tenant-custom') return undefined;
  if (c.class === 'denied') return 'the resource is not available to tenants';
  const verb = attrs.verb ?? '';
  if (c.class === 'shared-read-only' && !READS.has(verb)) return 'the resource is shared and read-only';
  if (c.class === 'tenant-view' && (attrs.subresource || !READS.has(verb))) return attrs.subresource ? 'the subresource is not available to tenants' : READ_ONLY_VIEW;
  if (attrs.subresource && c.row.deniedSubresources?.includes(attrs.subresource)) return 'the subresource is not available to tenants';
  if (c.row.readOnly && !READS.has(verb)) return c.row.readOnly; // bindings and Works: the engine's (ADR 19)
  return undefined;
}

export async function answerAccessReview(req: IncomingMessage, identity: Identity, policy: PolicyIndex, resource: string): Promise<KubeObject> {
  if ((req.method ?? 'GET').toUpperCase() !== 'POST') throw methodNotAllowed();
  const body = await readRequestObject(req, { group: 'authorization.k8s.io', version: 'v1', kind: resource === 'selfsubjectrulesreviews' ? 'SelfSubjectRulesReview' : 'SelfSubjectAccessReview' });
  const user = { name: identity.user, groups: identity.groups };
  const spec = (body.spec ?? {}) as Record<string, unknown>;
  const meta = { creationTimestamp: null } as unknown as KubeObject['metadata'];
  if (resource === 'selfsubjectaccessreviews') {
    const unavailable = unavailableToTenants(spec as unknown as SelfSubjectAccessReviewSpec);
    const status = unavailable
      ? { allowed: false, denied: true, reason: unavailable }
      : selfSubjectAccessReview(spec as unknown as SelfSubjectAccessReviewSpec, user, policy);
    return { kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: meta, spec, status };
  }
  if (resource === 'selfsubjectrulesreviews') {
    const status = selfSubjectRulesReview(String(spec.namespace ?? ''), user, policy);
    return { kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', metadata: meta, spec, status };
  }
  throw badRequest(`${resource} is not answered by the gateway`);
}
