// SelfSubjectReview (`kubectl auth whoami`), answered by the gateway: the
// upstream only knows Warren's own credential, never the tenant's user. The
// answer is the acting identity in the tenant's terms (after impersonation,
// as kube answers it), with the system:authenticated group kube's
// authenticator adds. Served at every version kubectl asks: v1 (1.28+),
// v1beta1 (1.27 first, 1.28+ as fallback), v1alpha1 (the last fallback).
import type { IncomingMessage } from 'node:http';
import { ApiError, methodNotAllowed } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import { withAuthenticatedGroup } from '../../core/rbac/subjects.ts';
import type { Identity } from '../identity.ts';
import { readRequestObject } from '../forward/request-body.ts';

export const SELF_SUBJECT_REVIEW_VERSIONS: ReadonlySet<string> = new Set(['v1', 'v1beta1', 'v1alpha1']);

export async function answerSelfSubjectReview(req: IncomingMessage, identity: Identity, version: string): Promise<KubeObject> {
  if (!SELF_SUBJECT_REVIEW_VERSIONS.has(version)) throw new ApiError('NotFound', 'the server could not find the requested resource');
  if ((req.method ?? 'GET').toUpperCase() !== 'POST') throw methodNotAllowed();
  // The body names nothing (kube ignores all but its metadata); read it to refuse one that is not a SelfSubjectReview.
  await readRequestObject(req, { group: 'authentication.k8s.io', version, kind: 'SelfSubjectReview' });
  const user = withAuthenticatedGroup({ name: identity.user, groups: identity.groups });
  const userInfo: Record<string, unknown> = { username: user.name, groups: user.groups };
  if (identity.uid) userInfo.uid = identity.uid;
  if (identity.extra && Object.keys(identity.extra).length > 0) userInfo.extra = identity.extra;
  return {
    kind: 'SelfSubjectReview',
    apiVersion: `authentication.k8s.io/${version}`,
    metadata: { creationTimestamp: null } as unknown as KubeObject['metadata'],
    status: { userInfo },
  };
}
