// The kinds the propagation engine spreads to members, as rows: adding one is a
// line. Each is watched upstream across the tenants' namespaces (objects that
// carry the tenant label). Namespaces themselves follow implicitly, as in
// Karmada: a member gets the namespace of every object it receives.
export interface TemplateResource {
  group: string;
  version: string;
  resource: string;
  kind: string;
  /** Carries a status worth reflecting back from the members. */
  hasStatus: boolean;
}

export const TEMPLATE_RESOURCES: readonly TemplateResource[] = [
  { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', hasStatus: true },
  { group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet', hasStatus: true },
  { group: 'apps', version: 'v1', resource: 'daemonsets', kind: 'DaemonSet', hasStatus: true },
  { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', hasStatus: true },
  { group: 'batch', version: 'v1', resource: 'cronjobs', kind: 'CronJob', hasStatus: false },
  { group: '', version: 'v1', resource: 'services', kind: 'Service', hasStatus: true },
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', hasStatus: false },
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', hasStatus: false },
  { group: '', version: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount', hasStatus: false },
  { group: '', version: 'v1', resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', hasStatus: true },
  { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses', kind: 'Ingress', hasStatus: true },
];

export function apiVersionOf(r: Pick<TemplateResource, 'group' | 'version'>): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

/** Collection path across all namespaces, e.g. /apis/apps/v1/deployments. */
export function allNamespacesPath(r: TemplateResource): string {
  return r.group ? `/apis/${r.group}/${r.version}/${r.resource}` : `/api/${r.version}/${r.resource}`;
}

/** Collection path in one namespace. */
export function namespacedPath(r: TemplateResource, namespace: string): string {
  const base = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  return `${base}/namespaces/${encodeURIComponent(namespace)}/${r.resource}`;
}

const BY_KIND = new Map(TEMPLATE_RESOURCES.map((r) => [`${apiVersionOf(r)}/${r.kind}`, r]));

export function templateResourceOf(apiVersion: string, kind: string): TemplateResource | undefined {
  return BY_KIND.get(`${apiVersion}/${kind}`);
}
