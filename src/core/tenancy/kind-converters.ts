// Kind-specific parts of object translation, one row per kind: the fields
// that hold references or label selectors. Both directions mutate the object
// they are given. `out` answers false when the object points at something
// that is not the tenant's in a field it cannot do without (the object is then
// hidden); optional foreign references are removed instead of shown.
import { isObject, type KubeObject } from '../types.ts';
import { invalid } from '../api-error.ts';
import {
  toTenantObjectReference, toTenantRoleRef, toTenantSubject, toUpstreamObjectReference, toUpstreamRoleRef,
  type ObjectReference, type RoleRef, type Subject,
} from './references.ts';
import { toTenantCrdName, toTenantGroup, toTenantNamespace, toUpstreamGroup, toUpstreamNamespace } from './names.ts';
import { treatmentOf } from './kind-treatment.ts';
import { checkCrdGroup } from './resource-classes.ts';
import { dropTenantLabel, forceTenantLabel, mapTemplateLabels, stripTenantLabel } from './tenant-label.ts';
import { addPrefix, stripPrefix } from './tenant-id.ts';
import { toTenantDnsName, toTenantNamespaceSelector, toUpstreamDnsName, toUpstreamNamespaceSelector } from './namespace-references.ts';
import type { TenantContext } from './tenant-context.ts';
import { HELD_NODE_SELECTOR_KEY, showTenantView } from '../propagation/host-hold.ts';
import { serviceAccountTokenSecretRefusal } from './service-account-tokens.ts';
import { scrubText } from './status-translation.ts';
import { clusterScopedEventRefIn, clusterScopedEventRefOut } from './event-scope.ts';
import { toUpstreamSubjects } from './rbac-subjects.ts';
import { mapLabelKeys, MAX_LABEL_PREFIX, overlongRoleLabelKey, toTenantRoleLabelKey, toUpstreamRoleLabelKey } from './cluster-role-labels.ts';

type Obj = Record<string, unknown>;
export interface KindConverter {
  in(ctx: TenantContext, obj: KubeObject): void;
  out(ctx: TenantContext, obj: KubeObject): boolean;
}

function child(obj: unknown, ...path: string[]): Obj | undefined {
  let at: unknown = obj;
  for (const key of path) at = isObject(at) ? at[key] : undefined;
  return isObject(at) ? at : undefined;
}

function objects(value: unknown): Obj[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

/** Rewrites holder[key] (an ObjectReference) both ways; a foreign one is removed. */
function refIn(ctx: TenantContext, holder: Obj | undefined, key: string): void {
  if (holder && isObject(holder[key])) holder[key] = toUpstreamObjectReference(ctx, holder[key] as ObjectReference);
}
function refOut(ctx: TenantContext, holder: Obj | undefined, key: string): void {
  if (!holder || !isObject(holder[key])) return;
  const ref = toTenantObjectReference(ctx, holder[key] as ObjectReference);
  if (ref === undefined) delete holder[key];
  else holder[key] = ref;
}

const endpointAddressLists = (obj: KubeObject): Obj[] =>
  objects(obj.subsets).flatMap((subset) => [...objects(subset.addresses), ...objects(subset.notReadyAddresses)]);

/** The request decides the kind (ADR 21): one converter per binding kind, never the body's `kind`. */
const rbacBinding = (kind: 'RoleBinding' | 'ClusterRoleBinding'): KindConverter => ({
  in(ctx, obj) {
    // metadata is already upstream's here: messages and a ServiceAccount's default namespace are the tenant's.
    const name = String(obj.metadata.name ?? '');
    const namespace = obj.metadata.namespace ? stripPrefix(ctx.id, obj.metadata.namespace) : undefined;
    const binding = kind === 'RoleBinding'
      ? { kind, name, ...(namespace !== undefined ? { namespace } : {}) }
      : { kind, name: stripPrefix(ctx.id, name) ?? name };
    if (Array.isArray(obj.subjects)) obj.subjects = toUpstreamSubjects(ctx, objects(obj.subjects), binding);
    if (isObject(obj.roleRef)) obj.roleRef = toUpstreamRoleRef(ctx, obj.roleRef as unknown as RoleRef);
  },
  out(ctx, obj) {
    if (Array.isArray(obj.subjects)) {
      obj.subjects = objects(obj.subjects).map((s) => toTenantSubject(ctx, s as unknown as Subject)).filter((s) => s !== undefined);
    }
    if (!isObject(obj.roleRef)) return true;
    const roleRef = toTenantRoleRef(ctx, obj.roleRef as unknown as RoleRef);
    if (roleRef === undefined) return false; // bound to a ClusterRole that is not the tenant's
    obj.roleRef = roleRef;
    return true;
  },
});

// An aggregated ClusterRole would otherwise pick up rules from every ClusterRole upstream; and
// a tenant role's label keys are moved out of the host's reach (cluster-role-labels.ts, ADR 0028).
function selectorsOf(obj: KubeObject): Obj[] {
  return objects(child(obj, 'aggregationRule')?.clusterRoleSelectors);
}

function mapSelectorKeys(selector: Obj, map: (key: string) => string): void {
  if (isObject(selector.matchLabels)) selector.matchLabels = mapLabelKeys(selector.matchLabels as Record<string, string>, map);
  for (const e of objects(selector.matchExpressions)) if (typeof e.key === 'string') e.key = map(e.key);
}

/** managedFields record label keys as `f:<key>` under f:metadata.f:labels. */
function mapManagedLabelKeys(obj: KubeObject, map: (key: string) => string): void {
  for (const entry of obj.metadata.managedFields ?? []) {
    const labels = child(entry.fieldsV1, 'f:metadata', 'f:labels');
    if (!labels) continue;
    for (const field of Object.keys(labels)) {
      if (!field.startsWith('f:')) continue;
      const mapped = `f:${map(field.slice(2))}`;
      if (mapped === field) continue;
      labels[mapped] = labels[field];
      delete labels[field];
    }
  }
}

const clusterRole: KindConverter = {
  in(ctx, obj) {
    const up = (key: string): string => toUpstreamRoleLabelKey(ctx.id, key);
    const overlong = overlongRoleLabelKey(ctx.id, obj.metadata.labels);
    if (overlong !== undefined) {
      const name = String(obj.metadata.name ?? '');
      throw invalid({ group: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: stripPrefix(ctx.id, name) ?? name }, [{
        type: 'FieldValueInvalid', field: 'metadata.labels',
        message: `Invalid value: ${JSON.stringify(overlong)}: a ClusterRole's label key prefix may be at most ${MAX_LABEL_PREFIX - ctx.id.length - 1} characters here`,
      }]);
    }
    obj.metadata.labels = mapLabelKeys(obj.metadata.labels, up);
    mapManagedLabelKeys(obj, up);
    for (const s of selectorsOf(obj)) {
      mapSelectorKeys(s, up);
      s.matchLabels = forceTenantLabel(ctx.id, s.matchLabels as Record<string, string> | undefined);
    }
  },
  out(ctx, obj) {
    const down = (key: string): string => toTenantRoleLabelKey(ctx.id, key);
    if (obj.metadata.labels) obj.metadata.labels = mapLabelKeys(obj.metadata.labels, down);
    mapManagedLabelKeys(obj, down);
    for (const s of selectorsOf(obj)) {
      const labels = stripTenantLabel(s.matchLabels as Record<string, string> | undefined);
      if (labels === undefined) delete s.matchLabels;
      else s.matchLabels = labels;
      mapSelectorKeys(s, down);
    }
    return true;
  },
};

/** metadata.name is already upstream's when converters run: messages name the tenant's spelling. */
function crdTenantName(ctx: TenantContext, obj: KubeObject): string {
  const name = String(obj.metadata?.name ?? '');
  return toTenantCrdName(ctx.id, name) ?? name;
}

/**
 * The host apiserver itself calls a CRD's conversion webhook: by URL that is
 * any address it can reach (its cloud metadata endpoint, another tenant's
 * pods), so only a Service in the tenant's own namespaces is accepted.
 */
function refuseConversionWebhookUrl(ctx: TenantContext, obj: KubeObject): void {
  const fields = [['spec', 'conversion', 'webhook', 'clientConfig'], ['spec', 'conversion', 'webhookClientConfig']];
  for (const path of fields) {
    const config = child(obj, ...path);
    if (config?.url === undefined) continue;
    throw invalid({ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', name: crdTenantName(ctx, obj) }, [{
      type: 'FieldValueForbidden', field: `${path.join('.')}.url`, message: 'Forbidden: a conversion webhook must be a service in one of your namespaces, not a URL',
    }]);
  }
}

const crd: KindConverter = {
  in(ctx, obj) {
    const spec = child(obj, 'spec');
    if (spec && typeof spec.group === 'string') {
      // metadata.name is already upstream's here: the message names the tenant's spelling.
      const name = String(obj.metadata?.name ?? '');
      const refused = checkCrdGroup(toTenantCrdName(ctx.id, name) ?? name, spec.group);
      if (refused) throw refused;
      spec.group = toUpstreamGroup(ctx.id, spec.group);
    }
    refuseConversionWebhookUrl(ctx, obj);
    const service = child(spec, 'conversion', 'webhook', 'clientConfig', 'service');
    if (service && typeof service.namespace === 'string') service.namespace = toUpstreamNamespace(ctx.id, service.namespace);
  },
  out(ctx, obj) {
    const spec = child(obj, 'spec');
    if (spec && typeof spec.group === 'string') {
      const group = toTenantGroup(ctx.id, spec.group);
      if (group === undefined) return false;
      spec.group = group;
    }
    const service = child(spec, 'conversion', 'webhook', 'clientConfig', 'service');
    if (service && typeof service.namespace === 'string') {
      const namespace = toTenantNamespace(ctx.id, service.namespace);
      if (namespace === undefined) return false;
      service.namespace = namespace;
    }
    return true;
  },
};

/**
 * An Event's text is written by whoever reports it, most often the host's or a member's own components, in
 * upstream names: the scheduler's preemption event on the victim reads "Preempted by <ns>/<pod> on node ..."
 * with the preemptor's namespace, which may be another tenant's (its id, the key to its upstream names). Like
 * every upstream message (row M), it is read through scrubText: the caller's own prefix goes, another
 * tenant's prefixed names and host paths are hidden. JSON, watch and the Tables built from them alike.
 */
function scrubEventText(ctx: TenantContext, obj: KubeObject, field: 'message' | 'note'): void {
  const text = (obj as Obj)[field];
  if (typeof text === 'string') (obj as Obj)[field] = scrubText(ctx.id, text, ctx.isTenantId);
}

/** Events: the reference (`involvedObject` or `regarding`) as kube 1.20 takes it on a real host (event-scope.ts). */
function eventConverter(refKey: 'involvedObject' | 'regarding', textKey: 'message' | 'note'): KindConverter {
  return {
    in(ctx, obj) {
      const namespace = obj.metadata?.namespace;
      clusterScopedEventRefIn(ctx, obj, refKey, namespace ? toTenantNamespace(ctx.id, namespace) : undefined);
      refIn(ctx, obj, refKey);
      refIn(ctx, obj, 'related');
    },
    out(ctx, obj) {
      refOut(ctx, obj, refKey);
      clusterScopedEventRefOut(ctx, obj, refKey);
      refOut(ctx, obj, 'related');
      scrubEventText(ctx, obj, textKey);
      return true;
    },
  };
}
const coreEvent = eventConverter('involvedObject', 'message');
const eventsEvent = eventConverter('regarding', 'note');

const endpoints: KindConverter = {
  in(ctx, obj) { for (const a of endpointAddressLists(obj)) refIn(ctx, a, 'targetRef'); },
  out(ctx, obj) { for (const a of endpointAddressLists(obj)) refOut(ctx, a, 'targetRef'); return true; },
};

const endpointSlice: KindConverter = {
  in(ctx, obj) { for (const e of objects(obj.endpoints)) refIn(ctx, e, 'targetRef'); },
  out(ctx, obj) { for (const e of objects(obj.endpoints)) refOut(ctx, e, 'targetRef'); return true; },
};

const persistentVolume: KindConverter = {
  in(ctx, obj) { refIn(ctx, child(obj, 'spec'), 'claimRef'); },
  out(ctx, obj) { refOut(ctx, child(obj, 'spec'), 'claimRef'); return true; },
};

// volumeName names a PersistentVolume: prefixed only if PVs are ever tenant-owned (today they are denied, so platform names pass as is).
const persistentVolumeClaim: KindConverter = {
  in(ctx, obj) {
    const spec = child(obj, 'spec');
    if (spec && typeof spec.volumeName === 'string' && spec.volumeName !== '' && treatmentOf(ctx, '', 'PersistentVolume').name === 'prefix') {
      spec.volumeName = addPrefix(ctx.id, spec.volumeName);
    }
  },
  out(ctx, obj) {
    const spec = child(obj, 'spec');
    if (spec && typeof spec.volumeName === 'string' && spec.volumeName !== '' && treatmentOf(ctx, '', 'PersistentVolume').name === 'prefix') {
      const name = stripPrefix(ctx.id, spec.volumeName);
      if (name === undefined) delete spec.volumeName;
      else spec.volumeName = name;
    }
    return true;
  },
};

/** Pod templates (and claim templates) whose products should carry the tenant label. */
export function templates(obj: KubeObject): unknown[] {
  const spec = child(obj, 'spec');
  const jobTemplate = child(spec, 'jobTemplate');
  return [obj.template, spec?.template, jobTemplate, child(jobTemplate, 'spec')?.template, ...objects(spec?.volumeClaimTemplates)];
}

/** Pod affinity terms name namespaces (by name, or by a selector over every namespace upstream). */
function affinityTerms(podSpec: unknown): Obj[] {
  const affinity = child(podSpec, 'affinity');
  return ['podAffinity', 'podAntiAffinity'].flatMap((kind) => {
    const a = child(affinity, kind);
    return [...objects(a?.requiredDuringSchedulingIgnoredDuringExecution), ...objects(a?.preferredDuringSchedulingIgnoredDuringExecution).map((p) => child(p, 'podAffinityTerm')).filter((t) => t !== undefined)];
  });
}

function affinityIn(ctx: TenantContext, podSpec: unknown): void {
  for (const term of affinityTerms(podSpec)) {
    if (Array.isArray(term.namespaces)) term.namespaces = term.namespaces.map((ns) => (typeof ns === 'string' ? toUpstreamNamespace(ctx.id, ns) : ns));
    // A selector over namespaces would match every tenant's: it is narrowed to the tenant's own.
    if (isObject(term.namespaceSelector)) term.namespaceSelector = toUpstreamNamespaceSelector(ctx.id, term.namespaceSelector);
  }
  dnsSearchesIn(ctx, podSpec);
}

/** A pod's DNS search domains `<ns>.svc.<domain>` name namespaces (hostAliases and nameservers are the pod's own). */
function dnsSearchesIn(ctx: TenantContext, podSpec: unknown): void {
  const dns = child(podSpec, 'dnsConfig');
  if (dns && Array.isArray(dns.searches)) dns.searches = dns.searches.map((s) => (typeof s === 'string' ? toUpstreamDnsName(ctx.id, s) : s));
}

function dnsSearchesOut(ctx: TenantContext, podSpec: unknown): void {
  const dns = child(podSpec, 'dnsConfig');
  if (dns && Array.isArray(dns.searches)) dns.searches = dns.searches.map((s) => (typeof s === 'string' ? toTenantDnsName(ctx.id, s) : s)).filter((s) => s !== undefined);
}

function affinityOut(ctx: TenantContext, podSpec: unknown): void {
  for (const term of affinityTerms(podSpec)) {
    if (Array.isArray(term.namespaces)) term.namespaces = term.namespaces.map((ns) => (typeof ns === 'string' ? toTenantNamespace(ctx.id, ns) : undefined)).filter((ns) => ns !== undefined);
    if (isObject(term.namespaceSelector)) {
      const selector = toTenantNamespaceSelector(ctx.id, term.namespaceSelector);
      if (selector === undefined) delete term.namespaceSelector;
      else term.namespaceSelector = selector;
    }
  }
  dnsSearchesOut(ctx, podSpec);
}

const podSpecOfTemplate = (template: unknown): unknown => child(template, 'spec');

const workload: KindConverter = {
  in(ctx, obj) {
    for (const t of templates(obj)) {
      mapTemplateLabels(t, (labels) => forceTenantLabel(ctx.id, labels));
      affinityIn(ctx, podSpecOfTemplate(t));
    }
  },
  out(ctx, obj) {
    for (const t of templates(obj)) {
      mapTemplateLabels(t, dropTenantLabel); // the object being translated out is the caller's: in place
      affinityOut(ctx, podSpecOfTemplate(t));
    }
    return true;
  },
};

// A propagated workload is stored held upstream (ADR 0023, held-kinds.ts): the tenant sees its own spec and the
// engine's status. Only the way out: the held form is made by the engine, and kept on writes by the gateway
// (held-writes.ts).
const heldWorkload: KindConverter = {
  in(ctx, obj) { workload.in(ctx, obj); },
  out(ctx, obj) { showTenantView(obj); return workload.out(ctx, obj); },
};

/**
 * A held DaemonSet's ControllerRevisions (made by the host's daemon controller while it was held) hold its pod
 * template with the held node term: not shown, so `kubectl rollout history` reads the tenant's template and
 * `rollout undo` does not send back a term the gateway refuses. Only a DaemonSet's: others may carry the key.
 */
const revisionTemplate = (obj: KubeObject): Obj | undefined => child(obj, 'data', 'spec', 'template');
/**
 * A revision's template is a pod template (kube's StatefulSet controller builds pods from it, ADR 0043's v1
 * amendment): a tenant's own is translated in as a workload's (tenant label, affinity namespaces, DNS searches),
 * and every revision's is translated out, so `rollout undo` sends back the tenant's names.
 */
const controllerRevision: KindConverter = {
  in(ctx, obj) {
    const template = revisionTemplate(obj);
    if (!template) return;
    mapTemplateLabels(template, (labels) => forceTenantLabel(ctx.id, labels));
    affinityIn(ctx, podSpecOfTemplate(template));
  },
  out(ctx, obj) {
    const template = revisionTemplate(obj);
    if (template) {
      mapTemplateLabels(template, dropTenantLabel);
      affinityOut(ctx, podSpecOfTemplate(template));
    }
    if (!(obj.metadata.ownerReferences ?? []).some((r) => r.controller === true && r.kind === 'DaemonSet')) return true;
    const podSpec = child(obj, 'data', 'spec', 'template', 'spec');
    const selector = child(podSpec, 'nodeSelector');
    if (podSpec && selector && selector[HELD_NODE_SELECTOR_KEY] === 'true') {
      delete selector[HELD_NODE_SELECTOR_KEY];
      if (Object.keys(selector).length === 0) delete podSpec.nodeSelector;
    }
    return true;
  },
};

const pod: KindConverter = {
  in(ctx, obj) { affinityIn(ctx, obj.spec); },
  out(ctx, obj) { affinityOut(ctx, obj.spec); return true; },
};

/**
 * An ExternalName that is a cluster DNS name (`<svc>.<ns>.svc`, `<ip>.<ns>.pod`,
 * ...; namespace-references.ts) names a namespace: the tenant's, prefixed.
 * Other names (outside the cluster) pass as they are.
 */
const service: KindConverter = {
  in(ctx, obj) {
    const spec = child(obj, 'spec');
    if (spec && typeof spec.externalName === 'string') spec.externalName = toUpstreamDnsName(ctx.id, spec.externalName);
  },
  out(ctx, obj) {
    const spec = child(obj, 'spec');
    if (spec && typeof spec.externalName === 'string') {
      const name = toTenantDnsName(ctx.id, spec.externalName);
      if (name === undefined) return false; // points into another tenant's namespace: not this tenant's to see
      spec.externalName = name;
    }
    return true;
  },
};

/** NetworkPolicy peers: a namespaceSelector (empty included) selects namespaces; narrowed to the tenant's. */
function networkPolicyPeers(obj: KubeObject): Obj[] {
  const spec = child(obj, 'spec');
  return [...objects(spec?.ingress).flatMap((r) => objects(r.from)), ...objects(spec?.egress).flatMap((r) => objects(r.to))];
}

const networkPolicy: KindConverter = {
  in(ctx, obj) {
    for (const peer of networkPolicyPeers(obj)) {
      if (isObject(peer.namespaceSelector)) peer.namespaceSelector = toUpstreamNamespaceSelector(ctx.id, peer.namespaceSelector);
    }
  },
  out(ctx, obj) {
    for (const peer of networkPolicyPeers(obj)) {
      if (!isObject(peer.namespaceSelector)) continue;
      const selector = toTenantNamespaceSelector(ctx.id, peer.namespaceSelector);
      if (selector === undefined) return false; // a peer beyond the tenant: hidden rather than shown wider than it is
      peer.namespaceSelector = selector;
    }
    return true;
  },
};

// Karmada: resourceSelectors and a binding's resource name objects by apiVersion/kind/namespace/name.
const karmadaPolicy: KindConverter = {
  in(ctx, obj) {
    const spec = child(obj, 'spec');
    if (spec && Array.isArray(spec.resourceSelectors)) spec.resourceSelectors = objects(spec.resourceSelectors).map((s) => toUpstreamObjectReference(ctx, s));
  },
  out(ctx, obj) {
    const spec = child(obj, 'spec');
    if (spec && Array.isArray(spec.resourceSelectors)) {
      spec.resourceSelectors = objects(spec.resourceSelectors).map((s) => toTenantObjectReference(ctx, s)).filter((s) => s !== undefined);
    }
    return true;
  },
};

// A ClusterResourceBinding's resource is cluster-scoped by definition: a custom kind there is too,
// even where the context cannot tell its scope from the tenant's CRD (its name then carries the prefix).
const bindingContext = (ctx: TenantContext, obj: KubeObject): TenantContext =>
  (obj.kind === 'ClusterResourceBinding' ? { ...ctx, customKindNamespaced: () => false } : ctx);
const karmadaBinding: KindConverter = {
  in(ctx, obj) { refIn(bindingContext(ctx, obj), child(obj, 'spec'), 'resource'); },
  out(outer, obj) {
    const ctx = bindingContext(outer, obj);
    const spec = child(obj, 'spec');
    if (spec && isObject(spec.resource) && toTenantObjectReference(ctx, spec.resource as ObjectReference) === undefined) return false;
    refOut(ctx, spec, 'resource');
    return true;
  },
};

/**
 * The apiserver labels every Namespace with its own name (kubernetes.io/metadata.name);
 * upstream that is the prefixed name, so it is rewritten both ways like the name itself.
 */
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';
const namespace: KindConverter = {
  in(ctx, obj) {
    const labels = obj.metadata.labels;
    if (labels && typeof labels[NAMESPACE_NAME_LABEL] === 'string') labels[NAMESPACE_NAME_LABEL] = addPrefix(ctx.id, labels[NAMESPACE_NAME_LABEL]);
  },
  out(ctx, obj) {
    const labels = obj.metadata.labels;
    const value = labels?.[NAMESPACE_NAME_LABEL];
    if (labels && typeof value === 'string') {
      const own = stripPrefix(ctx.id, value);
      if (own === undefined) delete labels[NAMESPACE_NAME_LABEL];
      else labels[NAMESPACE_NAME_LABEL] = own;
    }
    return true;
  },
};

// A token Secret would be filled with a host credential (ADR 0028); the way out redacts by shape (object-translation.ts).
const secret: KindConverter = {
  in(_ctx, obj) {
    const refused = serviceAccountTokenSecretRefusal(obj);
    if (refused) throw refused;
  },
  out: () => true,
};

/** Keyed by `<group>/<Kind>` in tenant spelling ('' group for core). */
export const KIND_CONVERTERS: ReadonlyMap<string, KindConverter> = new Map([
  ['/Namespace', namespace],
  ['/Pod', pod],
  ['/Secret', secret],
  ['/Service', service],
  ['networking.k8s.io/NetworkPolicy', networkPolicy],
  ['rbac.authorization.k8s.io/RoleBinding', rbacBinding('RoleBinding')],
  ['rbac.authorization.k8s.io/ClusterRoleBinding', rbacBinding('ClusterRoleBinding')],
  ['rbac.authorization.k8s.io/ClusterRole', clusterRole],
  ['apiextensions.k8s.io/CustomResourceDefinition', crd],
  ['/Event', coreEvent],
  ['events.k8s.io/Event', eventsEvent],
  ['/Endpoints', endpoints],
  ['discovery.k8s.io/EndpointSlice', endpointSlice],
  ['/PersistentVolume', persistentVolume],
  ['/PersistentVolumeClaim', persistentVolumeClaim],
  ['apps/Deployment', heldWorkload], ['apps/ReplicaSet', heldWorkload], ['apps/StatefulSet', heldWorkload], ['apps/DaemonSet', heldWorkload],
  ['batch/Job', heldWorkload], ['batch/CronJob', heldWorkload], ['/ReplicationController', heldWorkload], ['/PodTemplate', workload],
  ['apps/ControllerRevision', controllerRevision],
  ['policy.karmada.io/PropagationPolicy', karmadaPolicy], ['policy.karmada.io/ClusterPropagationPolicy', karmadaPolicy],
  ['policy.karmada.io/OverridePolicy', karmadaPolicy], ['policy.karmada.io/ClusterOverridePolicy', karmadaPolicy],
  ['work.karmada.io/ResourceBinding', karmadaBinding], ['work.karmada.io/ClusterResourceBinding', karmadaBinding],
]);

