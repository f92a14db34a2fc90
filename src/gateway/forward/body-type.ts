// What kind of object a request body should be (protobuf bodies may omit it).
import type { RequestInfo } from '../../core/request-info.ts';
import type { BodyType } from '../../http/request-body.ts';
import { BUILTIN_RESOURCES } from '../../core/resources/builtin-resources.ts';
import { rowOfResource } from '../../core/tenancy/resource-classes.ts';

export function bodyTypeOf(info: RequestInfo): BodyType | undefined {
  if (info.subresource === 'scale') return { group: 'autoscaling', version: 'v1', kind: 'Scale' };
  const def = BUILTIN_RESOURCES.find((d) => d.group === info.apiGroup && d.resource === info.resource);
  return def ? { group: def.group, version: info.apiVersion || def.version, kind: def.kind } : undefined;
}

/**
 * The upstream apiVersion and kind of the objects a request returns, when known: built-in kinds,
 * and every other row of the resource table (Karmada's ClusterResourceBindings, cluster policies).
 * Without it a Table's PartialObjectMetadata rows cannot say their scope, and a cluster-scoped
 * name kept its tenant prefix in `kubectl get crb`. A tenant's own custom kinds need none: their
 * group alone says how they translate.
 */
export function kindHintOf(info: RequestInfo, fwd: { group: string }): { apiVersion: string; kind: string } | undefined {
  if (info.subresource) return undefined;
  const def = BUILTIN_RESOURCES.find((d) => d.group === info.apiGroup && d.resource === info.resource);
  const group = fwd.group;
  const version = info.apiVersion || def?.version;
  const kind = def?.kind ?? rowOfResource(info.apiGroup, info.resource)?.kind;
  if (!kind || !version) return undefined;
  return { apiVersion: group ? `${group}/${version}` : version, kind };
}
