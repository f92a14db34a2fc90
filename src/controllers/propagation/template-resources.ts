// The kinds the propagation engine spreads to members, as rows: adding one is a
// line. Each is watched upstream across the tenants (objects that carry the
// tenant label). Namespaces themselves follow implicitly, as in Karmada: a
// member gets the namespace of every object it receives. Cluster-scoped rows
// are claimed only by a ClusterPropagationPolicy and get a ClusterResourceBinding
// (Karmada's detector); the tenants' own custom kinds are rows made at run time
// (custom-kinds.ts), from the tenant's CRD, while a policy selects them.
export interface TemplateResource {
  /** Upstream spelling: a tenant CRD's group carries the tenant prefix. */
  group: string;
  version: string;
  resource: string;
  kind: string;
  /** Carries a status worth reflecting back from the members. */
  hasStatus: boolean;
  /** Cluster-scoped: a ClusterResourceBinding, and the object's name carries the tenant prefix upstream and on members. */
  clusterScoped?: true;
  /** One tenant's custom kind (its CRD's), watched only while one of its policies selects it. */
  custom?: true;
  /**
   * An older version of a kind, watched only where the upstream does not serve the row of `fallbackFor`'s
   * version (CronJob: batch/v1 from kube 1.21, batch/v1beta1 alone on 1.20). The same objects either way:
   * exactly one of the two rows is watched, so a template never has two bindings.
   */
  fallbackFor?: string;
}

export const TEMPLATE_RESOURCES: readonly TemplateResource[] = [
  { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', hasStatus: true },
  { group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet', hasStatus: true },
  { group: 'apps', version: 'v1', resource: 'daemonsets', kind: 'DaemonSet', hasStatus: true },
  { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', hasStatus: true },
  { group: '', version: 'v1', resource: 'replicationcontrollers', kind: 'ReplicationController', hasStatus: true },
  { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', hasStatus: true },
  { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', hasStatus: true },
  { group: 'batch', version: 'v1beta1', resource: 'cronjobs', kind: 'CronJob', hasStatus: true, fallbackFor: 'v1' },
  { group: '', version: 'v1', resource: 'services', kind: 'Service', hasStatus: true },
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', hasStatus: false },
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', hasStatus: false },
  { group: '', version: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount', hasStatus: false },
  { group: '', version: 'v1', resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', hasStatus: true },
  { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses', kind: 'Ingress', hasStatus: true },
  { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', kind: 'ClusterRole', hasStatus: false, clusterScoped: true },
  { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', hasStatus: false, clusterScoped: true },
  { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition', hasStatus: false, clusterScoped: true },
  // Selected by name or labels in a ClusterPropagationPolicy; otherwise namespaces follow their objects, as above.
  { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', hasStatus: false, clusterScoped: true },
];

export function isNamespaceRow(r: Pick<TemplateResource, 'group' | 'kind'>): boolean {
  return r.group === '' && r.kind === 'Namespace';
}

/** The CustomResourceDefinition row: its informer is also where the engine learns the tenants' custom kinds. */
export const CRD_RESOURCE: TemplateResource = TEMPLATE_RESOURCES.find((r) => r.kind === 'CustomResourceDefinition')!;

export function apiVersionOf(r: Pick<TemplateResource, 'group' | 'version'>): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

/** Collection path across all namespaces, e.g. /apis/apps/v1/deployments. */
export function allNamespacesPath(r: TemplateResource): string {
  return r.group ? `/apis/${r.group}/${r.version}/${r.resource}` : `/api/${r.version}/${r.resource}`;
}

/** Collection path in one namespace; for a cluster-scoped resource, its one collection (the namespace is ignored). */
export function namespacedPath(r: TemplateResource, namespace: string): string {
  if (r.clusterScoped) return allNamespacesPath(r);
  const base = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  return `${base}/namespaces/${encodeURIComponent(namespace)}/${r.resource}`;
}

/** Store key of a template in its informer (client-go's MetaNamespaceKeyFunc). */
export function storeKey(namespace: string, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/**
 * Identity of a row in queue keys: group and plural (a tenant CRD's group is tenant-prefixed, so unique); a
 * fallback row's version too (it shares its group and plural with the row it stands in for).
 */
export function resourceId(r: Pick<TemplateResource, 'group' | 'resource'> & Partial<Pick<TemplateResource, 'version' | 'fallbackFor'>>): string {
  return r.fallbackFor ? `${r.group}/${r.resource}@${r.version ?? ''}` : `${r.group}/${r.resource}`;
}

/** The row a fallback row stands in for, or the fallback row of a row (the other version of the same kind). */
export function otherVersionOf(r: TemplateResource): TemplateResource | undefined {
  return TEMPLATE_RESOURCES.find((o) => o !== r && o.group === r.group && o.resource === r.resource && !o.custom && (o.fallbackFor === r.version || r.fallbackFor === o.version));
}

const BY_KIND = new Map(TEMPLATE_RESOURCES.map((r) => [`${apiVersionOf(r)}/${r.kind}`, r]));

/** A built-in row by apiVersion and kind; the engine's own lookup (EngineInformers.resourceOf) adds the custom rows. */
export function templateResourceOf(apiVersion: string, kind: string): TemplateResource | undefined {
  return BY_KIND.get(`${apiVersion}/${kind}`);
}
