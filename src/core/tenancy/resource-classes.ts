// How each upstream resource is handled for tenants, as data: adding a
// resource is a row. A resource missing from the table is denied, so a new
// upstream API never becomes reachable by accident.
import { BUILTIN_RESOURCES } from '../resources/builtin-resources.ts';
import { resourceKey } from '../resources/resource-def.ts';
import { stripPrefix } from './tenant-id.ts';
import { invalid, type ApiError } from '../api-error.ts';
import { dns1123SubdomainErrors } from '../selectors/label-syntax.ts';
import { CLUSTER_NAME_BUDGET } from './namespace-budget.ts';

export type ResourceClass =
  /** namespace prefixed, name as is */
  | 'tenant-namespaced'
  /** name prefixed */
  | 'tenant-cluster-scoped'
  /** visible to every tenant (or, when namespaced, inside the tenant's namespaces), never writable */
  | 'shared-read-only'
  /** answered by the gateway itself, never forwarded */
  | 'gateway-answered'
  /**
   * a read-only view the gateway builds from the tenant's own objects, never
   * forwarded (nodes: virtual nodes from the tenant's pods, ADR 30)
   */
  | 'tenant-view'
  /** refused with 403 */
  | 'denied'
  /**
   * A resource of one of the tenant's own CRD groups: the group is prefixed, and
   * the namespace (namespaced) or the name (cluster-scoped) as well. Its scope
   * comes from its CRD, not from this table.
   */
  | 'tenant-custom';

export interface ResourceClassRow {
  group: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  class: Exclude<ResourceClass, 'tenant-custom'>;
  /** Subresources refused even though the resource itself is allowed (why: see the row). */
  deniedSubresources?: string[];
  /** Subresources the gateway answers itself (create only), never forwarded: serviceaccounts/token (ADR 0028). */
  answeredSubresources?: string[];
  /**
   * The tenant's own objects that only the platform writes: tenants get get/list/watch,
   * every other verb (subresources included) is refused with this reason.
   */
  readOnly?: string;
}

type Override = Pick<ResourceClassRow, 'class' | 'deniedSubresources' | 'answeredSubresources'>;

// Built-in resources whose class is not the default (namespaced → tenant-namespaced).
const BUILTIN_CLASSES: Record<string, Override> = {
  namespaces: { class: 'tenant-cluster-scoped' },
  'clusterroles.rbac.authorization.k8s.io': { class: 'tenant-cluster-scoped' },
  'clusterrolebindings.rbac.authorization.k8s.io': { class: 'tenant-cluster-scoped' },
  'customresourcedefinitions.apiextensions.k8s.io': { class: 'tenant-cluster-scoped' },
  'storageclasses.storage.k8s.io': { class: 'shared-read-only' },
  'ingressclasses.networking.k8s.io': { class: 'shared-read-only' },
  'priorityclasses.scheduling.k8s.io': { class: 'shared-read-only' },
  // ResourceQuotas are the tenant's own, in its own namespaces (as on any cluster). The platform's
  // tenant-wide quota is Tenant.spec.quota, enforced by the gateway, which tenants cannot touch.
  'selfsubjectaccessreviews.authorization.k8s.io': { class: 'gateway-answered' },
  'selfsubjectrulesreviews.authorization.k8s.io': { class: 'gateway-answered' },
  // Virtual nodes built from the tenant's own pods (ADR 30): the host's Nodes are never read for tenants.
  nodes: { class: 'tenant-view' },
  persistentvolumes: { class: 'denied' },
  'mutatingwebhookconfigurations.admissionregistration.k8s.io': { class: 'denied' },
  'validatingwebhookconfigurations.admissionregistration.k8s.io': { class: 'denied' },
  'validatingadmissionpolicies.admissionregistration.k8s.io': { class: 'denied' },
  'validatingadmissionpolicybindings.admissionregistration.k8s.io': { class: 'denied' },
  // A token minted upstream would be valid against the upstream directly, bypassing the
  // gateway: the gateway answers TokenRequest with its own token (ADR 0028).
  // pods/binding would let a tenant pick nodes itself.
  serviceaccounts: { class: 'tenant-namespaced', answeredSubresources: ['token'] },
  pods: { class: 'tenant-namespaced', deniedSubresources: ['binding'] },
  // services/status holds status.loadBalancer.ingress, which every node's kube-proxy captures traffic for,
  // from every tenant's pods (CVE-2020-8554); only the platform's load-balancer controller writes it.
  services: { class: 'tenant-namespaced', deniedSubresources: ['status'] },
};

const ENGINE_MANAGED = 'the resource is managed by the propagation engine and is read-only to tenants';

// Resources not in the embedded server's table but served by real apiservers or Karmada.
const EXTRA_ROWS: ResourceClassRow[] = [
  { group: 'policy.karmada.io', resource: 'propagationpolicies', kind: 'PropagationPolicy', namespaced: true, class: 'tenant-namespaced' },
  { group: 'policy.karmada.io', resource: 'overridepolicies', kind: 'OverridePolicy', namespaced: true, class: 'tenant-namespaced' },
  { group: 'policy.karmada.io', resource: 'clusterpropagationpolicies', kind: 'ClusterPropagationPolicy', namespaced: false, class: 'tenant-cluster-scoped' },
  { group: 'policy.karmada.io', resource: 'clusteroverridepolicies', kind: 'ClusterOverridePolicy', namespaced: false, class: 'tenant-cluster-scoped' },
  // Bindings and Works are the engine's record of what it does (Karmada's too: only its controllers write them).
  // A tenant that could write one could steer the engine's member writes and deletes (ADR 19).
  { group: 'work.karmada.io', resource: 'resourcebindings', kind: 'ResourceBinding', namespaced: true, class: 'tenant-namespaced', readOnly: ENGINE_MANAGED },
  { group: 'work.karmada.io', resource: 'clusterresourcebindings', kind: 'ClusterResourceBinding', namespaced: false, class: 'tenant-cluster-scoped', readOnly: ENGINE_MANAGED },
  { group: 'work.karmada.io', resource: 'works', kind: 'Work', namespaced: true, class: 'tenant-namespaced', readOnly: ENGINE_MANAGED },
  { group: 'cluster.karmada.io', resource: 'clusters', kind: 'Cluster', namespaced: false, class: 'shared-read-only' },
  { group: 'discovery.k8s.io', resource: 'endpointslices', kind: 'EndpointSlice', namespaced: true, class: 'tenant-namespaced' },
  { group: 'node.k8s.io', resource: 'runtimeclasses', kind: 'RuntimeClass', namespaced: false, class: 'shared-read-only' },
  { group: 'authentication.k8s.io', resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', namespaced: false, class: 'gateway-answered' },
  { group: 'authentication.k8s.io', resource: 'tokenreviews', kind: 'TokenReview', namespaced: false, class: 'denied' },
  { group: 'authorization.k8s.io', resource: 'subjectaccessreviews', kind: 'SubjectAccessReview', namespaced: false, class: 'denied' },
  { group: 'authorization.k8s.io', resource: 'localsubjectaccessreviews', kind: 'LocalSubjectAccessReview', namespaced: true, class: 'denied' },
  { group: 'apiregistration.k8s.io', resource: 'apiservices', kind: 'APIService', namespaced: false, class: 'denied' },
  { group: 'certificates.k8s.io', resource: 'certificatesigningrequests', kind: 'CertificateSigningRequest', namespaced: false, class: 'denied' },
  { group: '', resource: 'componentstatuses', kind: 'ComponentStatus', namespaced: false, class: 'denied' },
  { group: 'storage.k8s.io', resource: 'csidrivers', kind: 'CSIDriver', namespaced: false, class: 'denied' },
  { group: 'storage.k8s.io', resource: 'csinodes', kind: 'CSINode', namespaced: false, class: 'denied' },
  { group: 'storage.k8s.io', resource: 'volumeattachments', kind: 'VolumeAttachment', namespaced: false, class: 'denied' },
  { group: 'flowcontrol.apiserver.k8s.io', resource: 'flowschemas', kind: 'FlowSchema', namespaced: false, class: 'denied' },
  { group: 'flowcontrol.apiserver.k8s.io', resource: 'prioritylevelconfigurations', kind: 'PriorityLevelConfiguration', namespaced: false, class: 'denied' },
];

function builtinRow(def: (typeof BUILTIN_RESOURCES)[number]): ResourceClassRow {
  const override = BUILTIN_CLASSES[resourceKey(def.group, def.resource)];
  const row: ResourceClassRow = {
    group: def.group, resource: def.resource, kind: def.kind, namespaced: def.namespaced,
    class: override?.class ?? (def.namespaced ? 'tenant-namespaced' : 'denied'),
  };
  if (override?.deniedSubresources) row.deniedSubresources = override.deniedSubresources;
  if (override?.answeredSubresources) row.answeredSubresources = override.answeredSubresources;
  return row;
}

export const RESOURCE_CLASS_ROWS: readonly ResourceClassRow[] = [...BUILTIN_RESOURCES.map(builtinRow), ...EXTRA_ROWS];

const BY_RESOURCE = new Map(RESOURCE_CLASS_ROWS.map((row) => [resourceKey(row.group, row.resource), row]));
const BY_KIND = new Map(RESOURCE_CLASS_ROWS.map((row) => [`${row.group}/${row.kind}`, row]));

/** Groups the table knows: never a tenant's CRD group, even if a tenant names one so. */
export const KNOWN_GROUPS: ReadonlySet<string> = new Set(RESOURCE_CLASS_ROWS.map((row) => row.group));

/**
 * The group of the API's own shapes rather than of a resource: Table rows carry
 * PartialObjectMetadata (every row on a real kube-apiserver, custom resources'
 * rows on the embedded one), lists of it come back for `as=PartialObjectMetadataList`.
 */
const META_GROUP = 'meta.k8s.io';

/** A built-in group, in either spelling: core, meta.k8s.io, or a group of the resource table. */
export function isBuiltinGroup(group: string): boolean {
  return group === '' || group === META_GROUP || KNOWN_GROUPS.has(group);
}

// Groups a tenant CRD may not claim: Kubernetes' own (kube-apiserver itself wants the
// api-approved.kubernetes.io annotation for these), Karmada's (tenants use the shared
// Karmada groups, which must keep their meaning) and Warren's.
export const RESERVED_SUFFIXES: readonly string[] = ['.k8s.io', '.kubernetes.io', '.karmada.io', '.warren.dev'];

/**
 * Why a tenant may not have a CRD in this (tenant-spelled) group, or undefined
 * when it may: a built-in group (it would be shadowed by the built-in one), or
 * one in a reserved domain (it would read as Kubernetes', Karmada's or Warren's).
 */
export function crdGroupRefusal(group: string): string | undefined {
  if (isBuiltinGroup(group)) return 'the group is a built-in API group';
  const reserved = RESERVED_SUFFIXES.find((suffix) => group.endsWith(suffix) || group === suffix.slice(1));
  return reserved === undefined ? undefined : `groups in ${reserved.slice(1)} are reserved`;
}

/**
 * Can a tenant-spelled group be one of the tenant's CRD groups: any group a
 * tenant may create a CRD in (crdGroupRefusal). This only routes: the group is
 * prefixed with the caller's own id on the way up, so whatever it spells
 * (another tenant's `<id>-a.com` included) it reaches only the caller's own
 * objects, and the upstream answers 404 when the caller has no such CRD. A
 * reserved group that is not built in is a 404 here, never forwarded.
 */
export function isCustomGroup(group: string): boolean {
  return crdGroupRefusal(group) === undefined;
}

/** 422 in kube's words for a tenant CRD (as the tenant wrote it) in a group it may not claim, else null. */
export function checkCrdGroup(crdName: string, group: string): ApiError | null {
  const why = [crdGroupRefusal(group), ...groupShapeErrors(group)].filter((w): w is string => w !== undefined);
  if (why.length === 0) return null;
  return invalid({ kind: 'CustomResourceDefinition', group: 'apiextensions.k8s.io', name: crdName }, why.map((w) => ({
    type: 'FieldValueInvalid',
    field: 'spec.group',
    message: `Invalid value: ${JSON.stringify(group)}: ${w}`,
  })));
}

/**
 * The group's shape in tenant terms: `<id>-` makes `-example.com` a valid upstream
 * subdomain, so only this check sees it; the length is the tenant's budget, not 253.
 */
function groupShapeErrors(group: string): string[] {
  if (group === '') return [];
  const shape = dns1123SubdomainErrors(group).filter((e) => !e.startsWith('must be no more than'));
  if (group.length > CLUSTER_NAME_BUDGET) shape.unshift(`must be no more than ${CLUSTER_NAME_BUDGET} characters`);
  return shape;
}

/**
 * How an upstream-spelled group shows to tenant `id`: its own CRD group
 * (prefixed with its id: only its own CRDs can carry that prefix, since every
 * tenant's CRD group is prefixed with its creator's id), a built-in group, or
 * nothing (another tenant's group, or any group the table does not know). Never
 * by suffix: `<other id>-foo.k8s.io` is another tenant's, not Kubernetes'.
 */
export type UpstreamGroupView = { group: string; custom: boolean } | undefined;

export function upstreamGroupView(id: string, upstreamGroup: string, ownGroups?: ReadonlySet<string>): UpstreamGroupView {
  const group = stripPrefix(id, upstreamGroup);
  if (group !== undefined) {
    // A group it could not have created (a CRD made before the reserved groups were refused)
    // is hidden, as its paths are. With the tenant's CRD list at hand, so is one it has no CRD for.
    if (!isCustomGroup(group) || (ownGroups !== undefined && !ownGroups.has(group))) return undefined;
    return { group, custom: true };
  }
  return isBuiltinGroup(upstreamGroup) ? { group: upstreamGroup, custom: false } : undefined;
}

export type Classification =
  | { class: 'tenant-custom' }
  | { class: ResourceClassRow['class']; row: ResourceClassRow }
  /** Not in the table: denied by default. */
  | { class: 'denied'; row?: undefined };

/** How a resource (group and plural as the tenant wrote them) is handled. */
export function classify(group: string, resource: string, isTenantCrdGroup: boolean): Classification {
  if (isTenantCrdGroup) return { class: 'tenant-custom' };
  const row = BY_RESOURCE.get(resourceKey(group, resource));
  return row ? { class: row.class, row } : { class: 'denied' };
}

/** The row of a resource (group and plural, tenant spelling), whatever its class. */
export function rowOfResource(group: string, resource: string): ResourceClassRow | undefined {
  return BY_RESOURCE.get(resourceKey(group, resource));
}

/** The row of a kind, for references (ownerReferences, roleRef, ...) that name kinds, not resources. */
export function rowOfKind(group: string, kind: string): ResourceClassRow | undefined {
  return BY_KIND.get(`${group}/${kind}`);
}
