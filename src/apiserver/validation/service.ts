// Service checks (ValidateService): ports, type and session affinity enums.
// ClusterIP allocation and its immutability belong to the registry.
import type { StatusCause } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import { duplicate, forbidden, index, invalidValue, notSupported, required } from './field-errors.ts';
import { isDNS1123Label, isDNS1123Subdomain, isValidPortName, isValidPortNum } from './name-rules.ts';
import { PROTOCOLS } from './pod-spec.ts';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (isObject(v) ? v : {});

export const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const AFFINITIES = ['ClientIP', 'None'];

function validatePort(p: Obj, at: string, requireName: boolean, names: Set<string>, type: unknown): StatusCause[] {
  const causes: StatusCause[] = [];
  const name = typeof p.name === 'string' ? p.name : '';
  if (requireName && name === '') causes.push(required(`${at}.name`));
  else if (name !== '') {
    for (const msg of isDNS1123Label(name)) causes.push(invalidValue(`${at}.name`, name, msg));
    if (names.has(name)) causes.push(duplicate(`${at}.name`, name));
    names.add(name);
  }
  for (const msg of isValidPortNum(Number(p.port ?? 0))) causes.push(invalidValue(`${at}.port`, p.port ?? 0, msg));
  if (!p.protocol) causes.push(required(`${at}.protocol`));
  else if (!PROTOCOLS.includes(String(p.protocol))) causes.push(notSupported(`${at}.protocol`, p.protocol, PROTOCOLS));
  const target = p.targetPort;
  if (typeof target === 'number') {
    for (const msg of isValidPortNum(target)) causes.push(invalidValue(`${at}.targetPort`, target, msg));
  } else if (typeof target === 'string') {
    for (const msg of isValidPortName(target)) causes.push(invalidValue(`${at}.targetPort`, target, msg));
  }
  if (p.nodePort !== undefined && p.nodePort !== 0 && type === 'ClusterIP') {
    causes.push(forbidden(`${at}.nodePort`, "may not be used when `type` is 'ClusterIP'"));
  }
  return causes;
}

export function validateService(obj: Obj): StatusCause[] {
  const spec = rec(obj.spec);
  const causes: StatusCause[] = [];
  const type = spec.type;
  if (type !== undefined && !SERVICE_TYPES.includes(String(type))) causes.push(notSupported('spec.type', type, SERVICE_TYPES));
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  if (type === 'ExternalName') {
    const ext = spec.externalName;
    if (typeof ext !== 'string' || ext === '') causes.push(required('spec.externalName'));
    else for (const msg of isDNS1123Subdomain(ext.replace(/\.$/, ''))) causes.push(invalidValue('spec.externalName', ext, msg));
  } else if (ports.length === 0 && spec.clusterIP !== 'None') {
    causes.push(required('spec.ports'));
  }
  const names = new Set<string>();
  ports.forEach((p, i) => causes.push(...validatePort(rec(p), index('spec.ports', i), ports.length > 1, names, type)));
  const affinity = spec.sessionAffinity;
  if (affinity !== undefined && !AFFINITIES.includes(String(affinity))) causes.push(notSupported('spec.sessionAffinity', affinity, AFFINITIES));
  return causes;
}
