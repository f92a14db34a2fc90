// The version of a kind a member serves. A kind with two rows (CronJob:
// batch/v1 from kube 1.21, batch/v1beta1 alone on 1.20 and gone in 1.25) is
// watched upstream in one version, and members may serve only the other: a
// 1.20 host with 1.25+ members, or the reverse. The member then gets the
// object in the version it serves, its apiVersion converted; CronJob's
// batch/v1beta1 and batch/v1 have the same fields (batch/v1's later
// `timeZone` aside, which a 1.20 member refuses as unknown: written in
// docs/compatibility.md). Asked once per member and kind, from discovery.
import type { KubeObject } from '../../core/types.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { checkServed } from '../../kube/served-resources.ts';
import { apiVersionOf, otherVersionOf, type TemplateResource } from './template-resources.ts';

const known = new WeakMap<Upstream, Map<TemplateResource, TemplateResource>>();

/** The row to use on this member: the template's, or the other version of its kind when only that one is served there. */
export async function memberRowOf(member: Upstream, resource: TemplateResource): Promise<TemplateResource> {
  const other = otherVersionOf(resource);
  if (!other) return resource;
  let rows = known.get(member);
  if (!rows) known.set(member, (rows = new Map()));
  const cached = rows.get(resource);
  if (cached) return cached;
  const [mine, theirs] = await checkServed(member, [resource, other]);
  // Only a clear answer is kept; "could not tell" tries the template's own version (its informer or apply says more).
  const row = mine === false && theirs === true ? other : resource;
  if (mine !== undefined && theirs !== undefined) rows.set(resource, row);
  return row;
}

/** The object in the member's version of its kind (a copy when it changes). */
export function inMemberVersion(obj: KubeObject, row: TemplateResource): KubeObject {
  const apiVersion = apiVersionOf(row);
  return obj.apiVersion === apiVersion ? obj : { ...obj, apiVersion };
}
