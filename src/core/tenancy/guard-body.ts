// The isolation guard's look at a written object (isolation-guard.ts): the
// exact upstream body of a create, update, server-side apply, or the final
// object of a patch the gateway applied. Written apart from the translator on
// purpose, like the guard: it re-derives the kind from the path and checks
// what the object says, in upstream terms, with none of the translator's
// mapping functions. Each check answers why it refuses, or undefined.
import { isObject } from '../types.ts';
import { RESOURCE_CLASS_ROWS, type ResourceClassRow } from './resource-classes.ts';
import { referenceRefusal } from './guard-references.ts';

export interface GuardTarget {
  tenantId: string;
  /** Upstream group and version of the path ('' for core). */
  group: string;
  version: string;
  resource: string;
  subresource: string;
  /** Upstream namespace of the path ('' when cluster-scoped). */
  namespace: string;
  /** Upstream name of the path ('' for a create on the collection). */
  name: string;
  /** The Pod Security level the tenant's Namespaces must carry, when the caller knows it. */
  podSecurity?: string;
}

const LABEL_KEY = 'tenancy.warren.dev/tenant';
const ROWS = new Map(RESOURCE_CLASS_ROWS.map((r) => [`${r.group}/${r.resource}`, r]));
const KNOWN_GROUPS = new Set(RESOURCE_CLASS_ROWS.map((r) => r.group));
const PARENT_BODY = new Set(['', 'status', 'finalize', 'ephemeralcontainers', 'resize']);
/** Built once: rebuilt per call it was most of a guard pass's cost (~17 µs of a ConfigMap create's ~20, issue 18). */
const BY_KIND = new Map(RESOURCE_CLASS_ROWS.map((r) => [`${r.group}/${r.kind}`, r]));

export interface GuardContext {
  tenantId: string;
  /** `<id>-x` with a non-empty x. */
  owned(value: unknown): boolean;
  /** A group the tenant may name: a known (built-in or Karmada) group, or one of its own prefixed CRD groups. */
  groupAllowed(group: string): boolean;
  row(group: string, kind: string): ResourceClassRow | undefined;
}

export function guardContext(tenantId: string): GuardContext {
  const prefix = `${tenantId}-`;
  const owned = (value: unknown): boolean => typeof value === 'string' && value.length > prefix.length && value.startsWith(prefix);
  return {
    tenantId,
    owned,
    groupAllowed: (group) => KNOWN_GROUPS.has(group) || owned(group),
    row: (group, kind) => BY_KIND.get(`${group}/${kind}`),
  };
}

/** The apiVersion and kind the path says the body must have; kind undefined for a tenant custom resource. */
function expectedType(g: GuardContext, t: GuardTarget): { apiVersions: string[]; kind: string | undefined } | string {
  const at = (group: string, versions: string[]): string[] => versions.map((v) => (group ? `${group}/${v}` : v));
  if (t.subresource === 'scale') return { apiVersions: ['autoscaling/v1'], kind: 'Scale' };
  if (t.subresource === 'eviction') return { apiVersions: at('policy', ['v1', 'v1beta1']), kind: 'Eviction' };
  if (!PARENT_BODY.has(t.subresource)) return `a body for subresource ${t.subresource}`;
  const row = ROWS.get(`${t.group}/${t.resource}`);
  if (row) return { apiVersions: at(t.group, [t.version]), kind: row.kind };
  if (g.owned(t.group) && !KNOWN_GROUPS.has(t.group)) return { apiVersions: at(t.group, [t.version]), kind: undefined };
  return `a body for an unknown resource ${t.group}/${t.resource}`;
}

function metadataRefusal(g: GuardContext, t: GuardTarget, meta: Record<string, unknown>, kind: string | undefined): string | undefined {
  const namespace = meta.namespace ?? '';
  if (t.namespace ? namespace !== '' && namespace !== t.namespace : namespace !== '') return 'body namespace is not the request\'s';
  if (t.name && meta.name !== undefined && meta.name !== t.name) return 'body name is not the request\'s';
  if (kind === 'Scale' || kind === 'Eviction') return undefined;
  const labels = meta.labels;
  if (!isObject(labels) || labels[LABEL_KEY] !== g.tenantId) return 'the object does not carry the tenant label';
  if (meta.ownerReferences !== undefined) {
    if (!Array.isArray(meta.ownerReferences)) return 'ownerReferences is not a list';
    for (const ref of meta.ownerReferences) {
      const why = ownerRefusal(g, ref);
      if (why) return why;
    }
  }
  return undefined;
}

function ownerRefusal(g: GuardContext, ref: unknown): string | undefined {
  if (!isObject(ref) || typeof ref.apiVersion !== 'string' || typeof ref.kind !== 'string' || typeof ref.name !== 'string') return 'malformed ownerReference';
  const slash = ref.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
  if (!g.groupAllowed(group)) return `ownerReference to another tenant's group ${group}`;
  if (!KNOWN_GROUPS.has(group)) return undefined; // the tenant's own custom kind: same namespace, or a prefixed name upstream checks
  const row = g.row(group, ref.kind);
  if (!row) return `ownerReference to an unknown kind ${ref.kind}`;
  if (row.class === 'tenant-namespaced') return undefined; // owners are in the object's own namespace
  if (row.class !== 'tenant-cluster-scoped') return `ownerReference to a ${row.class} ${ref.kind}`;
  const isCrd = group === 'apiextensions.k8s.io';
  return (isCrd ? g.owned(ref.name.slice(ref.name.indexOf('.') + 1)) : g.owned(ref.name)) ? undefined : `ownerReference to ${ref.kind} ${ref.name}, not the tenant's`;
}

/** Why the written object must not be sent, or undefined. */
export function bodyRefusal(t: GuardTarget, body: unknown): string | undefined {
  const g = guardContext(t.tenantId);
  if (!isObject(body) || !isObject(body.metadata)) return 'the body is not an object with metadata';
  const expected = expectedType(g, t);
  if (typeof expected === 'string') return `${expected} cannot be judged`;
  if (typeof body.apiVersion !== 'string' || !expected.apiVersions.includes(body.apiVersion)) return `body apiVersion ${String(body.apiVersion)} is not the request's`;
  if (typeof body.kind !== 'string' || body.kind === '' || (expected.kind !== undefined && body.kind !== expected.kind)) return `body kind ${String(body.kind)} is not the request's`;
  const meta = metadataRefusal(g, t, body.metadata, expected.kind);
  if (meta) return meta;
  if (expected.kind === undefined) return undefined; // a custom resource holds no references the upstream follows
  return referenceRefusal(g, { group: t.group, kind: expected.kind, podSecurity: t.podSecurity, create: t.name === '' }, body);
}
