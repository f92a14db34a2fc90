// What kind of object a request body should be (protobuf bodies may omit it).
import type { RequestInfo } from '../../core/request-info.ts';
import type { BodyType } from '../../http/request-body.ts';
import { BUILTIN_RESOURCES } from '../../core/resources/builtin-resources.ts';

export function bodyTypeOf(info: RequestInfo): BodyType | undefined {
  if (info.subresource === 'scale') return { group: 'autoscaling', version: 'v1', kind: 'Scale' };
  const def = BUILTIN_RESOURCES.find((d) => d.group === info.apiGroup && d.resource === info.resource);
  return def ? { group: def.group, version: info.apiVersion || def.version, kind: def.kind } : undefined;
}

/** The upstream apiVersion and kind of the objects a request returns, when known (built-in kinds). */
export function kindHintOf(info: RequestInfo, fwd: { group: string }): { apiVersion: string; kind: string } | undefined {
  if (info.subresource) return undefined;
  const def = BUILTIN_RESOURCES.find((d) => d.group === info.apiGroup && d.resource === info.resource);
  if (!def) return undefined;
  const group = fwd.group;
  return { apiVersion: group ? `${group}/${info.apiVersion || def.version}` : info.apiVersion || def.version, kind: def.kind };
}
