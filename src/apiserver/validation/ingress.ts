// Ingress (pkg/apis/networking/validation), the parts hand-written manifests get wrong.
import type { StatusCause } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import { index, invalidValue, notSupported, required } from './field-errors.ts';
import { isValidPortName, isValidPortNum } from './name-rules.ts';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (isObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];

function validateBackend(b: Obj, at: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const service = b.service;
  const resource = b.resource;
  if (service && resource) causes.push(invalidValue(at, '', 'cannot set both resource and service backends'));
  if (!service && !resource) causes.push(invalidValue(at, b, 'resource or service backend is required'));
  if (isObject(service)) {
    if (!service.name) causes.push(required(`${at}.service.name`));
    const port = rec(service.port);
    if (port.name !== undefined && port.number !== undefined) causes.push(invalidValue(`${at}.service.port`, port, 'cannot set both port name & port number'));
    else if (typeof port.number === 'number') for (const msg of isValidPortNum(port.number)) causes.push(invalidValue(`${at}.service.port.number`, port.number, msg));
    else if (typeof port.name === 'string') for (const msg of isValidPortName(port.name)) causes.push(invalidValue(`${at}.service.port.name`, port.name, msg));
    else causes.push(required(`${at}.service.port`, 'port name or number is required'));
  }
  return causes;
}

export function validateIngress(obj: Obj): StatusCause[] {
  const spec = rec(obj.spec);
  const causes: StatusCause[] = [];
  const rules = list(spec.rules);
  if (!spec.defaultBackend && rules.length === 0) {
    causes.push(invalidValue('spec', spec.rules ?? null, 'either `defaultBackend` or `rules` must be specified'));
  }
  if (isObject(spec.defaultBackend)) causes.push(...validateBackend(spec.defaultBackend, 'spec.defaultBackend'));
  rules.forEach((r, i) => {
    const at = index('spec.rules', i);
    list(rec(rec(r).http).paths).forEach((p, j) => {
      const path = rec(p);
      const pat = index(`${at}.http.paths`, j);
      if (path.pathType === undefined) causes.push(required(`${pat}.pathType`, 'pathType must be specified'));
      else if (!PATH_TYPES.includes(String(path.pathType))) causes.push(notSupported(`${pat}.pathType`, path.pathType, PATH_TYPES));
      if ((path.pathType === 'Exact' || path.pathType === 'Prefix') && !String(path.path ?? '').startsWith('/')) {
        causes.push(invalidValue(`${pat}.path`, path.path ?? '', "must be an absolute path"));
      }
      causes.push(...validateBackend(rec(path.backend), `${pat}.backend`));
    });
  });
  return causes;
}
