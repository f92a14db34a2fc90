// x-kubernetes-embedded-resource: an object that is itself a Kubernetes
// object must carry apiVersion and kind (metadata is optional), as
// apiextensions' objectmeta validation requires.
import type { StatusCause } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import type { JSONSchemaProps } from './crd-types.ts';
import { invalid, required } from './field-errors.ts';

export function validateEmbeddedResources(x: unknown, s: JSONSchemaProps | undefined, path = ''): StatusCause[] {
  if (!s) return [];
  const errs: StatusCause[] = [];
  if (Array.isArray(x)) {
    const items = s.items && !Array.isArray(s.items) ? s.items : undefined;
    x.forEach((item, i) => errs.push(...validateEmbeddedResources(item, items, `${path}[${i}]`)));
    return errs;
  }
  if (!isObject(x)) return errs;
  if (s['x-kubernetes-embedded-resource']) errs.push(...checkTypeMeta(x, path));
  for (const [k, v] of Object.entries(x)) {
    const sub = s.properties?.[k] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    errs.push(...validateEmbeddedResources(v, sub, path ? `${path}.${k}` : k));
  }
  return errs;
}

function checkTypeMeta(x: Record<string, unknown>, path: string): StatusCause[] {
  const errs: StatusCause[] = [];
  const at = (f: string): string => (path ? `${path}.${f}` : f);
  const apiVersion = x.apiVersion;
  if (!('apiVersion' in x)) errs.push(required(at('apiVersion'), 'must not be empty'));
  else if (typeof apiVersion !== 'string') errs.push(invalid(at('apiVersion'), apiVersion, 'must be a string'));
  else if (apiVersion === '') errs.push(invalid(at('apiVersion'), apiVersion, 'must not be empty'));
  else if (apiVersion.split('/').length > 2) errs.push(invalid(at('apiVersion'), apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
  const kind = x.kind;
  if (!('kind' in x)) errs.push(required(at('kind'), 'must not be empty'));
  else if (typeof kind !== 'string') errs.push(invalid(at('kind'), kind, 'must be a string'));
  else if (kind === '') errs.push(invalid(at('kind'), kind, 'must not be empty'));
  if ('metadata' in x && x.metadata !== null && !isObject(x.metadata)) errs.push(invalid(at('metadata'), x.metadata, 'must be an object'));
  return errs;
}
