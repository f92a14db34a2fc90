// How kube-apiserver names OpenAPI definitions: by Go package, then type name
// ("io.k8s.api.apps.v1.DeploymentSpec"). The client-node class names drop the
// package ("V1DeploymentSpec"), so the package comes from these tables; CRD
// kinds are named from the reversed group ("com.example.v1.Foo").

export const META_PKG = 'io.k8s.apimachinery.pkg.apis.meta.v1';
export const INTSTR = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
export const RAW_EXTENSION = 'io.k8s.apimachinery.pkg.runtime.RawExtension';
export const TIME = `${META_PKG}.Time`;
export const MICRO_TIME = `${META_PKG}.MicroTime`;

/** One row per API group the client knows: API class prefix, group, Go package. */
interface GroupRow {
  api: string; // prefix of the client's API class, e.g. "RbacAuthorization"
  group: string;
  goName: string; // Go package name, also the prefix of disambiguated classes ("RbacV1Subject")
}

const GROUPS: readonly GroupRow[] = [
  { api: 'Core', group: '', goName: 'core' },
  { api: 'Admissionregistration', group: 'admissionregistration.k8s.io', goName: 'admissionregistration' },
  { api: 'Apiextensions', group: 'apiextensions.k8s.io', goName: 'apiextensions' },
  { api: 'Apiregistration', group: 'apiregistration.k8s.io', goName: 'apiregistration' },
  { api: 'Apps', group: 'apps', goName: 'apps' },
  { api: 'Authentication', group: 'authentication.k8s.io', goName: 'authentication' },
  { api: 'Authorization', group: 'authorization.k8s.io', goName: 'authorization' },
  { api: 'Autoscaling', group: 'autoscaling', goName: 'autoscaling' },
  { api: 'Batch', group: 'batch', goName: 'batch' },
  { api: 'Certificates', group: 'certificates.k8s.io', goName: 'certificates' },
  { api: 'Coordination', group: 'coordination.k8s.io', goName: 'coordination' },
  { api: 'Discovery', group: 'discovery.k8s.io', goName: 'discovery' },
  { api: 'Events', group: 'events.k8s.io', goName: 'events' },
  { api: 'FlowcontrolApiserver', group: 'flowcontrol.apiserver.k8s.io', goName: 'flowcontrol' },
  { api: 'InternalApiserver', group: 'internal.apiserver.k8s.io', goName: 'apiserverinternal' },
  { api: 'Networking', group: 'networking.k8s.io', goName: 'networking' },
  { api: 'Node', group: 'node.k8s.io', goName: 'node' },
  { api: 'Policy', group: 'policy', goName: 'policy' },
  { api: 'RbacAuthorization', group: 'rbac.authorization.k8s.io', goName: 'rbac' },
  { api: 'Resource', group: 'resource.k8s.io', goName: 'resource' },
  { api: 'Scheduling', group: 'scheduling.k8s.io', goName: 'scheduling' },
  { api: 'Storage', group: 'storage.k8s.io', goName: 'storage' },
  { api: 'Storagemigration', group: 'storagemigration.k8s.io', goName: 'storagemigration' },
];

/** Types of k8s.io/apimachinery meta/v1 that the client names like any V1 model. */
const META_TYPES = new Set([
  'APIGroup', 'APIGroupList', 'APIResource', 'APIResourceList', 'APIVersions', 'Condition', 'DeleteOptions',
  'FieldSelectorRequirement', 'GroupVersionForDiscovery', 'LabelSelector', 'LabelSelectorRequirement', 'ListMeta',
  'ManagedFieldsEntry', 'ObjectMeta', 'OwnerReference', 'Preconditions', 'ServerAddressByClientCIDR', 'Status',
  'StatusCause', 'StatusDetails', 'WatchEvent',
]);

/**
 * Types that an API class refers to but that live in another package: the
 * scale subresource of apps and core serves autoscaling/v1 Scale.
 */
const FOREIGN_TYPES: Record<string, string> = {
  V1Scale: 'io.k8s.api.autoscaling.v1.Scale',
  V1ScaleSpec: 'io.k8s.api.autoscaling.v1.ScaleSpec',
  V1ScaleStatus: 'io.k8s.api.autoscaling.v1.ScaleStatus',
  // core types that only StorageClass refers to
  V1TopologySelectorTerm: 'io.k8s.api.core.v1.TopologySelectorTerm',
  V1TopologySelectorLabelRequirement: 'io.k8s.api.core.v1.TopologySelectorLabelRequirement',
};

function goPackage(goName: string): string {
  if (goName === 'apiextensions') return 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions';
  if (goName === 'apiregistration') return 'io.k8s.kube-aggregator.pkg.apis.apiregistration';
  return `io.k8s.api.${goName}`;
}

const VERSIONED = /^((?:[A-Z][a-z]+)*?)(V\d+(?:alpha\d+|beta\d+)?)([A-Z][A-Za-z0-9]*)$/;

/** Splits "RbacV1Subject" into prefix "Rbac", version "v1", type "Subject". */
export function splitClassName(className: string): { prefix: string; version: string; type: string } | undefined {
  const m = VERSIONED.exec(className);
  if (!m || m[2] === undefined || m[3] === undefined) return undefined;
  return { prefix: m[1] ?? '', version: m[2].toLowerCase(), type: m[3] };
}

export function apiPrefixes(): readonly string[] {
  return GROUPS.map((g) => g.api);
}

/** Definition-name package ("io.k8s.api.apps") of an API class prefix ("Apps"). */
export function packageOfApiPrefix(api: string): string | undefined {
  const row = GROUPS.find((g) => g.api === api);
  return row ? goPackage(row.goName) : undefined;
}

/**
 * Name of a class whose package is fixed by its own name (meta types, classes
 * the generator prefixed to disambiguate, known foreign types); undefined when
 * the package has to come from the API classes that use it.
 */
export function fixedDefinitionName(className: string): string | undefined {
  if (className === 'VersionInfo') return 'io.k8s.apimachinery.pkg.version.Info';
  if (className === 'V1MicroTime') return MICRO_TIME;
  const foreign = FOREIGN_TYPES[className];
  if (foreign) return foreign;
  const parts = splitClassName(className);
  if (!parts) return undefined;
  if (parts.version === 'v1' && parts.prefix === '' && META_TYPES.has(parts.type)) return `${META_PKG}.${parts.type}`;
  if (parts.prefix === '') return undefined;
  const row = GROUPS.find((g) => g.goName === parts.prefix.toLowerCase());
  return row ? `${goPackage(row.goName)}.${parts.version}.${parts.type}` : undefined;
}

/** Name of a type in a package: "io.k8s.api.apps" + "V1DeploymentSpec". */
export function definitionNameIn(pkg: string, className: string): string | undefined {
  const parts = splitClassName(className);
  return parts ? `${pkg}.${parts.version}.${parts.type}` : undefined;
}

/** The definition name kube-apiserver gives a kind: built-in by package, CRDs by reversed group. */
export function definitionNameOfKind(group: string, version: string, kind: string): string {
  const row = GROUPS.find((g) => g.group === group);
  if (row) return `${goPackage(row.goName)}.${version}.${kind}`;
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

export function isBuiltinGroup(group: string): boolean {
  return GROUPS.some((g) => g.group === group);
}
