// The isolation guard's table of references (guard-references.ts): every field
// of a written object that names something the host or a member follows on
// the tenant's behalf, as one row per field, each of a reference class with
// one check. Adding a field is a row; a new class is a new check. Written
// apart from the translator (namespace-references.ts, kind-converters.ts), in
// upstream terms: a reference the guard cannot prove is the tenant's own is
// refused. Deliberately not rows (the pod's own, followed by nothing shared):
// a pod's hostAliases and dnsConfig.nameservers, a NetworkPolicy ipBlock.
import { isObject } from '../types.ts';
import type { GuardContext } from './guard-body.ts';
import { dnsNamespaceIndex } from './namespace-references.ts';
import { POD_SPEC_PATHS } from './reserved-references.ts';

type Obj = Record<string, unknown>;

export type ReferenceClass =
  /** An upstream namespace name. */
  | 'namespace'
  /** A label selector over Namespaces: it must require the tenant label. */
  | 'namespace-selector'
  /** An ObjectReference: its namespace (when set) the tenant's, its group a known one or the tenant's. */
  | 'object-reference'
  /** A DNS name the cluster DNS resolves: a namespace inside it is the tenant's. */
  | 'cluster-dns-name';

export interface ReferenceField {
  /** `<group>/<Kind>` (upstream group, '' for core) of the kinds that hold the field. */
  kinds: readonly string[];
  /** The field, in words, for the refusal. */
  what: string;
  class: ReferenceClass;
  /** The field's values in this object of this kind (`<group>/<Kind>`). */
  values(body: Obj, key: string): unknown[];
}

const LABEL_KEY = 'tenancy.warren.dev/tenant';

export function at(obj: unknown, ...path: string[]): unknown {
  let v: unknown = obj;
  for (const key of path) v = isObject(v) ? v[key] : undefined;
  return v;
}
export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const present = (values: unknown[]): unknown[] => values.filter((v) => v !== undefined);

/** Kinds that hold pod specs, and where: reserved-references.ts's one table (a ControllerRevision's template included). */
export const POD_HOLDERS = Object.keys(POD_SPEC_PATHS);
function podSpecs(body: Obj, key: string): unknown[] {
  const path = POD_SPEC_PATHS[key];
  return path ? [at(body, ...path)] : [];
}
function affinityTerms(podSpec: unknown): unknown[] {
  return ['podAffinity', 'podAntiAffinity'].flatMap((kind) => {
    const a = at(podSpec, 'affinity', kind);
    return [...list(at(a, 'requiredDuringSchedulingIgnoredDuringExecution')), ...list(at(a, 'preferredDuringSchedulingIgnoredDuringExecution')).map((p) => at(p, 'podAffinityTerm'))];
  });
}
const terms = (body: Obj, kind: string): unknown[] => podSpecs(body, kind).flatMap(affinityTerms);
const peers = (body: Obj): unknown[] => [...list(at(body, 'spec', 'ingress')).flatMap((r) => list(at(r, 'from'))), ...list(at(body, 'spec', 'egress')).flatMap((r) => list(at(r, 'to')))];
const addresses = (body: Obj): unknown[] => list(body.subsets).flatMap((s) => [...list(at(s, 'addresses')), ...list(at(s, 'notReadyAddresses'))]);

export const REFERENCE_FIELDS: readonly ReferenceField[] = [
  { kinds: POD_HOLDERS, what: 'pod affinity namespaces', class: 'namespace', values: (b, k) => terms(b, k).flatMap((t) => list(at(t, 'namespaces'))) },
  { kinds: POD_HOLDERS, what: 'pod affinity namespaceSelector', class: 'namespace-selector', values: (b, k) => present(terms(b, k).map((t) => at(t, 'namespaceSelector'))) },
  { kinds: POD_HOLDERS, what: 'pod DNS search domain', class: 'cluster-dns-name', values: (b, k) => podSpecs(b, k).flatMap((s) => list(at(s, 'dnsConfig', 'searches'))) },
  { kinds: ['networking.k8s.io/NetworkPolicy'], what: 'NetworkPolicy peer namespaceSelector', class: 'namespace-selector', values: (b) => present(peers(b).map((p) => at(p, 'namespaceSelector'))) },
  { kinds: ['/Service'], what: 'Service externalName', class: 'cluster-dns-name', values: (b) => present([at(b, 'spec', 'externalName')]) },
  { kinds: ['/PersistentVolumeClaim'], what: 'PVC dataSourceRef', class: 'object-reference', values: (b) => present([at(b, 'spec', 'dataSourceRef')]) },
  { kinds: ['/Event'], what: 'Event reference', class: 'object-reference', values: (b) => present([b.involvedObject, b.related]) },
  { kinds: ['events.k8s.io/Event'], what: 'Event reference', class: 'object-reference', values: (b) => present([b.regarding, b.related]) },
  { kinds: ['/Endpoints'], what: 'Endpoints targetRef', class: 'object-reference', values: (b) => present(addresses(b).map((a) => at(a, 'targetRef'))) },
  { kinds: ['discovery.k8s.io/EndpointSlice'], what: 'EndpointSlice targetRef', class: 'object-reference', values: (b) => present(list(b.endpoints).map((e) => at(e, 'targetRef'))) },
  { kinds: ['policy.karmada.io/PropagationPolicy', 'policy.karmada.io/ClusterPropagationPolicy', 'policy.karmada.io/OverridePolicy', 'policy.karmada.io/ClusterOverridePolicy'], what: 'resourceSelector', class: 'object-reference', values: (b) => list(at(b, 'spec', 'resourceSelectors')) },
  { kinds: ['work.karmada.io/ResourceBinding', 'work.karmada.io/ClusterResourceBinding'], what: 'binding resource', class: 'object-reference', values: (b) => present([at(b, 'spec', 'resource')]) },
];

/** The namespace label of a cluster DNS name, lower-cased (the translator's own reading); undefined when it holds none. */
function dnsNamespace(name: string): string | undefined {
  const labels = name.toLowerCase().split('.');
  const i = dnsNamespaceIndex(labels);
  return i < 0 ? undefined : labels[i];
}

const CHECKS: Readonly<Record<ReferenceClass, (g: GuardContext, value: unknown) => string | undefined>> = {
  namespace: (g, v) => (g.owned(v) ? undefined : `names namespace ${String(v)}, not the tenant's`),
  'namespace-selector': (g, v) => (isObject(v) && at(v, 'matchLabels', LABEL_KEY) === g.tenantId ? undefined : 'selects namespaces without the tenant label'),
  'object-reference': (g, v) => {
    if (!isObject(v)) return 'is malformed';
    if (v.namespace !== undefined && v.namespace !== '' && !g.owned(v.namespace)) return `is in namespace ${String(v.namespace)}, not the tenant's`;
    if (typeof v.apiVersion === 'string' && v.apiVersion.includes('/') && !g.groupAllowed(v.apiVersion.slice(0, v.apiVersion.indexOf('/')))) return 'names another tenant\'s group';
    return undefined;
  },
  'cluster-dns-name': (g, v) => {
    if (typeof v !== 'string') return 'is not a name';
    const ns = dnsNamespace(v);
    return ns === undefined || g.owned(ns) ? undefined : `${v} points into a namespace that is not the tenant's`;
  },
};

const BY_KIND = new Map<string, ReferenceField[]>();
for (const field of REFERENCE_FIELDS) for (const k of field.kinds) BY_KIND.set(k, [...(BY_KIND.get(k) ?? []), field]);

/** Why one of the object's table references is not the tenant's, or undefined. */
export function tableReferenceRefusal(g: GuardContext, group: string, kind: string, body: Obj): string | undefined {
  for (const field of BY_KIND.get(`${group}/${kind}`) ?? []) {
    for (const value of field.values(body, `${group}/${kind}`)) {
      const why = CHECKS[field.class](g, value);
      if (why) return `${field.what} ${why}`;
    }
  }
  return undefined;
}
