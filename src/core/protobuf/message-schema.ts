// Resolves generated field tuples into typed field descriptions, and API kinds
// (apiVersion + kind) into proto message names.
import { FLAG, type FieldTuple } from './schema-types.ts';
import { PACKAGES } from './schema/index.ts';
import { SPECIAL_TYPES, type SpecialType } from './special-types.ts';

export const SCALARS = new Set(['string', 'bytes', 'bool', 'int32', 'int64', 'uint32', 'uint64', 'double', 'float']);

export type ValueType =
  | { kind: 'scalar'; scalar: string }
  | { kind: 'special'; name: string; special: SpecialType }
  | { kind: 'message'; name: string };

export interface FieldInfo {
  number: number;
  json: string;
  flags: number;
  /** For maps, the value type; keys are always scalars. */
  type: ValueType;
  mapKey?: string;
  repeated: boolean;
  omitempty: boolean;
  pointer: boolean;
  inline: boolean;
  noGo: boolean;
}

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

function valueType(ref: string, pkg: string): ValueType {
  if (SCALARS.has(ref)) return { kind: 'scalar', scalar: ref };
  const name = ref.includes('.') ? ref : `${pkg}.${ref}`;
  const special = SPECIAL_TYPES.get(name);
  return special ? { kind: 'special', name, special } : { kind: 'message', name };
}

function compile(tuple: FieldTuple, pkg: string): FieldInfo {
  const [number, json, type, flags] = tuple;
  const map = /^map<(\w+),(.+)>$/.exec(type);
  const info: FieldInfo = {
    number, json, flags,
    type: valueType(map ? (map[2] as string) : type, pkg),
    repeated: (flags & FLAG.repeated) !== 0,
    omitempty: (flags & FLAG.omitempty) !== 0,
    pointer: (flags & FLAG.pointer) !== 0,
    inline: (flags & FLAG.inline) !== 0,
    noGo: (flags & FLAG.noGo) !== 0,
  };
  if (map) info.mapKey = map[1] as string;
  return info;
}

const cache = new Map<string, FieldInfo[] | undefined>();

/** Fields of a message by fully qualified proto name, in field-number order; undefined if unknown. */
export function messageFields(fullName: string): FieldInfo[] | undefined {
  if (cache.has(fullName)) return cache.get(fullName);
  const dot = fullName.lastIndexOf('.');
  const pkg = fullName.slice(0, dot);
  const tuples = PACKAGES[pkg]?.[fullName.slice(dot + 1)];
  const fields = tuples?.map((t) => compile(t, pkg));
  cache.set(fullName, fields);
  return fields;
}

/** apiVersion → proto package. Groups outside this table are not decodable (CRDs, aggregated APIs). */
const API_VERSIONS: Readonly<Record<string, string>> = {
  v1: 'k8s.io.api.core.v1',
  'apps/v1': 'k8s.io.api.apps.v1',
  'batch/v1': 'k8s.io.api.batch.v1',
  'networking.k8s.io/v1': 'k8s.io.api.networking.v1',
  'rbac.authorization.k8s.io/v1': 'k8s.io.api.rbac.v1',
  'storage.k8s.io/v1': 'k8s.io.api.storage.v1',
  'scheduling.k8s.io/v1': 'k8s.io.api.scheduling.v1',
  'coordination.k8s.io/v1': 'k8s.io.api.coordination.v1',
  'events.k8s.io/v1': 'k8s.io.api.events.v1',
  'policy/v1': 'k8s.io.api.policy.v1',
  'autoscaling/v1': 'k8s.io.api.autoscaling.v1',
  'autoscaling/v2': 'k8s.io.api.autoscaling.v2',
  'admissionregistration.k8s.io/v1': 'k8s.io.api.admissionregistration.v1',
  'authentication.k8s.io/v1': 'k8s.io.api.authentication.v1',
  'authorization.k8s.io/v1': 'k8s.io.api.authorization.v1',
  'discovery.k8s.io/v1': 'k8s.io.api.discovery.v1',
  'certificates.k8s.io/v1': 'k8s.io.api.certificates.v1',
  'node.k8s.io/v1': 'k8s.io.api.node.v1',
  'flowcontrol.apiserver.k8s.io/v1': 'k8s.io.api.flowcontrol.v1',
  'meta.k8s.io/v1': META,
};

/**
 * A top-level kind is a message with metadata, or one of the option kinds that
 * metav1.AddToGroupVersion registers in every group version (DeleteOptions, ...).
 * Nested types such as PodSpec are not kinds, as in kube's scheme.
 */
function isKind(fields: FieldInfo[] | undefined, kind: string): boolean {
  return !!fields && (fields.some((f) => f.json === 'metadata') || kind.endsWith('Options') || kind === 'WatchEvent');
}

export function messageForKind(apiVersion: string, kind: string): string | undefined {
  const pkg = API_VERSIONS[apiVersion];
  if (!pkg || !/^[A-Z]\w*$/.test(kind)) return undefined;
  for (const candidate of [`${pkg}.${kind}`, `${META}.${kind}`]) {
    if (isKind(messageFields(candidate), kind)) return candidate;
  }
  return undefined;
}
