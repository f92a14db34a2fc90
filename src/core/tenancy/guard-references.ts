// The isolation guard's check of what a written object points at, kind by
// kind, in upstream terms (guard-body.ts): every field the translator maps
// (kind-converters.ts, references.ts) is checked here again, independently,
// plus fields no translation could make safe. A reference the guard cannot
// prove is the tenant's own is refused.
import { isObject } from '../types.ts';
import type { GuardContext } from './guard-body.ts';
import { at, list, tableReferenceRefusal } from './guard-reference-table.ts';

type Obj = Record<string, unknown>;
export interface GuardKind {
  /** Upstream group of the path and the kind the path writes. */
  group: string;
  kind: string;
  podSecurity: string | undefined;
  /** A create (POST on the collection). */
  create: boolean;
}

const LABEL_KEY = 'tenancy.warren.dev/tenant';
const RBAC = 'rbac.authorization.k8s.io';
const PSA_MODES = ['enforce', 'audit', 'warn'];

/**
 * An upstream user or group name in the tenant's own `warren:<id>:` space. Nothing
 * else: a host identity (a ServiceAccount's `system:serviceaccount:<ns>:<sa>`, its
 * namespace's group) holds a token the upstream accepts, even the tenant's own
 * (ADR 0028: tenant ServiceAccounts hold no host grants).
 */
function ownIdentity(g: GuardContext, name: unknown): boolean {
  const tenantSpace = `warren:${g.tenantId}:`;
  return typeof name === 'string' && name.startsWith(tenantSpace) && name.length > tenantSpace.length;
}

function bindingRefusal(g: GuardContext, body: Obj, namespaced: boolean): string | undefined {
  if (body.subjects !== undefined && !Array.isArray(body.subjects)) return 'subjects is not a list';
  for (const s of list(body.subjects)) {
    if (!isObject(s)) return 'malformed subject';
    if (s.kind === 'ServiceAccount') return `subject ServiceAccount ${String(s.namespace)}/${String(s.name)} is a host identity`;
    if (s.kind !== 'User' && s.kind !== 'Group') return `subject of kind ${String(s.kind)}`;
    if (!ownIdentity(g, s.name)) return `subject ${s.kind} ${String(s.name)} is not one of the tenant's identities`;
  }
  const ref = body.roleRef;
  if (!isObject(ref) || ref.apiGroup !== RBAC) return 'roleRef is not an RBAC role';
  if (ref.kind === 'ClusterRole') return g.owned(ref.name) ? undefined : `roleRef ClusterRole ${String(ref.name)} is not the tenant's`;
  if (ref.kind === 'Role' && namespaced) return undefined; // a Role of the binding's own namespace
  return `roleRef of kind ${String(ref.kind)}`;
}

function clusterRoleRefusal(g: GuardContext, body: Obj): string | undefined {
  for (const s of list(at(body, 'aggregationRule', 'clusterRoleSelectors'))) {
    if (!isObject(s) || !isObject(s.matchLabels) || s.matchLabels[LABEL_KEY] !== g.tenantId) return 'aggregation selector without the tenant label';
  }
  return undefined;
}

function crdRefusal(g: GuardContext, body: Obj): string | undefined {
  const group = at(body, 'spec', 'group');
  if (!g.owned(group)) return `CRD group ${String(group)} is not the tenant's`;
  const name = at(body, 'metadata', 'name');
  if (typeof name === 'string' && name.slice(name.indexOf('.') + 1) !== group) return 'CRD name is not in its own group';
  for (const config of [at(body, 'spec', 'conversion', 'webhook', 'clientConfig'), at(body, 'spec', 'conversion', 'webhookClientConfig')]) {
    if (config === undefined) continue;
    if (!isObject(config)) return 'malformed conversion webhook';
    if (config.url !== undefined) return 'conversion webhook by URL (the upstream would call any address)';
    if (config.service !== undefined && !g.owned(at(config, 'service', 'namespace'))) return 'conversion webhook service outside the tenant\'s namespaces';
  }
  return undefined;
}

function namespaceRefusal(g: GuardContext, body: Obj, podSecurity: string | undefined): string | undefined {
  const labels = at(body, 'metadata', 'labels');
  const name = at(body, 'metadata', 'name');
  if (!isObject(labels)) return 'namespace without labels';
  const own = labels['kubernetes.io/metadata.name'];
  if (own !== undefined && own !== name) return 'namespace name label names another namespace';
  for (const mode of PSA_MODES) {
    const value = labels[`pod-security.kubernetes.io/${mode}`];
    if (value === undefined || (podSecurity !== undefined && value !== podSecurity)) return `Pod Security label ${mode}=${String(value)} is not the tenant's level`;
  }
  void g;
  return undefined;
}

function pvcRefusal(g: GuardContext, body: Obj, create: boolean): string | undefined {
  const volumeName = at(body, 'spec', 'volumeName');
  // PersistentVolumes are the platform's: a new claim may not pick one by name (another tenant's released data).
  // An update may keep what the platform's binder set; admission (pvc-volume-admitter.ts) judges a change.
  if (create && typeof volumeName === 'string' && volumeName !== '' && !g.owned(volumeName)) return `claim of volume ${volumeName}, not the tenant's`;
  return undefined;
}

function karmadaRefusal(g: GuardContext, kind: string, body: Obj): string | undefined {
  if (kind === 'ClusterResourceBinding') {
    const resource = at(body, 'spec', 'resource');
    if (isObject(resource) && !resource.namespace && resource.name !== undefined) {
      const name = String(resource.name);
      if (!g.owned(name) && !g.owned(name.slice(name.indexOf('.') + 1))) return `binding resource ${name} is not the tenant's`;
    }
    return undefined;
  }
  if (kind === 'Work') {
    for (const m of list(at(body, 'spec', 'workload', 'manifests'))) {
      const ns = at(m, 'metadata', 'namespace');
      const name = at(m, 'metadata', 'name');
      if (ns ? !g.owned(ns) : !g.owned(name)) return 'work manifest outside the tenant';
    }
  }
  return undefined;
}

/** Why the object's references must not reach the upstream, or undefined. */
export function referenceRefusal(g: GuardContext, k: GuardKind, body: Obj): string | undefined {
  const key = `${k.group}/${k.kind}`;
  const table = tableReferenceRefusal(g, k.group, k.kind, body);
  if (table) return table;
  switch (key) {
    case `${RBAC}/RoleBinding`: return bindingRefusal(g, body, true);
    case `${RBAC}/ClusterRoleBinding`: return bindingRefusal(g, body, false);
    case `${RBAC}/ClusterRole`: return clusterRoleRefusal(g, body);
    case 'apiextensions.k8s.io/CustomResourceDefinition': return crdRefusal(g, body);
    case '/Namespace': return namespaceRefusal(g, body, k.podSecurity);
    case '/PersistentVolumeClaim': return pvcRefusal(g, body, k.create);
    default:
      if (k.group.endsWith('karmada.io')) return karmadaRefusal(g, k.kind, body);
      return undefined;
  }
}
